from __future__ import annotations

from fractions import Fraction

import pytest
from dice_strategies import brute_force, small_expressions
from hypothesis import HealthCheck, given, settings

from rulekeeper.dice import Distribution, Expr, distribution, parse
from rulekeeper.dice.exact_odds import estimated_work
from rulekeeper.errors import DiceError


@settings(max_examples=150, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(small_expressions())
def test_exact_distribution_equals_brute_force(expr: Expr) -> None:
    exact = distribution(expr)
    assert sum(p for _, p in exact.outcomes()) == 1
    assert exact == brute_force(expr)
    # The bounds are tight: every operand is independent and reaches its own extremes.
    assert (exact.min_value, exact.max_value) == (expr.min_value, expr.max_value)


@pytest.mark.parametrize(
    "text",
    [
        "3d6",
        "4d6kh3",
        "2d20kl1",
        "4d6dl1+2",
        "3d6[icons]",
        "5d6kh3[6:1]",
        "1d6*1d6",
        "-(2d6)/3",
        "2d4-1d6",
        "d%",
    ],
)
def test_named_cases_match_brute_force(text: str) -> None:
    expr = parse(text)
    exact = distribution(expr)
    assert sum(p for _, p in exact.outcomes()) == 1
    assert exact == brute_force(expr)


def test_wrath_and_glory_three_dice_pool() -> None:
    pool = distribution("3d6[4:1,5:1,6:2]")
    assert pool.p_ge(3) == Fraction(1, 3)
    assert distribution("3d6[icons]") == pool


def test_published_values() -> None:
    three_d6 = distribution("3d6")
    assert three_d6.p_eq(10) == Fraction(27, 216)
    assert three_d6.p_le(10) == Fraction(1, 2)
    assert three_d6.mean == Fraction(21, 2)
    assert three_d6.variance == Fraction(35, 4)
    # 4d6 drop lowest, the classic ability-score roll, averages 15869/1296 (about 12.24).
    assert distribution("4d6kh3").mean == Fraction(15869, 1296)
    assert distribution("1d20").p_ge(11) == Fraction(1, 2)


def test_tail_probabilities_are_consistent() -> None:
    dist = distribution("2d6-1d4")
    for x in range(dist.min_value - 1, dist.max_value + 2):
        assert dist.p_le(x) + dist.p_gt(x) == 1
        assert dist.p_lt(x) + dist.p_ge(x) == 1
        assert dist.p_le(x) - dist.p_lt(x) == dist.p_eq(x)
    assert dist.p_eq(dist.max_value + 1) == 0
    assert dist.p_le(dist.min_value - 1) == 0


def test_outcomes_are_sorted_fractions() -> None:
    outcomes = distribution("2d4").outcomes()
    assert [total for total, _ in outcomes] == list(range(2, 9))
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert outcomes[0] == (2, Fraction(1, 16))


def test_expr_method_and_function_agree() -> None:
    assert parse("3d6+1").distribution() == distribution("3d6+1")


def test_large_pools_are_exact() -> None:
    twenty = distribution("20d6[icons]")
    assert twenty.mean == Fraction(40, 3)
    assert sum(p for _, p in twenty.outcomes()) == 1
    assert distribution("10d6").p_eq(35) == Fraction(4395456, 6**10)
    assert distribution("10d6").p_eq(10) == Fraction(1, 6**10)


def test_distribution_rejects_malformed_tables() -> None:
    with pytest.raises(DiceError):
        Distribution(((1, Fraction(1, 2)),))
    with pytest.raises(DiceError):
        Distribution(((2, Fraction(1, 2)), (1, Fraction(1, 2))))


def test_work_limit_refuses_huge_exact_odds() -> None:
    with pytest.raises(DiceError, match=r"exact odds of 1000d6 need about [\d,]+ steps, over the limit"):
        distribution("1000d6")
    with pytest.raises(DiceError, match="over the limit of 10"):
        distribution("3d6", max_work=10)
    assert estimated_work(parse("1000d6")) > estimated_work(parse("100d6")) > estimated_work(parse("3d6"))


def test_many_dice_do_not_hit_the_recursion_limit() -> None:
    # icepool's own `count @ die` recurses once per die.
    assert distribution("1000d1").outcomes() == ((1000, Fraction(1)),)
    assert distribution("1000d2").p_eq(1000) == Fraction(1, 2**1000)
