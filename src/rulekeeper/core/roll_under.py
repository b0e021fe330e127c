"""Gods & Monsters checks: the d20 roll-under and the contest with an acting side.

A roll succeeds when the d20 is at most the score plus bonuses minus penalties; the margin is
target minus roll (shared/rules/gods-and-monsters.md, "Context"). No special meaning for a
natural 1 or 20 was found in the rules, so that stays an option, off by default.

In a contest one side is *acting*: it prevails only when its own roll succeeds and the other
side's roll fails; otherwise the resisting side holds (seed 000, "A time to die", where the
injuries are the acting side of the death contest).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulekeeper.core.check import CheckResult, Critical, Modifier, describe_modifiers, total_modifier
from rulekeeper.dice.source import DiceSource

__all__ = ["ActingContest", "RollUnder"]


@dataclass(frozen=True, slots=True)
class RollUnder:
    """Roll d20; success at or under ``score`` plus modifiers.

    With ``natural_extremes`` a natural 1 always succeeds and a natural 20 always fails
    (an unconfirmed house rule, off by default).
    """

    kind: str
    label: str
    score: int
    modifiers: tuple[Modifier, ...] = ()
    natural_extremes: bool = False
    type: Literal["gm-roll-under"] = "gm-roll-under"

    @property
    def target(self) -> int:
        return self.score + total_modifier(self.modifiers)

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (20,)

    def succeeds_on(self, roll: int) -> bool:
        if self.natural_extremes and roll == 1:
            return True
        if self.natural_extremes and roll == 20:
            return False
        return roll <= self.target

    def probability(self) -> Fraction:
        return Fraction(sum(1 for r in range(1, 21) if self.succeeds_on(r)), 20)

    def critical_probability(self) -> None:
        return None

    def describe(self) -> str:
        mods = describe_modifiers(self.modifiers)
        if mods:
            return f"{self.label} {self.score} ({mods}) = {self.target} or less on d20"
        return f"{self.label} {self.target} or less on d20"

    def judge(self, roll: int) -> CheckResult:
        success = self.succeeds_on(roll)
        margin = self.target - roll
        verdict = "succeeds" if success else "fails"
        critical = Critical.NONE
        if self.natural_extremes and roll in (1, 20):
            critical = Critical.SUCCESS if roll == 1 else Critical.FAILURE
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=(roll,),
            total=roll,
            target=self.target,
            success=success,
            margin=margin,
            text=f"{self.describe()}: rolled {roll}, {verdict}",
            critical=critical,
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge(source.roll(20))


@dataclass(frozen=True, slots=True)
class ActingContest:
    """A contest where ``acting`` prevails only if it succeeds and ``resisting`` fails.

    The dice are typed in acting side first. ``probability`` is the chance the acting side
    prevails; the result's ``success`` is also from the acting side's point of view.
    """

    kind: str
    label: str
    acting: RollUnder
    resisting: RollUnder
    type: Literal["gm-contest"] = "gm-contest"

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (20, 20)

    def probability(self) -> Fraction:
        return self.acting.probability() * (1 - self.resisting.probability())

    def critical_probability(self) -> None:
        return None

    def describe(self) -> str:
        return f"{self.label}: {self.acting.describe()} (acting) against {self.resisting.describe()}"

    def judge(self, acting_roll: int, resisting_roll: int) -> CheckResult:
        acting = self.acting.judge(acting_roll)
        resisting = self.resisting.judge(resisting_roll)
        prevails = acting.success and not resisting.success
        verdict = f"{self.acting.label} prevails" if prevails else f"{self.resisting.label} holds"
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=(acting_roll, resisting_roll),
            total=acting_roll,
            target=acting.target,
            success=prevails,
            margin=resisting.margin,
            text=f"{self.label}: {acting.text}; {resisting.text}; {verdict}",
            details={"acting": acting.to_json(), "resisting": resisting.to_json()},
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge(source.roll(20), source.roll(20))
