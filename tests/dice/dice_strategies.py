"""Hypothesis strategies for dice expressions, and a brute-force reference for their odds."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import strategies as st

from rulekeeper.dice import BinOp, Const, Dice, Distribution, Expr, Keep, KeepMode, Neg, Op, ScriptedSource
from rulekeeper.errors import DiceError


@st.composite
def dice_terms(draw: st.DrawFn, max_count: int = 5, max_sides: int = 20) -> Dice:
    count = draw(st.integers(1, max_count))
    sides = draw(st.integers(1, max_sides))
    keep = None
    if draw(st.booleans()):
        mode = draw(st.sampled_from(list(KeepMode)))
        if mode in (KeepMode.KEEP_HIGHEST, KeepMode.KEEP_LOWEST):
            keep = Keep(mode, draw(st.integers(1, count)))
        else:
            keep = Keep(mode, draw(st.integers(0, count - 1)))
    faces = None
    if draw(st.booleans()):
        mapping = draw(st.dictionaries(st.integers(1, sides), st.integers(-3, 3), min_size=1))
        faces = tuple(mapping.items())
    return Dice(count, sides, keep, faces)


def _binop(op: Op, left: Expr, right: Expr) -> Expr | None:
    try:
        return BinOp(op, left, right)
    except DiceError:  # a divisor that can be 0
        return None


def expressions(max_count: int = 5, max_sides: int = 20, max_const: int = 50) -> st.SearchStrategy[Expr]:
    leaves: st.SearchStrategy[Expr] = st.one_of(
        st.builds(Const, st.integers(0, max_const)),
        dice_terms(max_count, max_sides),
    )

    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        binary = st.builds(_binop, st.sampled_from(list(Op)), children, children).filter(
            lambda e: e is not None
        )
        return st.one_of(st.builds(Neg, children), binary)  # type: ignore[arg-type]

    return st.recursive(leaves, extend, max_leaves=6)


def small_expressions() -> st.SearchStrategy[Expr]:
    """Expressions cheap enough to enumerate every combination of faces."""
    return expressions(max_count=3, max_sides=6, max_const=6).filter(lambda e: e.dice_count <= 4)


def dice_sides_in_roll_order(expr: Expr) -> list[int]:
    if isinstance(expr, Dice):
        return [expr.sides] * expr.count
    if isinstance(expr, Neg):
        return dice_sides_in_roll_order(expr.operand)
    if isinstance(expr, BinOp):
        return dice_sides_in_roll_order(expr.left) + dice_sides_in_roll_order(expr.right)
    return []


def brute_force(expr: Expr) -> Distribution:
    """Roll the expression with every possible combination of faces, each equally likely."""
    sides = dice_sides_in_roll_order(expr)
    totals: Counter[int] = Counter()
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        totals[expr.roll(ScriptedSource(faces)).total] += 1
    return Distribution.from_counts(totals)
