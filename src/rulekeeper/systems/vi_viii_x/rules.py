"""Citations for VI·VIII·X: every consequence names seed 001, its section and its place in the book.

Seed 001 is chapter VIII ("Other in-game rules") of the VI·VIII·X core rules; each citation
carries the section heading and ``VI·VIII·X core VIII.n``. Core mechanics the chapter uses
without defining them (the ARC, the stat layers) come from the rules brief
(shared/rules/vi-viii-x.md) and are cited with :func:`brief_rule`.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule

__all__ = [
    "ARC",
    "BRIEF",
    "CLIMB",
    "DEHYDRATION",
    "DISEASE",
    "FALLING",
    "INJURIES",
    "JUMP",
    "LITERACY",
    "POISON",
    "POTION",
    "PROLONGED",
    "RECOVERY",
    "SEED",
    "STARVATION",
    "SYSTEM",
    "SYSTEM_TITLE",
    "brief_rule",
    "rule",
    "state_rule",
]

SYSTEM = "vi-viii-x"
SYSTEM_TITLE = "VI·VIII·X"
SEED = "001"
BRIEF = "rules brief shared/rules/vi-viii-x.md"

# Section headings of seed 001 with their numbers in chapter VIII.
_NUMBERS = {
    "Injuries and death": "VIII.1",
    "Recovery and healing": "VIII.2",
    "Non-combat cases": "VIII.3",
    "States of the character": "VIII.4",
}


def rule(section: str, topic: str | None = None, *, reading: str | None = None) -> Rule:
    """A citation of ``section`` of seed 001 (optionally one ``topic`` inside it, e.g. ``"Climb"``)."""
    heading = section if topic is None else f"{section}: {topic}"
    return Rule(
        system=SYSTEM,
        section=heading,
        seed=SEED,
        page=f"{SYSTEM_TITLE} core {_NUMBERS[section]}",
        reading=reading,
    )


def state_rule(state: str, *, reading: str | None = None) -> Rule:
    """A citation of one state in "States of the character" (VIII.4)."""
    return rule("States of the character", state, reading=reading)


def brief_rule(topic: str, *, reading: str | None = None) -> Rule:
    """A citation of the rules brief, for mechanics seed 001 relies on without stating them."""
    return Rule(system=SYSTEM, section=f"{topic} ({BRIEF})", reading=reading)


INJURIES = rule("Injuries and death")
RECOVERY = rule("Recovery and healing")
POTION = rule(
    "Recovery and healing",
    reading="a healing potion's 2d3 replaces the natural 1d3 while it works, as a stretched potion heals slower",
)
CLIMB = rule("Non-combat cases", "Climb")
DISEASE = rule("Non-combat cases", "Disease")
FALLING = rule("Non-combat cases", "Falling damage")
JUMP = rule("Non-combat cases", "Jump")
LITERACY = rule("Non-combat cases", "Literacy")
POISON = rule("Non-combat cases", "Poison")
PROLONGED = rule("Non-combat cases", "Prolonged action")
STARVATION = rule("Non-combat cases", "Starvation")
DEHYDRATION = rule("Non-combat cases", "Starvation", reading="dehydration counts the same way from day 2")
ARC = brief_rule("Context: action resolution check (ARC)")
