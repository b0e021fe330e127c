"""A VI·VIII·X character's turn on the player's phone (issue 27; core/turn.py).

Seed 001: an action resolution check on a known stat (VI), whose threshold the GM sets and whose
unknown stat stays the GM's secret, so a player's check becomes a request the GM completes;
a jump, a climb, a prolonged action and casting (VIII.3, VIII.4); and how the days are spent
(VIII.2). No odds are shown: they hang on the unknown stat, which a player may not learn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.turn import Tap, TurnAction

if TYPE_CHECKING:
    from rulekeeper.core.state import GameState
    from rulekeeper.systems.vi_viii_x.character import Character

__all__ = ["TURN_ACTIONS", "ViViiiXTurn"]

TURN_ACTIONS = (
    TurnAction("jump", "Jump", params=("style", "distance")),
    TurnAction("climb", "Climb", params=("grips", "tool")),
    TurnAction("sight", "Act without sight", params=("task",)),
    TurnAction("cast", "Cast a spell", params=("spell",)),
    TurnAction("rest", "Spend the days", group="rest", params=("kind",)),
)
_KNOWN = {"bu": "BU", "co": "CO", "in": "IN", "em": "EM"}


class ViViiiXTurn(Ruleset["Character"]):
    """The turn a VI·VIII·X ruleset offers a player's phone (mixed into its ruleset)."""

    turn_actions = TURN_ACTIONS

    def turn_taps(self, state: GameState[Character], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        return tuple(
            Tap(f"{name} check ({view[key]})", "arc", {"ks": key}, detail="the GM sets the threshold")
            for key, name in _KNOWN.items()
            if isinstance(view.get(key), int)
        )
