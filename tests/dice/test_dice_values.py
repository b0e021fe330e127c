"""Dice values behave as the frozen dataclasses they replaced: compared, hashed, shown, immutable, picklable."""

from __future__ import annotations

import copy
import pickle

import pytest
from dice_strategies import expressions
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.dice import BinOp, Const, Dice, DieResult, Expr, Keep, KeepMode, Neg, Op, Roll, SeededSource, parse
from rulekeeper.dice.values import FrozenValueError


def test_repr_names_the_fields_as_a_dataclass_does() -> None:
    assert repr(Const(3)) == "Const(value=3)"
    assert repr(parse("4d6kh3+2")) == (
        "BinOp(op=<Op.ADD: '+'>, left=Dice(count=4, sides=6, keep=Keep(mode=<KeepMode.KEEP_HIGHEST: 'kh'>, "
        "count=3), faces=None), right=Const(value=2))"
    )
    assert repr(DieResult(6, 6, False, 2)) == "DieResult(sides=6, value=6, kept=False, counted=2)"
    assert repr(Roll(Const(1), 1)) == "Roll(expr=Const(value=1), total=1, parts=(), rolled=())"


def test_equality_is_by_class_and_fields_and_ignores_derived_values() -> None:
    assert Dice(3, 6, None, ((6, 2), (1, 1))) == Dice(3, 6, faces=((1, 1), (6, 2)))
    assert Const(3) != Const(4)
    assert Const(1) != Dice(1, 1)  # same bounds and text length, another class
    assert Keep(KeepMode.KEEP_LOWEST, 1) != (KeepMode.KEEP_LOWEST, 1)
    assert Const(3).__eq__(3) is NotImplemented
    assert hash(parse("2d+1")) == hash(parse("2d6+1")) == hash(BinOp(Op.ADD, Dice(2, 6), Const(1)))
    assert hash(Keep(KeepMode.KEEP_HIGHEST, 3)) == hash((KeepMode.KEEP_HIGHEST, 3))
    assert len({DieResult(6, 5), DieResult(6, 5), DieResult(6, 5, kept=False)}) == 2


@pytest.mark.parametrize(
    "value",
    [Const(3), parse("4d6kh3[6:1]"), Keep(KeepMode.DROP_LOWEST, 1), DieResult(6, 1), Roll(Const(2), 2)],
    ids=repr,
)
def test_values_cannot_be_changed(value: object) -> None:
    field = type(value).__match_args__[0]  # type: ignore[attr-defined]
    for name in (field, "_text", "anything"):
        with pytest.raises(AttributeError, match="cannot assign to field"):
            setattr(value, name, 1)
        with pytest.raises(FrozenValueError, match="cannot delete field"):
            delattr(value, name)
    assert not hasattr(value, "__dict__")


def test_match_args_are_the_constructor_fields() -> None:
    match parse("2d20kl1-3"):
        case BinOp(Op.SUB, Dice(2, 20, Keep(KeepMode.KEEP_LOWEST, 1)), Const(3)):
            pass
        case _:
            pytest.fail("the expression did not match its own fields")


def test_expr_is_abstract() -> None:
    with pytest.raises(TypeError, match="abstract"):
        Expr()


@given(expressions(), st.integers(0, 2**32))
def test_pickle_and_copy_rebuild_expressions_and_rolls(expr: Expr, seed: int) -> None:
    result = expr.roll(SeededSource(seed))
    for original in (expr, result):
        for again in (pickle.loads(pickle.dumps(original)), copy.copy(original), copy.deepcopy(original)):
            assert again == original and hash(again) == hash(original) and repr(again) == repr(original)
            assert str(again) == str(original)
    again_expr = pickle.loads(pickle.dumps(expr))
    derived = (str(expr), expr.min_value, expr.max_value, expr.dice_count, expr.depth, expr.precedence)
    assert (str(again_expr), again_expr.min_value, again_expr.max_value) == derived[:3]
    assert (again_expr.dice_count, again_expr.depth, again_expr.precedence) == derived[3:]
    assert again_expr.roll(SeededSource(seed)) == result


def test_a_pickled_face_map_still_counts() -> None:
    pool = pickle.loads(pickle.dumps(parse("6d6[icons]")))
    assert isinstance(pool, Dice)
    assert [pool.counted(face) for face in range(1, 7)] == [0, 0, 0, 1, 1, 2]
    assert pickle.loads(pickle.dumps(Neg(Const(2)))).min_value == -2
