"""``rulekeeper.web``: the HTTP API, identities and live events (``rulekeeper serve``).

Modules, each reusable by the pages of issue 15:

* :mod:`.app` -- :func:`create_app`, the app factory;
* :mod:`.auth` -- the identity dependencies (token -> member of one campaign, role checks);
* :mod:`.projections` -- what each role may see, as JSON;
* :mod:`.broker` -- live events across workers and the CLI; :mod:`.event_routes` -- SSE;
* :mod:`.action_routes` -- one operation per system action, generated from its specs, served
  through :mod:`.action_dispatch` -- one route for every action;
* :mod:`.campaign_routes`, :mod:`.play_routes`, :mod:`.dice_routes` -- the fixed operations;
* :mod:`.problems` -- RFC 9457 errors (``rulekeeper.validation_words`` words a malformed
  request's fields); :mod:`.commands` -- If-Match and Idempotency-Key;
* :mod:`.pool` -- warm ``Campaign`` objects per process; :mod:`.serve` -- uvicorn.

Importing this package loads FastAPI; the CLI imports it only for ``rulekeeper serve``.
"""

from __future__ import annotations

from rulekeeper.web.app import create_app

__all__ = ["create_app"]
