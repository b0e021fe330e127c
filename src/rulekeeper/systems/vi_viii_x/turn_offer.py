"""A VI·VIII·X character's turn on the player's phone (issue 27; core/turn.py).

Seed 001: a climb, a jump, a prolonged action, acting blind and casting (VIII.3, VIII.4), and how
the days are spent (VIII.2). No odds are shown: every ARC hangs on an unknown stat, which a
player may not learn. An action resolution check (VI) needs the GM's threshold, so the GM raises
it and the player rolls it from "Your checks".
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
    TurnAction("sight", "Act without sight", params=("task",)),
    TurnAction("cast", "Cast a spell", params=("spell",)),
    TurnAction("exert", "Start a prolonged action", params=("turns",)),
    TurnAction("rest", "Spend the days", group="rest", params=("kind",)),
)
#: The feats a character tries on their own say-so (VIII.3): one tap each.
_FEATS = (("Climb (rope and hook)", "climb", {"grips": False, "tool": True}),)
#: Jumps need the sheet's agility (VIII.3): offered when the view says the character can jump.
_JUMPS = (("Running jump", "jump", {"style": "running"}), ("Standing jump", "jump", {"style": "standing"}))


class ViViiiXTurn(Ruleset["Character"]):
    """The turn a VI·VIII·X ruleset offers a player's phone (mixed into its ruleset)."""

    turn_actions = TURN_ACTIONS

    def turn_taps(self, state: GameState[Character], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        feats = _FEATS + (_JUMPS if view.get("can_jump") else ())
        return tuple(Tap(label, action, params) for label, action, params in feats)
