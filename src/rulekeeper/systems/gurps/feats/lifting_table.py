"""How much a character can lift or move, in multiples of Basic Lift (seed 004, "Lifting & Moving Things")."""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.citations import LIFTING, LIFTING_CARRY

__all__ = ["CARRY_FATIGUE_MULTIPLE", "LIFTS", "LiftRow", "lift_row"]

#: A load over this many times BL on the back costs 1 FP every second.
CARRY_FATIGUE_MULTIPLE = 10


@dataclass(frozen=True)
class LiftRow:
    """``multiple`` x BL is the most this way of moving a weight handles; ``seconds`` it takes, if given."""

    key: str
    name: str
    multiple: int
    seconds: int | None
    running_multiple: int
    rule: Rule


LIFTS: dict[str, LiftRow] = {
    row.key: row
    for row in (
        LiftRow("one-hand", "one-handed lift", 2, 2, 1, LIFTING),
        LiftRow("two-hand", "two-handed lift", 8, 4, 1, LIFTING),
        # a running start doubles what a shove can knock over
        LiftRow("shove", "shove and knock over", 12, None, 2, LIFTING),
        LiftRow("carry", "carry on back", 15, None, 1, LIFTING_CARRY),
        LiftRow("shift", "shift slightly", 50, None, 1, LIFTING),
    )
}


def lift_row(key: str) -> LiftRow:
    row = LIFTS.get(key.strip().lower())
    if row is None:
        raise InputError(f"unknown way to move a weight {key!r}", expected="one of " + ", ".join(LIFTS), where="how")
    return row
