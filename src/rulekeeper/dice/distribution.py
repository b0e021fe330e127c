"""Exact distributions of dice expressions, computed by icepool.

icepool is imported only when a distribution is asked for: it costs about 0.1 s to import,
which a CLI that merely rolls dice should not pay.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulekeeper.dice.notation import BinOp, Const, Dice, Expr, Neg, Op, parse
from rulekeeper.errors import DiceError

__all__ = ["Distribution", "distribution"]


@dataclass(frozen=True, slots=True)
class Distribution:
    """Each possible total with its exact probability, sorted by total."""

    table: tuple[tuple[int, Fraction], ...]
    _totals: tuple[int, ...] = field(init=False, repr=False, compare=False)
    _cumulative: tuple[Fraction, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        totals = tuple(total for total, _ in self.table)
        if not totals or list(totals) != sorted(set(totals)):
            raise DiceError(
                "a distribution needs distinct totals in ascending order", expected="sorted totals"
            )
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


def distribution(expr: Expr | str) -> Distribution:
    """The exact distribution of an expression (or of dice notation, parsed with default caps)."""
    return _distribution(parse(expr) if isinstance(expr, str) else expr)


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
    base = icepool.d(expr.sides)
    if expr.keep is None:
        if expr.faces is None:
            return expr.count @ base
        # One die's counted values, weighted by how many faces give each; the unlisted faces
        # count 0, computed in bulk so a d1000000 pool needs no million-entry table.
        weights: dict[int, int] = {}
        for _, value in expr.faces:
            weights[value] = weights.get(value, 0) + 1
        unlisted = expr.sides - len(expr.faces)
        if unlisted:
            weights[0] = weights.get(0, 0) + unlisted
        return expr.count @ icepool.Die(weights)
    kept = expr.keep.kept_count(expr.count)
    pool = base.pool(expr.count)
    chosen = pool.highest(kept) if expr.keep.keeps_highest else pool.lowest(kept)
    if expr.faces is None:
        return chosen.sum()
    return chosen.sum(map=expr.counted)
