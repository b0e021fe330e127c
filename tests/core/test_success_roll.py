"""GURPS success roll and Quick Contest odds against enumeration of every 3d6 outcome."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core import Critical, Modifier, QuickContest, SuccessRoll
from rulekeeper.dice import ScriptedSource

ALL_3D6 = list(itertools.product(range(1, 7), repeat=3))


def _brute(effective: int) -> tuple[Fraction, Fraction, Fraction]:
    """Success, critical success and critical failure by the rules in shared/rules/gurps.md, per outcome."""
    success = crit = fumble = 0
    for dice in ALL_3D6:
        roll = sum(dice)
        is_crit = roll in (3, 4) or (roll == 5 and effective >= 15) or (roll == 6 and effective >= 16)
        is_fumble = roll == 18 or (roll == 17 and effective <= 15) or roll >= effective + 10
        if is_crit:
            crit += 1
            success += 1
        elif is_fumble:
            fumble += 1
        elif roll <= effective and roll < 17:
            success += 1
    return Fraction(success, 216), Fraction(crit, 216), Fraction(fumble, 216)


@pytest.mark.parametrize("effective", range(3, 19))
def test_probabilities_equal_enumeration(effective: int) -> None:
    check = SuccessRoll(kind="gurps.skill", label="Skill", base=effective)
    success, crit, fumble = _brute(effective)
    assert check.probability() == success
    assert check.critical_probability() == crit
    assert check.critical_failure_probability() == fumble


def test_skill_10_is_even_odds_and_skill_16_crits_on_3_to_6() -> None:
    assert SuccessRoll(kind="k", label="Skill", base=10).probability() == Fraction(1, 2)
    sixteen = SuccessRoll(kind="k", label="Skill", base=16)
    for dice, crit in (((1, 2, 3), True), ((2, 2, 3), False)):
        result = sixteen.judge(dice)
        assert (result.critical is Critical.SUCCESS) is crit
    assert sixteen.critical_probability() == Fraction(1 + 3 + 6 + 10, 216)


def test_modifiers_carry_reasons_and_change_the_target() -> None:
    check = SuccessRoll(kind="gurps.ht", label="HT", base=12, modifiers=(Modifier(-2, "shock"),))
    result = check.resolve(ScriptedSource([4, 4, 3]))
    assert result.target == 10
    assert not result.success
    assert result.margin == -1
    assert "shock" in check.describe()


def test_three_and_four_always_succeed_seventeen_eighteen_always_fail() -> None:
    low = SuccessRoll(kind="k", label="Skill", base=-5)
    assert low.judge((1, 1, 1)).success and low.judge((1, 1, 2)).success
    high = SuccessRoll(kind="k", label="Skill", base=25)
    assert not high.judge((6, 6, 5)).success and not high.judge((6, 6, 6)).success


@given(st.integers(-5, 25), st.integers(-5, 25))
def test_quick_contest_probabilities_are_complementary(a: int, b: int) -> None:
    first = SuccessRoll(kind="k", label="A", base=a)
    second = SuccessRoll(kind="k", label="B", base=b)
    forward = QuickContest(kind="k", label="contest", first=first, second=second)
    backward = QuickContest(kind="k", label="contest", first=second, second=first)
    tie = 1 - forward.probability() - backward.probability()
    assert 0 <= tie <= 1
    if a == b:
        assert forward.probability() == backward.probability()


def test_quick_contest_success_beats_failure_and_margins_decide() -> None:
    contest = QuickContest(
        kind="k",
        label="Feint",
        first=SuccessRoll(kind="k", label="A", base=12),
        second=SuccessRoll(kind="k", label="B", base=12),
    )
    won = contest.contest((3, 3, 3, 5, 5, 5))  # A rolls 9 (margin 3), B rolls 15 (fails by 3)
    assert won.winner == "first" and won.margin == 6
    both = contest.contest((4, 4, 4, 3, 3, 4))  # A margin 0, B margin 2
    assert both.winner == "second" and both.margin == 2
    tie = contest.contest((3, 3, 4, 4, 3, 3))
    assert tie.winner == "tie"


@pytest.mark.parametrize(("a", "b"), [(12, 10), (9, 14), (16, 16), (3, 18)])
def test_quick_contest_odds_equal_enumeration_of_both_rolls(a: int, b: int) -> None:
    contest = QuickContest(
        kind="k",
        label="c",
        first=SuccessRoll(kind="k", label="A", base=a),
        second=SuccessRoll(kind="k", label="B", base=b),
    )
    totals = [sum(d) for d in ALL_3D6]
    wins = sum(1 for x in totals for y in totals if contest.contest((x, 0, 0, y, 0, 0)).winner == "first")
    assert contest.probability() == Fraction(wins, 216 * 216)
