"""Conditions that follow from the sheet (Wounded, Exhausted, Dying, Dead, trauma effects), kept in step.

The game state's condition list is what logs and live views show; :func:`sync_conditions` makes
it agree with the character after every change, so a condition is present exactly when its rule holds.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule
from rulekeeper.systems.wrath_glory import citations
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.traumatic_injuries import blinded, cannot_hold_weapons, crawl_only

__all__ = [
    "BLINDED",
    "CRAWL_ONLY",
    "DEAD",
    "DERIVED_CONDITIONS",
    "DYING",
    "EXHAUSTED",
    "NO_WEAPONS",
    "PRONE",
    "RESTING",
    "WOUNDED",
    "derived_conditions",
    "sync_conditions",
]

WOUNDED = "wounded"
EXHAUSTED = "exhausted"
DYING = "dying"
DEAD = "dead"
BLINDED = "blinded"
NO_WEAPONS = "no-weapons"
CRAWL_ONLY = "crawl-only"
PRONE = "prone"
RESTING = "resting"

# name -> (rule, text when it begins, rule when it ends)
DERIVED_CONDITIONS: dict[str, tuple[Rule, str, Rule]] = {
    WOUNDED: (citations.WOUNDED, "is Wounded: +1 DN to every test", citations.WOUNDED),
    EXHAUSTED: (citations.SHOCK, "is Exhausted: Shock exceeds Max Shock", citations.SHOCK),
    DYING: (citations.DYING, "is Dying: Wounds exceed Max Wounds", citations.DYING_RECOVERY),
    DEAD: (citations.WOUNDS, "is dead", citations.WOUNDS),
    BLINDED: (citations.BLINDED, "is Blinded: both eyes are lost", citations.BLINDED),
    NO_WEAPONS: (
        citations.TRAUMATIC_INJURY,
        "can hold no weapon or similar gear: both hands or arms are lost",
        citations.TRAUMATIC_INJURY,
    ),
    CRAWL_ONLY: (
        citations.CRAWL_ONLY,
        "can only crawl: both feet or legs are lost (no walking, running or sprinting)",
        citations.CRAWL_ONLY,
    ),
}


def derived_conditions(character: WrathGloryCharacter) -> tuple[str, ...]:
    """The sheet-derived conditions that hold for ``character``, in a fixed order."""
    alive = not character.dead
    holds = {
        WOUNDED: character.wounded,
        EXHAUSTED: character.exhausted,
        DYING: character.dying,
        DEAD: character.dead,
        BLINDED: alive and blinded(character.traumatic_injuries),
        NO_WEAPONS: alive and cannot_hold_weapons(character.traumatic_injuries),
        CRAWL_ONLY: alive and crawl_only(character.traumatic_injuries),
    }
    return tuple(name for name in DERIVED_CONDITIONS if holds[name])


def sync_conditions(play: WGPlay, actor: str) -> None:
    """Add and remove derived conditions so the state agrees with the sheet."""
    holding = set(derived_conditions(play.char(actor)))
    for name, (rule, text, end_rule) in DERIVED_CONDITIONS.items():
        present = play.has(actor, name)
        if name in holding and not present:
            play.add_condition(actor, name, rule, text=f"{actor} {text}")
        elif name not in holding and present:
            play.remove_condition(actor, name, end_rule)
