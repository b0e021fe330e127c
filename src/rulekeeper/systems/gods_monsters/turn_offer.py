"""A Gods & Monsters character's turn on the player's phone (issue 27; core/turn.py).

Seed 001's character actions: an ability or reaction roll (d20 at most the score, at the
injury penalty: the view's ``roll_targets`` already carry it), mojo spent, a spell cast or
memorized within the level the injuries allow, a chase, disbelieving an illusion (seed 002,
"Illusions"), and the night's or day's rest ("Healing").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.turn import Tap, TurnAction, odds_chance

if TYPE_CHECKING:
    from rulekeeper.core.state import GameState
    from rulekeeper.systems.gods_monsters.character import GmCharacter

__all__ = ["TURN_ACTIONS", "GodsMonstersTurn"]

TURN_ACTIONS = (
    TurnAction("chase", "Chase or flee", params=("other", "role", "bonus")),
    TurnAction("disbelieve", "Disbelieve an illusion", params=("method", "illusion", "bonus")),
    TurnAction("cast_spell", "Cast or memorize a spell", params=("spell_level", "memorize")),
    TurnAction("mojo", "Spend mojo", group="spend", params=("spend",)),
    TurnAction("rest", "Rest", group="rest", params=("kind", "recover")),
)


class GodsMonstersTurn(Ruleset["GmCharacter"]):
    """The turn a Gods & Monsters ruleset offers a player's phone (mixed into its ruleset)."""

    turn_actions = TURN_ACTIONS

    def turn_taps(self, state: GameState[GmCharacter], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        targets = view.get("roll_targets")
        if not isinstance(targets, Mapping):
            return ()
        return tuple(
            Tap(f"{name.capitalize()} {score}", "roll", {"against": name}, chance=odds_chance(self, target=score))
            for name, score in targets.items()
            if isinstance(score, int)
        )
