"""The app factory: :func:`create_app` builds the whole HTTP API on one store.

::

    from rulekeeper.web import create_app
    app = create_app("campaigns.db")          # or a postgresql+psycopg:// URL, or "memory://"

The app owns a :class:`~rulekeeper.web.server.Server` (``app.state.rulekeeper``): the store,
the warm campaigns (:class:`~rulekeeper.web.pool.CampaignPool`) and the live-event broker
(:class:`~rulekeeper.web.broker.EventBroker`, started and stopped with the app's lifespan).
Pages (issue 15) add their routers to the app this returns and reuse the same three, plus the
identity dependencies of :mod:`rulekeeper.web.auth` and the projections of
:mod:`rulekeeper.web.projections`.

``rulekeeper serve`` runs :func:`app_from_environment` in each uvicorn worker process; it reads
the database from ``RULEKEEPER_DB`` like the CLI.
"""

from __future__ import annotations

import gc
import logging
import os
import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.telemetry import TelemetryConfig
from starlette.routing import BaseRoute

from rulekeeper.campaign import Store, open_store
from rulekeeper.links import BASE_URL_VAR, DEFAULT_BASE_URL
from rulekeeper.web import (
    action_routes,
    campaign_routes,
    dice_routes,
    event_routes,
    play_routes,
    seat_routes,
    sheet_file_routes,
    turn_routes,
)
from rulekeeper.web.broker import EventBroker
from rulekeeper.web.guard import install_guard
from rulekeeper.web.pool import CampaignPool
from rulekeeper.web.problems import MEDIA_TYPE, install_problem_handlers
from rulekeeper.web.server import Server

__all__ = ["BASE_URL_VAR", "OPEN_CREATION_VAR", "WORKERS_VAR", "app_from_environment", "create_app", "telemetry"]

OPEN_CREATION_VAR = "RULEKEEPER_OPEN_CREATION"
#: How many worker processes ``rulekeeper serve`` started on the database.
WORKERS_VAR = "RULEKEEPER_SERVE_WORKERS"
#: Threads serving requests in one worker process.
THREADS = int(os.environ.get("RULEKEEPER_SERVE_THREADS", "8"))


def telemetry(environ: Mapping[str, str] | None = None) -> TelemetryConfig | None:
    """FastAPI's OpenTelemetry settings for the app: FastAPI's own (``None``) when the process
    is set up for OpenTelemetry -- an ``OTEL_`` variable (as ``opentelemetry-instrument`` and
    the SDK's exporters read), ``FASTAPI_OTEL_AUTO_CONFIGURE``, or a tracer provider already
    installed -- and otherwise off. FastAPI looks its three global providers up on every
    request to find them unconfigured: about 3 % of an action's CPU in process (py-spy samples
    of the action load). A server started without OpenTelemetry does not take it up later."""
    from opentelemetry import trace

    env = os.environ if environ is None else environ
    if any(name.startswith("OTEL_") for name in env) or env.get("FASTAPI_OTEL_AUTO_CONFIGURE", "").lower() == "true":
        return None
    if not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider):
        return None
    return {"tracing": False, "metrics": False, "logs": False}


_DESCRIPTION = """\
The rulekeeper table online: every command of the CLI as an HTTP operation, one operation per
action of every game system (its body generated from the rules' parameter specs), identities per
campaign (GM, players bound to characters, observers) and a live event stream.

Authenticate with `Authorization: Bearer <token>`; a token comes from `rulekeeper campaign new`
(the GM's), `rulekeeper campaign invite` or `POST /api/campaigns/{campaign}/members`. Errors are
`application/problem+json` (RFC 9457). See docs/api.md for what each role sees.
"""


class _HideTokens(logging.Filter):
    """Access logs must not keep the tokens that ``?token=`` carries (event streams, join links)."""

    _pattern = re.compile(r"(token=)[^&\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(self._pattern.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
        return True


def _hide_tokens_in_access_log() -> None:
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _HideTokens) for f in access.filters):
        access.addFilter(_HideTokens())


def create_app(
    store: Store | str | None = None,
    *,
    base_url: str | None = None,
    open_creation: bool = False,
    only_process: bool = True,
) -> FastAPI:
    """The API on ``store`` (a store, a URL or path, or ``None`` for the CLI's default database).
    ``open_creation`` lets clients on other machines create and import campaigns;
    ``only_process`` says no other server process shares the database (``Server.only_process``)."""
    owned = not isinstance(store, Store)
    the_store = store if isinstance(store, Store) else open_store(store)
    pool = CampaignPool(the_store)
    server = Server(
        the_store,
        pool,
        EventBroker(the_store, pool),
        base_url or DEFAULT_BASE_URL,
        open_creation,
        only_process=only_process,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        import anyio.to_thread

        # Commands are CPU-bound Python: many threads at once only trade the GIL back and forth
        # (each holding it up to 5 ms), so a few threads answer a crowd sooner than forty.
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        await server.broker.start()
        server.awaited = the_store.awaited() or server.inline_awaited()
        if server.awaited is not None:
            # In the background: the app answers at once, and a database slow to accept
            # connections delays no start-up.
            server.awaited.warm_in_background()
        try:
            yield
        finally:
            awaited, server.awaited = server.awaited, None
            if awaited is not None:
                await awaited.close()
            await server.broker.stop()
            await server.stream_tokens.stop()
            if owned:
                the_store.close()

    app = FastAPI(
        title="rulekeeper",
        version="1",
        description=_DESCRIPTION,
        lifespan=lifespan,
        telemetry=telemetry(),
        openapi_tags=[
            {"name": "campaigns", "description": "Create, show, settings, export and import."},
            {"name": "members", "description": "Tokens: invite, revoke, list; who am I."},
            {"name": "characters", "description": "Add, show, edit, remove; sheet files (GCS) in and back out."},
            {"name": "play", "description": "Pending checks, resolve, rounds, time, the log."},
            {"name": "undo", "description": "Undo with a preview of what goes with it; redo."},
            {"name": "live", "description": "Server-Sent Events per campaign."},
        ],
    )
    app.state.rulekeeper = server
    _hide_tokens_in_access_log()
    install_problem_handlers(app)

    @app.get("/api/health", tags=["live"])
    def health() -> dict[str, str | int]:
        """Liveness, without touching a campaign; ``process`` tells workers apart."""
        return {"status": "ok", "process": os.getpid()}

    app.include_router(dice_routes.router)
    app.include_router(campaign_routes.router)
    app.include_router(play_routes.router)
    app.include_router(sheet_file_routes.router)
    app.include_router(event_routes.router)
    app.include_router(seat_routes.router)
    app.include_router(turn_routes.router)
    from rulekeeper.web.pages import install_pages

    # Issue 15's pages, on the same store and broker.
    install_pages(app)
    # Every action through one route at the head of the table; its documented operations (one
    # per system and action) are only in the schema.
    documented = action_routes.install_actions(app)
    # Outermost, so the action lane and the middleware stack both pass it (bodies, origins, headers).
    install_guard(app)
    _schema(app, documented)
    return app


def _schema(app: FastAPI, documented: list[BaseRoute]) -> None:
    """The OpenAPI schema of the app's routes and the documented action operations; error
    responses are ``application/problem+json`` only (FastAPI would also list JSON)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                openapi_version=app.openapi_version,
                description=app.description,
                routes=[*app.routes, *documented],
                tags=app.openapi_tags,
                separate_input_output_schemas=app.separate_input_output_schemas,
            )
            for operation in (op for path in schema["paths"].values() for op in path.values()):
                for status, response in operation.get("responses", {}).items():
                    content = response.get("content", {})
                    if status.startswith("4") and MEDIA_TYPE in content and "application/json" in content:
                        content[MEDIA_TYPE] = content.pop("application/json")
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_environment() -> FastAPI:
    """The app for one ``rulekeeper serve`` worker: ``RULEKEEPER_DB``, ``RULEKEEPER_BASE_URL``,
    ``RULEKEEPER_OPEN_CREATION``."""
    app = create_app(
        os.environ.get("RULEKEEPER_DB") or None,
        base_url=os.environ.get(BASE_URL_VAR),
        open_creation=os.environ.get(OPEN_CREATION_VAR) == "1",
        only_process=os.environ.get(WORKERS_VAR, "1") == "1",
    )
    # The app is ~170,000 objects (routes, models, schemas) that live as long as the process.
    # Every full collection of Python's cycle collector walked all of them: an ~85 ms pause of
    # every request in flight, about once per thousand commands. Frozen, the collector skips
    # them. Only here, in a worker process: tests build and drop many apps with create_app.
    gc.collect()
    gc.freeze()
    return app
