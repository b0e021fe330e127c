"""Literacy levels from the ES Education literature (seed 001, VIII.3 "Literacy").

Every character starts illiterate: able to speak the mother tongue, not to read or write it.
The skill's score measures how well one reads a language, from 1 (spelling words out) to 10
(full command); the same holds for every other language. The seed describes only the two ends,
so levels 2 to 9 carry no description of their own (reading: a graded scale between them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["LITERACY", "LITERACY_SKILL", "LiteracyLevel", "literacy_level"]

LITERACY_SKILL = "education-literature"


@dataclass(frozen=True)
class LiteracyLevel:
    level: int
    description: str
    described_by_seed: bool


def _between(level: int) -> LiteracyLevel:
    return LiteracyLevel(level, f"partial command, {level} of 10 on the scale from spelling to full command", False)


LITERACY: Mapping[int, LiteracyLevel] = {
    0: LiteracyLevel(0, "illiterate: speaks the language but cannot read or write it", True),
    1: LiteracyLevel(1, "spells words out instead of reading", True),
    **{n: _between(n) for n in range(2, 10)},
    10: LiteracyLevel(10, "full command of the written language", True),
}


def literacy_level(level: int) -> LiteracyLevel:
    """The literacy row for a skill score (0 when the character lacks the skill)."""
    return LITERACY[max(0, min(10, level))]
