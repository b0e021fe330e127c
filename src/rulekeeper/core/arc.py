"""VI·VIII·X checks: the action resolution check (ARC) against a threshold or an opponent.

ARC result = KS + US + roll modifier + GM modifier (+ other modifiers such as the fatigue
malus). It succeeds only when strictly greater than the threshold (ARCT) or than the opponent's
result (ARCO) -- shared/rules/vi-viii-x.md, "Context"; VI·VIII·X core VIII.

Which dice give the -3..+10 roll modifier is unconfirmed, so the mapping from a die face to a
modifier is a table each campaign can replace. The default, :data:`PLACEHOLDER_TABLE`, is a
placeholder: one d14 whose faces 1..14 read as -3..+10.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulekeeper.core.check import CheckResult, Modifier, describe_modifiers, total_modifier
from rulekeeper.dice.source import DiceSource
from rulekeeper.errors import InputError

__all__ = ["PLACEHOLDER_TABLE", "THRESHOLDS", "ArcOpposed", "ArcThreshold", "RollModifierTable", "threshold_value"]


@dataclass(frozen=True, slots=True)
class RollModifierTable:
    """Roll one die with ``len(values)`` faces; face f gives roll modifier ``values[f - 1]``."""

    values: tuple[int, ...]
    name: str = "custom"

    @property
    def sides(self) -> int:
        return len(self.values)

    def modifier(self, face: int) -> int:
        return self.values[face - 1]

    def distribution(self) -> dict[int, Fraction]:
        dist: dict[int, Fraction] = {}
        for v in self.values:
            dist[v] = dist.get(v, Fraction(0)) + Fraction(1, self.sides)
        return dist


PLACEHOLDER_TABLE = RollModifierTable(values=tuple(range(-3, 11)), name="placeholder d14 (-3..+10)")

# Named thresholds: trivial and easy come from the seed; the rest continue in steps of 3
# with names we chose (a documented reading, shared/rules/vi-viii-x.md "Thresholds").
THRESHOLDS: dict[str, int] = {
    "trivial": 3,
    "easy": 6,
    "average": 9,
    "hard": 12,
    "very-hard": 15,
    "heroic": 18,
    "legendary": 21,
}


def threshold_value(name_or_value: str | int) -> int:
    if isinstance(name_or_value, int):
        return name_or_value
    text = name_or_value.strip().lower()
    if text.lstrip("-").isdigit():
        return int(text)
    if text not in THRESHOLDS:
        raise InputError(
            f"unknown threshold {name_or_value!r}",
            expected="a number or one of " + ", ".join(f"{k} ({v})" for k, v in THRESHOLDS.items()),
        )
    return THRESHOLDS[text]


def _arc_text(label: str, base: int, modifiers: tuple[Modifier, ...], face: int, roll_mod: int) -> str:
    mods = describe_modifiers(modifiers)
    total = base + total_modifier(modifiers) + roll_mod
    extra = f" {mods}," if mods else ""
    return f"{label}: stats {base},{extra} roll modifier {roll_mod:+d} (die {face}) = {total}"


@dataclass(frozen=True, slots=True)
class ArcThreshold:
    """ARCT: ``stats`` (KS + US) plus modifiers plus the roll modifier, strictly above ``threshold``."""

    kind: str
    label: str
    stats: int
    threshold: int
    modifiers: tuple[Modifier, ...] = ()
    table: RollModifierTable = PLACEHOLDER_TABLE
    type: Literal["arc-threshold"] = "arc-threshold"

    @property
    def base(self) -> int:
        return self.stats + total_modifier(self.modifiers)

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (self.table.sides,)

    def probability(self) -> Fraction:
        return sum(
            (p for mod, p in self.table.distribution().items() if self.base + mod > self.threshold),
            Fraction(0),
        )

    def critical_probability(self) -> None:
        return None

    def describe(self) -> str:
        mods = describe_modifiers(self.modifiers)
        return f"{self.label}: {self.stats}" + (f" ({mods})" if mods else "") + f" + roll modifier > {self.threshold}"

    def judge(self, face: int) -> CheckResult:
        roll_mod = self.table.modifier(face)
        total = self.base + roll_mod
        success = total > self.threshold
        text = _arc_text(self.label, self.stats, self.modifiers, face, roll_mod)
        text += f" against threshold {self.threshold}: {'succeeds' if success else 'fails'}"
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=(face,),
            total=total,
            target=self.threshold,
            success=success,
            margin=total - self.threshold,
            text=text,
            details={"roll_modifier": roll_mod},
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge(source.roll(self.table.sides))


@dataclass(frozen=True, slots=True)
class ArcOpposed:
    """ARCO: both sides make an ARC; the first succeeds only with a strictly greater result."""

    kind: str
    label: str
    stats: int
    opponent_stats: int
    modifiers: tuple[Modifier, ...] = ()
    opponent_modifiers: tuple[Modifier, ...] = ()
    table: RollModifierTable = PLACEHOLDER_TABLE
    type: Literal["arc-opposed"] = "arc-opposed"

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (self.table.sides, self.table.sides)

    def probability(self) -> Fraction:
        dist = self.table.distribution()
        mine = self.stats + total_modifier(self.modifiers)
        theirs = self.opponent_stats + total_modifier(self.opponent_modifiers)
        return sum(
            (p * q for a, p in dist.items() for b, q in dist.items() if mine + a > theirs + b),
            Fraction(0),
        )

    def critical_probability(self) -> None:
        return None

    def describe(self) -> str:
        return (
            f"{self.label}: {self.stats} + roll modifier against the opponent's {self.opponent_stats} + roll modifier"
        )

    def judge(self, face: int, opponent_face: int) -> CheckResult:
        mine_mod = self.table.modifier(face)
        theirs_mod = self.table.modifier(opponent_face)
        mine = self.stats + total_modifier(self.modifiers) + mine_mod
        theirs = self.opponent_stats + total_modifier(self.opponent_modifiers) + theirs_mod
        success = mine > theirs
        text = (
            f"{_arc_text(self.label, self.stats, self.modifiers, face, mine_mod)} against "
            f"{_arc_text('opponent', self.opponent_stats, self.opponent_modifiers, opponent_face, theirs_mod)}: "
            f"{'succeeds' if success else 'fails'}"
        )
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=(face, opponent_face),
            total=mine,
            target=theirs,
            success=success,
            margin=mine - theirs,
            text=text,
            details={"roll_modifier": mine_mod, "opponent_roll_modifier": theirs_mod},
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge(source.roll(self.table.sides), source.roll(self.table.sides))
