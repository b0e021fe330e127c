"""Exact distributions of dice expressions, computed by icepool.

icepool is imported only when a distribution is asked for: it costs about 0.1 s to import,
which a CLI that merely rolls dice should not pay.

Exact odds use exact (big) integers, so their cost grows with the square of the number of
possible totals: 2d1000 takes about a second, 1000d6 about twenty. :func:`distribution`
estimates the work first and refuses, with a :class:`~rulekeeper.errors.DiceError`, past
``max_work`` (default :data:`DEFAULT_MAX_WORK`, a few seconds at most); simulation is the
tool for anything bigger.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulekeeper.dice.notation import BinOp, Const, Dice, Expr, Neg, Op, parse
from rulekeeper.errors import DiceError

__all__ = ["DEFAULT_MAX_WORK", "Distribution", "distribution", "estimated_work"]

# In estimated microseconds (see estimated_work): a couple of seconds at most.
DEFAULT_MAX_WORK = 2_000_000


@dataclass(frozen=True, slots=True)
class Distribution:
    """Each possible total with its exact probability, sorted by total."""

    table: tuple[tuple[int, Fraction], ...]
    _totals: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _cumulative: tuple[Fraction, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        totals = tuple(total for total, _ in self.table)
        if not totals or list(totals) != sorted(set(totals)):
            raise DiceError("a distribution needs distinct totals in ascending order", expected="sorted totals")
        running = Fraction(0)
        cumulative = []
        for _, p in self.table:
            if p <= 0:
                raise DiceError(f"probability {p} is not positive", expected="probabilities above 0")
            running += p
            cumulative.append(running)
        if running != 1:
            raise DiceError(f"probabilities sum to {running}, not 1", expected="probabilities summing to 1")
        object.__setattr__(self, "_totals", totals)
        object.__setattr__(self, "_cumulative", tuple(cumulative))

    @classmethod
    def from_counts(cls, counts: Mapping[int, int]) -> Distribution:
        """From how many equally likely ways each total arises."""
        ways = sum(counts.values())
        return cls(tuple((total, Fraction(n, ways)) for total, n in sorted(counts.items()) if n))

    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """(total, probability) pairs in ascending order of total."""
        return self.table

    @property
    def min_value(self) -> int:
        return self._totals[0]

    @property
    def max_value(self) -> int:
        return self._totals[-1]

    @property
    def mean(self) -> Fraction:
        return sum((total * p for total, p in self.table), Fraction(0))

    @property
    def variance(self) -> Fraction:
        mean = self.mean
        return sum(((total - mean) ** 2 * p for total, p in self.table), Fraction(0))

    def p_eq(self, x: int) -> Fraction:
        i = bisect_left(self._totals, x)
        if i < len(self._totals) and self._totals[i] == x:
            return self.table[i][1]
        return Fraction(0)

    def p_le(self, x: int) -> Fraction:
        i = bisect_right(self._totals, x)
        return self._cumulative[i - 1] if i else Fraction(0)

    def p_lt(self, x: int) -> Fraction:
        return self.p_le(x - 1)

    def p_ge(self, x: int) -> Fraction:
        return 1 - self.p_lt(x)

    def p_gt(self, x: int) -> Fraction:
        return 1 - self.p_le(x)


def odds_json(expr: Expr, at_least: int | None = None, at_most: int | None = None) -> dict[str, Any]:
    """The exact odds of ``expr`` as data: mean, range, every total, and the asked-for tails
    (exact fractions as text beside their floats). One shape for the CLI and the HTTP API."""
    dist = distribution(expr)
    data: dict[str, Any] = {
        "expression": str(expr),
        "mean": float(dist.mean),
        "min": dist.min_value,
        "max": dist.max_value,
        "outcomes": [{"value": v, "p": str(p), "probability": float(p)} for v, p in dist.outcomes()],
    }
    for key, bound, p in (("at_least", at_least, dist.p_ge), ("at_most", at_most, dist.p_le)):
        if bound is not None:
            data[key] = {"value": bound, "p": str(p(bound)), "probability": float(p(bound))}
    return data


def distribution(expr: Expr | str, *, max_work: int = DEFAULT_MAX_WORK) -> Distribution:
    """The exact distribution of an expression (or of dice notation, parsed with default caps)."""
    if isinstance(expr, str):
        expr = parse(expr)
    work = estimated_work(expr)
    if work > max_work:
        raise DiceError(
            f"exact odds of {expr} need about {work:,} steps, over the limit of {max_work:,}",
            expected="a smaller expression, or a simulation",
        )
    return _distribution(expr)


def _span(expr: Expr) -> int:
    # An upper bound on how many distinct totals the expression has.
    return expr.max_value - expr.min_value + 1


def estimated_work(expr: Expr) -> int:
    """Roughly how many microseconds icepool needs for the exact distribution.

    Adding two distributions pairs every total of one with every total of the other; a sum of
    n dice is built by doubling, whose last step pairs two halves of the final range; a
    keep/drop pool walks each face for each die and each partial total. Each pairing costs
    more as the exact counts grow: they need about ``count * log2(sides)`` bits. Measured
    with icepool 2.1: 2d1000 about 0.9 s, 300d6 about 1.4 s, 1d1000*1d1000 about 7 s.
    """
    work, _ = _work(expr)
    # Turning the result into exact fractions, and icepool building each die, cost far more per
    # distinct total than one pairing: measured 1d100000 at about 1.2 s against 1 s for 2d1000.
    return work + _PER_TOTAL * _span(expr)


# Microseconds per distinct total of a die or a result (see estimated_work).
_PER_TOTAL = 12


def _work(expr: Expr) -> tuple[int, float]:
    """(estimated work, bits in the exact counts) for ``expr``."""
    if isinstance(expr, Const):
        return 1, 0.0
    if isinstance(expr, Dice):
        bits = expr.count * math.log2(expr.sides) if expr.sides > 1 else 0.0
        growth = 1 + bits / 300
        if expr.keep is not None:
            pairs = 3 * expr.sides * expr.count * _span(expr) + _PER_TOTAL * expr.sides
        elif expr.count == 1:
            pairs = _PER_TOTAL * expr.sides
        else:
            pairs = _PER_TOTAL * expr.sides + _span(expr) ** 2 // 4
        return int(pairs * growth), bits
    if isinstance(expr, Neg):
        work, bits = _work(expr.operand)
        return work + _span(expr), bits
    if isinstance(expr, BinOp):
        left_work, left_bits = _work(expr.left)
        right_work, right_bits = _work(expr.right)
        bits = left_bits + right_bits
        pairs = _span(expr.left) * _span(expr.right)
        # icepool's general operator path is several times slower than its addition.
        if expr.op in (Op.MUL, Op.DIV):
            pairs *= 8
        return left_work + right_work + int(pairs * (1 + bits / 300)), bits
    raise TypeError(f"no distribution for {type(expr).__name__}")


@functools.lru_cache(maxsize=256)
def _distribution(expr: Expr) -> Distribution:
    die = _to_die(expr)
    denominator = int(die.denominator())
    return Distribution(
        tuple((int(total), Fraction(int(ways), denominator)) for total, ways in sorted(die.items()) if ways)
    )


def _to_die(expr: Expr) -> Any:
    import icepool

    if isinstance(expr, Const):
        return icepool.Die([expr.value])
    if isinstance(expr, Dice):
        return _dice_die(expr, icepool)
    if isinstance(expr, Neg):
        return -_to_die(expr.operand)
    if isinstance(expr, BinOp):
        left, right = _to_die(expr.left), _to_die(expr.right)
        if expr.op is Op.ADD:
            return left + right
        if expr.op is Op.SUB:
            return left - right
        if expr.op is Op.MUL:
            return left * right
        return left // right
    raise TypeError(f"no distribution for {type(expr).__name__}")


def _dice_die(expr: Dice, icepool: Any) -> Any:
    if expr.keep is None:
        if expr.faces is None:
            return _sum_of(icepool.d(expr.sides), expr.count)
        # One die's counted values, weighted by how many faces give each; the unlisted faces
        # count 0, computed in bulk so a d1000000 pool needs no million-entry table.
        weights: dict[int, int] = {}
        for _, value in expr.faces:
            weights[value] = weights.get(value, 0) + 1
        unlisted = expr.sides - len(expr.faces)
        if unlisted:
            weights[0] = weights.get(0, 0) + unlisted
        return _sum_of(icepool.Die(weights), expr.count)
    kept = expr.keep.kept_count(expr.count)
    pool = icepool.d(expr.sides).pool(expr.count)
    chosen = pool.highest(kept) if expr.keep.keeps_highest else pool.lowest(kept)
    if expr.faces is None:
        return chosen.sum()
    return chosen.sum(map=expr.counted)


def _sum_of(die: Any, count: int) -> Any:
    """The sum of ``count`` rolls of ``die``, by doubling.

    icepool's own ``count @ die`` adds one die at a time recursively, which exceeds Python's
    recursion limit near 1,000 dice and costs far more additions.
    """
    result = None
    power = die
    while count:
        if count & 1:
            result = power if result is None else result + power
        count >>= 1
        if count:
            power = power + power
    return result
