"""What seed 002 state does to a character's rolls: ailment penalties and the speed penalty.

These are read from conditions in the game state, so they can be asked for any character
without a :class:`~rulekeeper.core.play.Play`. The survival rules show them in the view
(``consequence_view``) and may add them to their own rolls (``consequence_roll_modifiers``).
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.check import Modifier
from rulekeeper.core.section import Section
from rulekeeper.core.state import GameState
from rulekeeper.systems.gods_monsters.character import REACTIONS
from rulekeeper.systems.gods_monsters.consequences.ailments import penalty_for_score

__all__ = [
    "AILMENT_KIND",
    "LINGERING_KIND",
    "MOVING",
    "STATE_EFFECTS_SECTION",
    "ailment_penalties",
    "score_modifiers",
]

AILMENT_KIND = "ailment"  # condition data "kind" of an ailment in progress
LINGERING_KIND = "ailment after-effects"  # penalties that outlast their ailment
MOVING = "moving"  # condition: the character moves at a speed of the speeds table


def ailment_penalties(state: GameState[Any], actor: str) -> dict[str, int]:
    """Every ailment penalty on ``actor`` now, summed by score (and ``concentration``)."""
    total: dict[str, int] = {}
    for condition in state.conditions_of(actor):
        if condition.data.get("kind") not in (AILMENT_KIND, LINGERING_KIND):
            continue
        for name, value in dict(condition.data.get("penalties", {})).items():
            total[str(name)] = total.get(str(name), 0) + int(value)
    return {k: v for k, v in total.items() if v}


def score_modifiers(state: GameState[Any], actor: str, score: str) -> tuple[Modifier, ...]:
    """Modifiers seed 002 state puts on a roll of ``score`` (an ability or reaction name)."""
    mods: list[Modifier] = []
    ailing = penalty_for_score(ailment_penalties(state, actor), score)
    if ailing:
        mods.append(Modifier(ailing, "ailments"))
    moving = state.condition(actor, MOVING)
    if moving is not None and score in REACTIONS:
        penalty = int(moving.data.get("reaction", 0))
        if penalty:
            mods.append(Modifier(penalty, f"moving at {moving.data.get('speed', 'speed')}"))
    return tuple(mods)


#: What seed 002 state puts on any roll: ailment penalties, a moving character's reaction penalty.
STATE_EFFECTS_SECTION = Section("state effects", roll_modifiers=score_modifiers)
