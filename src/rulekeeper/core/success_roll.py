"""GURPS checks: the 3d6 success roll and the Quick Contest.

Rules: GURPS Lite p. 2 / Basic Set B343-B349, as summarised in shared/rules/gurps.md
("Context: core mechanics"). Critical success on 3-4 always, 5 at effective skill 15+, 6 at 16+;
critical failure on 18 always, 17 at effective skill 15 or less, and any roll of effective
skill + 10 or more; 3-4 always succeed and 17-18 always fail.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from rulekeeper.core.check import CheckResult, Critical, Modifier, describe_modifiers, total_modifier
from rulekeeper.dice.source import DiceSource

__all__ = ["THREE_D6", "ContestResult", "QuickContest", "SuccessRoll", "judge_success_roll"]

# Number of ways to roll each total on 3d6, out of 216.
THREE_D6: dict[int, int] = dict(
    sorted(Counter(sum(faces) for faces in itertools.product(range(1, 7), repeat=3)).items())
)


def judge_success_roll(roll: int, effective: int) -> tuple[bool, Critical]:
    """Success and critical status of a 3d6 roll against an effective skill (B347-B348)."""
    if roll <= 4 or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16):
        return True, Critical.SUCCESS
    if roll == 18 or (roll == 17 and effective <= 15) or roll >= effective + 10:
        return False, Critical.FAILURE
    if roll == 17:
        return False, Critical.NONE
    return roll <= effective, Critical.NONE


@dataclass(frozen=True, slots=True)
class SuccessRoll:
    """Roll 3d6 against ``base`` plus modifiers; success when the roll is at most the total."""

    kind: str
    label: str
    base: int
    modifiers: tuple[Modifier, ...] = ()
    type: Literal["gurps-success"] = "gurps-success"

    @property
    def effective(self) -> int:
        return self.base + total_modifier(self.modifiers)

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (6, 6, 6)

    def probability(self) -> Fraction:
        ways = sum(n for roll, n in THREE_D6.items() if judge_success_roll(roll, self.effective)[0])
        return Fraction(ways, 216)

    def critical_probability(self) -> Fraction:
        """Probability of a critical success."""
        ways = sum(n for roll, n in THREE_D6.items() if judge_success_roll(roll, self.effective)[1] is Critical.SUCCESS)
        return Fraction(ways, 216)

    def critical_failure_probability(self) -> Fraction:
        ways = sum(n for roll, n in THREE_D6.items() if judge_success_roll(roll, self.effective)[1] is Critical.FAILURE)
        return Fraction(ways, 216)

    def describe(self) -> str:
        return self._describe(self.effective)

    def _describe(self, effective: int) -> str:
        mods = describe_modifiers(self.modifiers)
        if mods:
            return f"{self.label} {self.base} ({mods}) = {effective} or less on 3d6"
        return f"{self.label} {effective} or less on 3d6"

    def judge(self, dice: tuple[int, ...]) -> CheckResult:
        roll = sum(dice)
        effective = self.effective  # summed once: every success roll of a simulated fight is judged here
        success, critical = judge_success_roll(roll, effective)
        margin = effective - roll
        verdict = "succeeds" if success else "fails"
        if critical is not Critical.NONE:
            verdict = f"{verdict} ({critical.value})"
        text = f"{self._describe(effective)}: rolled {roll} ({', '.join(map(str, dice))}), {verdict} by {abs(margin)}"
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=dice,
            total=roll,
            target=effective,
            success=success,
            margin=margin,
            text=text,
            critical=critical,
        )

    def judge_total(self, total: int) -> CheckResult:
        """Only the total of the three dice decides the roll, so a total typed at the table (the
        dice rolled behind a screen) is judged as it is: no dice are invented for it."""
        if not 3 <= total <= 18:
            from rulekeeper.errors import InputError

            raise InputError(f"{total} cannot be rolled on 3d6", expected="3 dice, or a total from 3 to 18")
        result = self.judge((total,))
        return CheckResult(
            kind=result.kind,
            label=result.label,
            dice=(),
            total=result.total,
            target=result.target,
            success=result.success,
            margin=result.margin,
            text=result.text.replace(f"rolled {total} ({total})", f"total {total} typed at the table"),
            critical=result.critical,
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge((source.roll(6), source.roll(6), source.roll(6)))


@dataclass(frozen=True, slots=True)
class ContestResult:
    """Who won a contest, by how much, and both sides' rolls."""

    winner: Literal["first", "second", "tie"]
    margin: int
    first: CheckResult
    second: CheckResult
    text: str
    details: dict[str, Any] = field(default_factory=dict)


def _side(roll: int, effective: int) -> tuple[bool, int]:
    return judge_success_roll(roll, effective)[0], effective - roll


def _quick_contest_winner(first: CheckResult, second: CheckResult) -> tuple[Literal["first", "second", "tie"], int]:
    # Criticals do not decide a Quick Contest (gurps.md): only success and margins do.
    if first.success and not second.success:
        return "first", first.margin - second.margin
    if second.success and not first.success:
        return "second", second.margin - first.margin
    if first.margin == second.margin:
        return "tie", 0
    if first.margin > second.margin:
        return "first", first.margin - second.margin
    return "second", second.margin - first.margin


@dataclass(frozen=True, slots=True)
class QuickContest:
    """Both sides roll; a success beats a failure, otherwise the better margin wins (B348)."""

    kind: str
    label: str
    first: SuccessRoll
    second: SuccessRoll
    type: Literal["gurps-quick-contest"] = "gurps-quick-contest"

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (6, 6, 6, 6, 6, 6)

    def probability(self) -> Fraction:
        """Probability that the first side wins outright (every pair of 3d6 totals weighed)."""
        first = {roll: _side(roll, self.first.effective) for roll in THREE_D6}
        second = {roll: _side(roll, self.second.effective) for roll in THREE_D6}
        ways = 0
        for a, (a_ok, a_margin) in first.items():
            for b, (b_ok, b_margin) in second.items():
                if (a_ok and not b_ok) or (a_ok == b_ok and a_margin > b_margin):
                    ways += THREE_D6[a] * THREE_D6[b]
        return Fraction(ways, 216 * 216)

    def critical_probability(self) -> None:
        return None

    def describe(self) -> str:
        return f"{self.label}: Quick Contest, {self.first.describe()} against {self.second.describe()}"

    def contest(self, dice: tuple[int, ...]) -> ContestResult:
        first = self.first.judge(dice[:3])
        second = self.second.judge(dice[3:6])
        winner, margin = _quick_contest_winner(first, second)
        if winner == "tie":
            text = f"{self.label}: tie ({first.text}; {second.text})"
        else:
            name = self.first.label if winner == "first" else self.second.label
            text = f"{self.label}: {name} wins by {margin} ({first.text}; {second.text})"
        return ContestResult(winner=winner, margin=margin, first=first, second=second, text=text)

    def resolve(self, source: DiceSource) -> CheckResult:
        dice = tuple(source.roll(6) for _ in range(6))
        result = self.contest(dice)
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=dice,
            total=result.first.total,
            target=self.first.effective,
            success=result.winner == "first",
            margin=result.margin if result.winner == "first" else -result.margin,
            text=result.text,
            details={"winner": result.winner, "first": result.first.to_json(), "second": result.second.to_json()},
        )
