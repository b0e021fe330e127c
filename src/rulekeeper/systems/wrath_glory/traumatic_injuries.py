"""The Traumatic Injury table (seed 003, Traumatic Injury), as data, and its lasting effects.

A d6 picks the body part; a second d6 picks the side (1-3 left, 4-6 right) for every part but the
Torso. Penalties last until a replacement part is acquired. Readings taken here:

* A side counts as unable to hold weapons when its hand *or* its arm is lost (an arm injury takes
  the hand's use with it), and as unable to walk when its foot *or* its leg is lost; "both hands or
  both arms" and "both feet or both legs" are read through that.
* Each unreplaced Torso injury adds the table's minimum +1 DN (option ``torso_dn``) to Toughness tests.
* One lost eye adds the seed's example +2 DN (option ``eye_dn``) to tests that need sight; both lost
  leave the character Blinded.
* Rolling a part already lost still counts as a Traumatic Injury (for death and Dying Wrath dice).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.wrath_glory.citations import BLINDED, CRAWL_ONLY, TRAUMATIC_INJURY

__all__ = [
    "SIDE_TABLE",
    "TRAUMATIC_INJURIES",
    "BodyPart",
    "Side",
    "TraumaticInjury",
    "TraumaticRow",
    "blinded",
    "cannot_hold_weapons",
    "crawl_only",
    "lost_eyes",
    "parse_injury_label",
    "side_for_roll",
    "torso_injuries",
    "traumatic_row",
]


class BodyPart(enum.Enum):
    HAND = "hand"
    ARM = "arm"
    FOOT = "foot"
    LEG = "leg"
    TORSO = "torso"
    EYE = "eye"


class Side(enum.Enum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class TraumaticRow:
    roll: int
    part: BodyPart
    sided: bool
    effect: str
    rule: Rule = TRAUMATIC_INJURY


TRAUMATIC_INJURIES: tuple[TraumaticRow, ...] = (
    TraumaticRow(1, BodyPart.HAND, True, "that hand is useless; with both gone no weapon or similar gear can be held"),
    TraumaticRow(2, BodyPart.ARM, True, "that arm is useless; with both gone no weapon or similar gear can be held"),
    TraumaticRow(
        3, BodyPart.FOOT, True, "that foot is useless; with both gone the character can only crawl", CRAWL_ONLY
    ),
    TraumaticRow(4, BodyPart.LEG, True, "that leg is useless; with both gone the character can only crawl", CRAWL_ONLY),
    TraumaticRow(5, BodyPart.TORSO, False, "organs are hurt: Toughness tests are harder, by at least +1 DN"),
    TraumaticRow(
        6, BodyPart.EYE, True, "that eye is lost (tests needing sight may be harder); both gone: Blinded", BLINDED
    ),
)

# d6 for the side: 1-3 left, 4-6 right.
SIDE_TABLE: tuple[tuple[int, int, Side], ...] = ((1, 3, Side.LEFT), (4, 6, Side.RIGHT))


def traumatic_row(roll: int) -> TraumaticRow:
    for row in TRAUMATIC_INJURIES:
        if row.roll == roll:
            return row
    raise ValueError(f"no Traumatic Injury row for a roll of {roll}")


def side_for_roll(roll: int) -> Side:
    for low, high, side in SIDE_TABLE:
        if low <= roll <= high:
            return side
    raise ValueError(f"no side for a roll of {roll}")


@dataclass(frozen=True)
class TraumaticInjury:
    """One Traumatic Injury on a character's sheet; ``replaced`` once a replacement part is acquired."""

    part: BodyPart
    side: Side | None = None
    replaced: bool = False

    @property
    def label(self) -> str:
        return self.part.value if self.side is None else f"{self.side.value} {self.part.value}"


def parse_injury_label(text: str) -> TraumaticInjury | None:
    """``"left hand"``, ``"torso"`` or ``"right eye (replaced)"`` as an injury; None if unreadable."""
    probe = text.strip().lower()
    replaced = probe.endswith("(replaced)")
    if replaced:
        probe = probe.removesuffix("(replaced)").strip()
    words = probe.split()
    if words == ["torso"]:
        return TraumaticInjury(BodyPart.TORSO, None, replaced)
    if len(words) != 2:
        return None
    side_word, part_word = words
    sides = {s.value: s for s in Side}
    parts = {p.value: p for p in BodyPart if p is not BodyPart.TORSO}
    if side_word not in sides or part_word not in parts:
        return None
    return TraumaticInjury(parts[part_word], sides[side_word], replaced)


def _lost(injuries: Sequence[TraumaticInjury], parts: tuple[BodyPart, ...], side: Side) -> bool:
    return any(i.part in parts and i.side is side and not i.replaced for i in injuries)


def cannot_hold_weapons(injuries: Sequence[TraumaticInjury]) -> bool:
    return all(_lost(injuries, (BodyPart.HAND, BodyPart.ARM), side) for side in Side)


def crawl_only(injuries: Sequence[TraumaticInjury]) -> bool:
    return all(_lost(injuries, (BodyPart.FOOT, BodyPart.LEG), side) for side in Side)


def lost_eyes(injuries: Sequence[TraumaticInjury]) -> int:
    return sum(1 for side in Side if _lost(injuries, (BodyPart.EYE,), side))


def blinded(injuries: Sequence[TraumaticInjury]) -> bool:
    return lost_eyes(injuries) == len(Side)


def torso_injuries(injuries: Sequence[TraumaticInjury]) -> int:
    return sum(1 for i in injuries if i.part is BodyPart.TORSO and not i.replaced)
