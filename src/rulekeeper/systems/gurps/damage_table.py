"""Thrust and swing damage by ST, and GURPS damage dice ("2d+1", "sw+2").

ST 1-20 is the table of GURPS Lite p. 6 as given in the brief (not in seed 004 itself). Above ST
20 the Basic Set table (B16) continues the same pattern; rulekeeper reads it as the arithmetic GURPS
Character Sheet uses for its ``basic_set`` damage progression (GCS ``AttributeDamage`` /
``damage_progression.go``), which reproduces the ST 1-20 rows exactly (tested) and B16's rows above
them: thrust gains +1 per two ST from ST 19 (a die per 8 ST, the step lost at ST 51+ and every 5 ST
from 80), swing +1 per ST in fours to ST 27 and then like thrust, shifted nine ST. This is a
documented reading, not a seed-004 rule; ST below 1 is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rulekeeper.errors import InputError

__all__ = ["SWING", "THRUST", "DamageDice", "parse_damage", "swing", "thrust"]


@dataclass(frozen=True)
class DamageDice:
    """``dice`` dice of ``sides`` sides plus ``adds``, the total times ``multiplier`` (GURPS "2d-1",
    "3dx5"; d3 only in a house damage progression GCS offers)."""

    dice: int
    adds: int = 0
    sides: int = 6
    multiplier: int = 1

    def __str__(self) -> str:
        times = f"x{self.multiplier}" if self.multiplier != 1 else ""
        if self.dice == 0:
            return f"{self.adds}{times}"
        die = "d" if self.sides == 6 else f"d{self.sides}"
        adds = f"{self.adds:+d}" if self.adds else ""
        return f"{self.dice}{die}{adds}{times}"

    @property
    def notation(self) -> str:
        """The dice in rulekeeper's roll notation ("2d+1", "(3d6)*5")."""
        if self.multiplier == 1 and self.sides == 6:
            return str(self)
        adds = f"{self.adds:+d}" if self.adds else ""
        plain = f"{self.dice}d{self.sides}{adds}" if self.dice else str(self.adds)
        return plain if self.multiplier == 1 else f"({plain})*{self.multiplier}"

    @property
    def maximum(self) -> int:
        return max(0, (self.sides * self.dice + self.adds) * self.multiplier)

    @property
    def minimum(self) -> int:
        return max(0, (self.dice + self.adds) * self.multiplier)

    def plus(self, adds: int) -> DamageDice:
        return replace(self, adds=self.adds + adds)

    def per_die(self, per_die: int) -> DamageDice:
        return replace(self, adds=self.adds + per_die * self.dice)


# (highest ST of the row, dice, adds); GURPS Lite p. 6 via the brief.
THRUST: tuple[tuple[int, int, int], ...] = (
    (2, 1, -6),
    (4, 1, -5),
    (6, 1, -4),
    (8, 1, -3),
    (10, 1, -2),
    (12, 1, -1),
    (14, 1, 0),
    (16, 1, 1),
    (18, 1, 2),
    (20, 2, -1),
)
SWING: tuple[tuple[int, int, int], ...] = (
    (2, 1, -5),
    (4, 1, -4),
    (6, 1, -3),
    (8, 1, -2),
    (9, 1, -1),
    (10, 1, 0),
    (11, 1, 1),
    (12, 1, 2),
    (13, 2, -1),
    (14, 2, 0),
    (15, 2, 1),
    (16, 2, 2),
    (17, 3, -1),
    (18, 3, 0),
    (19, 3, 1),
    (20, 3, 2),
)


def _lookup(table: tuple[tuple[int, int, int], ...], st: int, what: str) -> DamageDice:
    if st < 1:
        raise InputError(f"no {what} damage for ST {st}", expected="ST of 1 or more", where="st")
    for top, dice, adds in table:
        if st <= top:
            return DamageDice(dice, adds)
    raise AssertionError("unreachable: the table covers ST 1-20")


def _dice_per_eight(value: int) -> DamageDice:
    """The Basic Set pattern above the Lite rows: a die per 8 points, -1/0/+1/+2 between."""
    return DamageDice(value // 8 + 1, (value % 8) // 2 - 1)


def thrust(st: int) -> DamageDice:
    """Thrust for ST: the Lite table to ST 20, the B16 pattern above it (module docstring)."""
    if st <= 20:
        return _lookup(THRUST, st, "thrust")
    value = st - 11
    if st > 50:
        value -= 1
        if st > 79:
            value -= 1 + (st - 80) // 5
    return _dice_per_eight(value)


def swing(st: int) -> DamageDice:
    """Swing for ST: the Lite table to ST 20, the B16 pattern above it (module docstring)."""
    if st <= 20:
        return _lookup(SWING, st, "swing")
    if st < 28:
        return DamageDice((st - 9) // 4 + 1, (st - 9) % 4 - 1)
    value = st
    if st > 40:
        value -= (st - 40) // 5
    if st > 59:
        value += 1
    return _dice_per_eight(value + 9)


_DICE = re.compile(r"^(\d+)d(6|3)?([+-]\d+)?(?:x(\d+))?$")
_ST_BASED = re.compile(r"^(thr|sw)([+-]\d+)?$")
_FLAT = re.compile(r"^\d+$")
_EXPECTED = "GURPS damage such as 2d+1, 1d-2, 3, thr, thr+1 or sw-1"


def parse_damage(text: str, st: int | None = None) -> DamageDice:
    """Read damage text; "thr"/"sw" need the wielder's ST."""
    cleaned = text.strip().lower().replace(" ", "")
    match = _DICE.match(cleaned)
    if match:
        dice = int(match.group(1))
        if dice > 100:
            raise InputError(f"damage {text!r} has too many dice", expected="at most 100 dice", where="damage")
        multiplier = int(match.group(4) or 1)
        if not 1 <= multiplier <= 100:
            raise InputError(
                f"damage {text!r} multiplies by {multiplier}", expected="a multiplier of 1 to 100", where="damage"
            )
        return DamageDice(dice, int(match.group(3) or 0), int(match.group(2) or 6), multiplier)
    match = _ST_BASED.match(cleaned)
    if match:
        if st is None:
            raise InputError(f"damage {text!r} needs the wielder's ST", expected=_EXPECTED, where="damage")
        base = thrust(st) if match.group(1) == "thr" else swing(st)
        return base.plus(int(match.group(2) or 0))
    if _FLAT.match(cleaned):
        return DamageDice(0, int(cleaned))
    raise InputError(f"cannot read damage {text!r}", expected=_EXPECTED, where="damage")


def is_st_based(text: str) -> bool:
    """Thrust or swing damage (the kind All-Out Attack (Strong) may add to)."""
    return bool(_ST_BASED.match(text.strip().lower().replace(" ", "")))
