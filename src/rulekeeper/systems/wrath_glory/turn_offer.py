"""A Wrath & Glory character's turn on the player's phone (issue 27; core/turn.py).

Seed 003: a movement or combat action ("Actions", with what Dying and lasting injuries
forbid), a Wrath point spent ("Wrath"), the tests of the attributes the sheet holds (a pool of
the attribute's dice against DN 3, the usual Difficulty), and a Regroup or Respite ("Regroup and
Respite"). The party's Glory is not tracked by rulekeeper, so there is no Glory spend to offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.turn import Tap, TurnAction, odds_chance

if TYPE_CHECKING:
    from rulekeeper.core.state import GameState
    from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter

__all__ = ["TURN_ACTIONS", "WrathGloryTurn"]

TURN_ACTIONS = (
    TurnAction("act", "Take an action", params=("action", "weapon")),
    TurnAction("test", "Make a test", params=("attribute", "dn", "bonus_dice", "label")),
    TurnAction("rest", "Rest", group="rest", params=("kind", "healer")),
)
#: The usual Difficulty Number of a test (seed 003, "Tests"), the action's own default.
_DN = 3
_ATTRIBUTES = ("strength", "toughness", "agility", "initiative", "willpower", "intellect", "fellowship")


class WrathGloryTurn(Ruleset["WrathGloryCharacter"]):
    """The turn a Wrath & Glory ruleset offers a player's phone (mixed into its ruleset)."""

    turn_actions = TURN_ACTIONS

    def turn_taps(self, state: GameState[WrathGloryCharacter], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        taps: list[Tap] = []
        wrath = view.get("wrath")
        if isinstance(wrath, int) and wrath > 0:
            taps.append(Tap(f"Spend 1 Wrath ({wrath} left)", "wrath", {"change": -1}, group="spend"))
        for name in _ATTRIBUTES:
            pool = view.get(name)
            if isinstance(pool, int) and pool > 0:
                chance = odds_chance(self, pool=pool, dn=_DN)
                taps.append(Tap(f"{name.capitalize()} {pool}d, DN {_DN}", "test", {"attribute": name}, chance=chance))
        return tuple(taps)
