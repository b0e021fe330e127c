"""Citations of seed 002, "Play the Game: Actions and consequences", section by section.

Headings are spelled as in the seed so a reader can find them. Four passages of the seed have
lost their headings (concentration, semi-consciousness, suffocation and the spells-and-spirits
movement note); they are cited by a descriptive name that says where the passage sits.
Facts from outside the seed (the group effort chart) cite their public source page.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gods_monsters.rules import SYSTEM, rule

__all__ = [
    "AGING",
    "AILMENTS",
    "AILMENT_EFFECTS",
    "AILMENT_STRENGTH",
    "AILMENT_TABLE",
    "CHASES",
    "CONCENTRATION",
    "DAILY_MOVEMENT",
    "FALLING",
    "GROUP_EFFORT",
    "ILLUSIONS",
    "ITEM_REACTIONS",
    "JUMPING",
    "MOVEMENT",
    "MOVEMENT_CONTESTS",
    "MOVEMENT_DARKNESS",
    "MOVEMENT_FLYING",
    "MOVEMENT_REST",
    "SEARCHING",
    "SEED",
    "SEMI_CONSCIOUS",
    "SPELLS_AND_SPIRITS",
    "SUFFOCATION",
    "TRACKING",
    "UPKEEP",
    "c_rule",
    "group_effort_rule",
]

SEED = "002"

AGING = "Actions and consequences: Aging"
AILMENTS = "Ailments: sickness, disease, and poison"
AILMENT_STRENGTH = "Ailment strength"
AILMENT_EFFECTS = "Ailment effects"
AILMENT_TABLE = "Example ailments"
CHASES = "Actions and consequences: Chases"
CONCENTRATION = "Concentration (untitled passage after Chases)"
FALLING = "Actions and consequences: Falling"
ILLUSIONS = "Actions and consequences: Illusions"
ITEM_REACTIONS = "Item reactions"
JUMPING = "Actions and consequences: Jumping"
MOVEMENT = "Actions and consequences: Movement"
SPELLS_AND_SPIRITS = "Spells and spirits"
MOVEMENT_CONTESTS = "Movement: Contests"
MOVEMENT_REST = "Movement: Rest"
MOVEMENT_DARKNESS = "Movement: Darkness"
DAILY_MOVEMENT = "Daily movement"
MOVEMENT_FLYING = "Movement: Flying"
SEARCHING = "Actions and consequences: Searching"
SEMI_CONSCIOUS = "Semi-consciousness (untitled passage after Searching)"
SUFFOCATION = "Suffocation (untitled passage after Semi-consciousness)"
TRACKING = "Actions and consequences: Tracking"
UPKEEP = "Upkeep and living expenses"

GROUP_EFFORT = "Play the Game: Group effort (godsmonsters.com/Game/Rules/4/10, not in the seeds)"


def c_rule(section: str, *, reading: str | None = None) -> Rule:
    """A citation of ``section`` in seed 002 (``reading`` names the reading taken, if any)."""
    return rule(section, seed=SEED, reading=reading)


def group_effort_rule(*, reading: str | None = None) -> Rule:
    """The group effort chart, which seed 002 refers to (chases, tracking) but does not give."""
    return Rule(system=SYSTEM, section=GROUP_EFFORT, reading=reading)
