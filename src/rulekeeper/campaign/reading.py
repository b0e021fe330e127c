"""What a player may read of an explanation: decided here once, for every front end.

A step reaches a player only when it is about one of the player's characters or about no one,
and only in the wording the rules give players (``Ruleset.player_text``: never a GM-only step
nor a GM-secret check). The CLI's ``--as-player`` log (``Campaign.player_log``) and the web's
projections (``web/projections.py``) both ask :func:`readable_steps`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekeeper.core.explain import Step
    from rulekeeper.core.ruleset import Ruleset

__all__ = ["readable_steps"]


def readable_steps(
    ruleset: Ruleset[Any], steps: Iterable[Step], plays: Callable[[str], bool]
) -> list[tuple[Step, str]]:
    """Each step the player who ``plays`` some characters may read, with its wording for them."""
    out = []
    for step in steps:
        if step.actor is not None and not plays(step.actor):
            continue
        text = ruleset.player_text(step)
        if text is not None:
            out.append((step, text))
    return out
