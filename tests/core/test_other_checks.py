"""Roll-under, pool and ARC checks: exact odds against brute force and the seeds' readings."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core import (
    ActingContest,
    ArcOpposed,
    ArcThreshold,
    Modifier,
    PoolTest,
    RollModifierTable,
    RollUnder,
)
from rulekeeper.core.dice_pool import icon_value
from rulekeeper.dice import ScriptedSource


def test_three_wg_dice_against_dn_3_is_exactly_one_third() -> None:
    assert PoolTest(kind="wg.test", label="Test", pool=3, dn=3).probability() == Fraction(1, 3)


@pytest.mark.parametrize(("pool", "dn"), [(1, 1), (2, 3), (4, 4), (5, 2), (6, 7)])
def test_pool_odds_equal_enumeration(pool: int, dn: int) -> None:
    hits = sum(1 for faces in itertools.product(range(1, 7), repeat=pool) if sum(map(icon_value, faces)) >= dn)
    assert PoolTest(kind="k", label="t", pool=pool, dn=dn).probability() == Fraction(hits, 6**pool)


def test_pool_wrath_die_complication_and_critical() -> None:
    test = PoolTest(kind="k", label="Shoot", pool=4, dn=3, dn_modifiers=(Modifier(1, "Wounded"),))
    assert test.target == 4
    result = test.judge((1, 6, 6, 2))
    assert result.success and result.details["complications"] == 1
    crit = test.judge((6, 1, 1, 5))
    assert crit.details["icons"] == 3 and not crit.success
    assert crit.critical.value == "critical success"
    dying = PoolTest(kind="k", label="Shoot", pool=4, dn=2, wrath_dice=2)
    assert dying.critical_probability() == Fraction(1, 36)
    assert dying.judge((6, 5, 6, 6)).critical.value == "none"


@given(st.integers(-5, 25), st.lists(st.integers(-3, 3), max_size=3))
def test_roll_under_odds(score: int, mods: list[int]) -> None:
    check = RollUnder(kind="gm.x", label="x", score=score, modifiers=tuple(Modifier(m, "m") for m in mods))
    wins = sum(1 for r in range(1, 21) if r <= score + sum(mods))
    assert check.probability() == Fraction(wins, 20)


def test_acting_contest_needs_acting_success_and_resisting_failure() -> None:
    contest = ActingContest(
        kind="gm.death",
        label="Death",
        acting=RollUnder(kind="gm.death", label="injuries", score=2),
        resisting=RollUnder(kind="gm.death", label="endurance", score=15, modifiers=(Modifier(-2, "injuries"),)),
    )
    assert contest.judge(1, 20).success
    assert not contest.judge(1, 13).success
    assert not contest.judge(3, 20).success
    assert contest.probability() == Fraction(2, 20) * Fraction(7, 20)


def test_arc_succeeds_only_when_strictly_greater() -> None:
    table = RollModifierTable(values=(0, 1, 2))
    check = ArcThreshold(kind="vi-viii-x.arc", label="Climb", stats=5, threshold=6, table=table)
    assert not check.judge(2).success  # 5 + 1 = 6, not above 6
    assert check.judge(3).success
    assert check.probability() == Fraction(1, 3)
    opposed = ArcOpposed(kind="vi-viii-x.arc", label="Wrestle", stats=5, opponent_stats=5, table=table)
    assert not opposed.judge(2, 2).success
    assert opposed.probability() == Fraction(3, 9)


def test_checks_resolve_from_injected_dice() -> None:
    check = RollUnder(kind="gm.x", label="fortitude", score=11, modifiers=(Modifier(-2, "injuries"),))
    result = check.resolve(ScriptedSource([6]))
    assert result.success and result.margin == 3 and result.target == 9
