"""The rules behind every feat, as citations of seed 004 (section heading, and a page where the seed gives one).

The seed's "Physical Feats" and "Mental Feats" sections carry no page of their own, so most
citations name the section only; pages appear where the seed points at one (Falling p. 32,
Damage Table p. 6, Reaction Rolls p. 3, stun p. 30, Encumbrance and Move p. 17).
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.rules import THRUST_SWING, rule

__all__ = [
    "CLIMBING",
    "CLIMBING_FALL",
    "CLIMBING_ROPE",
    "CLIMBING_TABLE",
    "COMPREHENSION",
    "DANGER_SENSE",
    "ENCUMBRANCE",
    "FRIGHT",
    "FRIGHT_FAINT",
    "FRIGHT_STUN",
    "HIKING",
    "HIKING_GROUP",
    "HIKING_TERRAIN",
    "INFLUENCE",
    "JUMPING",
    "LIFTING",
    "LIFTING_CARRY",
    "REACTION",
    "RUNNING",
    "RUNNING_FATIGUE",
    "SENSE",
    "SWIMMING",
    "SWIMMING_DROWNING",
    "SWIMMING_FATIGUE",
    "SWIMMING_MOVE",
    "THROWING",
    "THROWING_DAMAGE",
    "THROWING_DISTANCE",
    "THRUST_TABLE",
    "WILL",
]

ENCUMBRANCE: Rule = rule("Encumbrance and Move", "Lite p. 17")

CLIMBING: Rule = rule("Climbing")
CLIMBING_TABLE: Rule = rule(
    "Climbing",
    reading="the garbled rope rows read as: rope up -2; rope down without / with equipment -1 each (brief)",
)
CLIMBING_FALL: Rule = rule("Climbing", "Lite p. 32")
CLIMBING_ROPE: Rule = rule("Climbing")

HIKING: Rule = rule("Hiking")
HIKING_GROUP: Rule = rule(
    "Hiking",
    reading="the group marches at its slowest member's pace; the average skill is rounded down",
)
HIKING_TERRAIN: Rule = rule("Hiking")

JUMPING: Rule = rule("Jumping Distance")

LIFTING: Rule = rule("Lifting & Moving Things")
LIFTING_CARRY: Rule = rule("Lifting & Moving Things")

RUNNING: Rule = rule("Running")
RUNNING_FATIGUE: Rule = rule(
    "Running",
    reading="'1/3 or less' read as the Fatigue table's 'less than 1/3' (brief)",
)

SWIMMING: Rule = rule("Swimming")
SWIMMING_FATIGUE: Rule = rule(
    "Swimming",
    reading="'1/3 or less' read as the Fatigue table's 'less than 1/3' (brief)",
)
SWIMMING_MOVE: Rule = rule("Swimming")
SWIMMING_DROWNING: Rule = rule(
    "Lost Fatigue Points",
    reading="a swimmer who cannot roll (unconscious) fails automatically every 5 seconds",
)

THROWING: Rule = rule("Throwing")
THROWING_DISTANCE: Rule = rule(
    "Throwing Distance Table",
    reading="between two rows the next larger weight ratio is used (brief)",
)
THROWING_DAMAGE: Rule = rule(
    "Throwing Damage Table",
    reading="-1/2 per die rounds the total penalty toward zero; a damage roll never goes below 0",
)
THRUST_TABLE: Rule = THRUST_SWING

SENSE: Rule = rule("Sense Roll")
COMPREHENSION: Rule = rule("Sense Roll")
DANGER_SENSE: Rule = rule("Sense Roll", "Lite p. 9")

INFLUENCE: Rule = rule("Influence Rolls")
REACTION: Rule = rule("Influence Rolls", "Lite p. 3")

WILL: Rule = rule("Will Rolls")
FRIGHT: Rule = rule("Fright Checks")
FRIGHT_STUN: Rule = rule("Fright Checks", "Lite p. 30")
FRIGHT_FAINT: Rule = rule("Fright Checks")
