"""Citations for Gods & Monsters: every consequence names its seed and section.

Seed 000 is "Play the Game: Survival", seed 002 "Play the Game: Actions and consequences"
(shared/seeds). Facts the seeds rely on without stating them come from the rules brief
(shared/rules/gods-and-monsters.md) and are cited with :func:`brief_rule`.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule

__all__ = [
    "BONUS_POOLS",
    "BRIEF",
    "INJURIES",
    "INJURIES_EXAMPLE",
    "NPCS",
    "REGAINING",
    "SYSTEM",
    "TIME_TO_DIE",
    "USING_VERVE",
    "brief_rule",
    "rule",
]

SYSTEM = "gods-and-monsters"

# Section headings of seed 000, spelled as in the seed so a reader can find them.
REGAINING = "Regaining survival and healing injuries"
USING_VERVE = "Using verve"
INJURIES = "Injury points (zero survival points)"
INJURIES_EXAMPLE = "Injury points (zero survival points): Example"
TIME_TO_DIE = "A time to die"
NPCS = "Non-player characters"
BONUS_POOLS = "Temporary bonus pools"

BRIEF = "rules brief (shared/rules/gods-and-monsters.md)"


def rule(section: str, seed: str = "000", *, reading: str | None = None) -> Rule:
    """A citation of ``section`` in a Gods & Monsters seed (``"000"`` survival, ``"002"`` consequences).

    ``reading`` names the reading we took where the seed is ambiguous (see the system's docs).
    """
    return Rule(system=SYSTEM, section=section, seed=seed, reading=reading)


def brief_rule(section: str, *, reading: str | None = None) -> Rule:
    """A citation of the rules brief, for core mechanics the seeds use without defining them."""
    return Rule(system=SYSTEM, section=f"{section} ({BRIEF})", reading=reading)
