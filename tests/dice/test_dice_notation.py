from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from dice_strategies import expressions
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.dice import BinOp, Const, Dice, Expr, Keep, KeepMode, Neg, Op, parse
from rulekeeper.dice.notation import MAX_DEPTH, _parser_cache_file
from rulekeeper.errors import DiceError, InputError


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3d6", "3d6"),
        ("d20", "1d20"),
        ("d%", "1d100"),
        ("3D6", "3d6"),
        ("4d6kh3", "4d6kh3"),
        ("4d6KH", "4d6kh1"),
        ("2d20kl", "2d20kl1"),
        ("4d6dl", "4d6dl1"),
        ("5d10dh2", "5d10dh2"),
        ("3d", "3d6"),
        ("2d+1", "2d6+1"),
        ("1d-3", "1d6-3"),
        ("6d6[6:2,4:1,5:1]", "6d6[4:1,5:1,6:2]"),
        ("6d6[icons]", "6d6[4:1,5:1,6:2]"),
        ("10d10[8, 9, 10:2]", "10d10[8:1,9:1,10:2]"),
        ("4d6[1:-1,2:-1,5:1,6:1]", "4d6[1:-1,2:-1,5:1,6:1]"),
        ("5d6kh3[6]", "5d6kh3[6:1]"),
        (" 3d6 + 2 ", "3d6+2"),
        ("(3d6)", "3d6"),
        ("-(3d6+2)", "-(3d6+2)"),
        ("3 - -2", "3-(-2)"),
        ("--3", "-(-3)"),
        ("-3*2", "-3*2"),
        ("1-(2-3)", "1-(2-3)"),
        ("(1-2)-3", "1-2-3"),
        ("2*(3+4)", "2*(3+4)"),
        ("8/(1d2)", "8/1d2"),
        ("1+2*3", "1+2*3"),
        ("(1+2)*3", "(1+2)*3"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    expr = parse(text)
    assert str(expr) == canonical
    assert parse(canonical) == expr


def test_parse_builds_the_expected_tree() -> None:
    assert parse("4d6kh3+2") == BinOp(Op.ADD, Dice(4, 6, Keep(KeepMode.KEEP_HIGHEST, 3)), Const(2))
    assert parse("-d8") == Neg(Dice(1, 8))
    assert parse("1-2-3") == BinOp(Op.SUB, BinOp(Op.SUB, Const(1), Const(2)), Const(3))


def test_gurps_shorthand_means_six_sided_dice() -> None:
    assert parse("2d+1") == parse("2d6+1")
    assert parse("3d") == Dice(3, 6)
    assert parse("1d-3") == parse("1d6-3")


def test_named_face_map_equals_its_listing() -> None:
    assert parse("3d6[icons]") == parse("3d6[4:1,5:1,6:2]") == parse("3d6[ICONS]")


@given(expressions())
def test_canonical_text_round_trips(expr: Expr) -> None:
    text = str(expr)
    reparsed = parse(text, max_dice=10_000)
    assert reparsed == expr
    assert str(reparsed) == text


@given(expressions(), st.booleans(), st.booleans())
def test_spelling_variants_parse_to_the_same_tree(expr: Expr, upper: bool, spaced: bool) -> None:
    text = str(expr)
    if upper:
        text = text.upper()
    if spaced:
        # Blanks are allowed around operators and parentheses, not inside dice terms.
        for symbol in "+*/()":
            text = text.replace(symbol, f" {symbol} ")
    assert parse(text, max_dice=10_000) == expr


def test_operators_build_expressions() -> None:
    base = parse("3d6")
    assert base + 2 == parse("3d6+2")
    assert base + -2 == parse("3d6-2")
    assert base - -2 == parse("3d6+2")
    assert 10 - base == parse("10-3d6")
    assert 2 * base == parse("2*3d6")
    assert base // 2 == parse("3d6/2")
    assert -base == parse("-3d6")
    assert base * -1 == parse("3d6*-1")


def test_parse_is_cached() -> None:
    assert parse("7d7+7") is parse("7d7+7")


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("3d6+", 5, "expected a number, dice such as 2d6"),
        ("d", 2, "number of sides after 'd'"),
        ("2x6", 2, "unexpected 'x'"),
        ("(3d6", 5, "')' to close the '(' at position 1"),
        ("3d6)", 4, "unexpected ')'"),
        ("", 1, "unexpected end"),
        ("3dkh2", 3, "number of sides after 'd'"),
        ("4d6d", 4, "keep/drop such as kh3"),
        ("3d6[4:]", 7, "the value a face counts"),
        ("3d 6", 3, "space inside a dice term"),
        ("3d6kh4", 4, "kh4 keeps 4 of 3 dice"),
        ("4d6kh0", 4, "keep count from 1 to 4"),
        ("1d6dl1", 4, "at least one die is kept"),
        ("0d6", 1, "0 dice cannot be rolled"),
        ("2d0", 3, "a die cannot have 0 sides"),
        ("3d6[7:1]", 5, "face 7 is not on a d6"),
        ("3d6[6,6]", 7, "face 6 is listed twice"),
        ("3d6[foo]", 5, "unknown face map 'foo'"),
        ("3d8[icons]", 3, "icons are counted on d6"),
        ("10/(1d6-1)", 3, "can be 0"),
        ("1d6**2", 5, "unexpected '*'"),
    ],
)
def test_errors_name_position_and_expected_form(text: str, position: int, fragment: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(text)
    error = caught.value
    message = str(error)
    assert error.position == position
    assert f"at position {position}" in message
    assert fragment in message
    assert error.expected, "every notation error names the expected form"
    assert "\n" not in message
    assert message.startswith(f"dice notation {text!r}")


def test_dice_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        parse("2x6")
    assert issubclass(DiceError, InputError)


def test_four_d_six_kh_defaults_to_keeping_one() -> None:
    # Keep/drop counts are optional and default to 1, so this is valid notation.
    assert parse("4d6kh") == parse("4d6kh1")


def test_dice_cap_counts_every_term() -> None:
    assert parse("1000d6").dice_count == 1000
    with pytest.raises(DiceError, match=r"1,001 in one expression, over the cap of 1,000") as caught:
        parse("500d6+501d6")
    assert caught.value.position == 7
    with pytest.raises(DiceError, match="1,001"):
        parse("1001d6")


def test_side_cap() -> None:
    assert parse("d1000000").max_value == 1_000_000
    with pytest.raises(DiceError, match=r"1,000,001 sides, over the cap of 1,000,000"):
        parse("d1000001")


def test_caps_are_configurable() -> None:
    assert parse("2000d6", max_dice=2000).dice_count == 2000
    with pytest.raises(DiceError, match="cap of 10"):
        parse("11d6", max_dice=10)
    with pytest.raises(DiceError, match="cap of 20"):
        parse("d30", max_sides=20)


def test_hostile_nesting_and_numbers_are_refused_cleanly() -> None:
    with pytest.raises(DiceError, match=f"more than {MAX_DEPTH} levels"):
        parse("+".join(["1"] * (MAX_DEPTH + 5)))
    with pytest.raises(DiceError, match=f"more than {MAX_DEPTH} levels"):
        parse("-" * 500 + "1")
    with pytest.raises(DiceError, match="900 digits is over the limit"):
        parse("9" * 900)
    with pytest.raises(DiceError, match="5,001 characters, over the limit"):
        parse("-" * 5000 + "1")
    assert parse("+".join(["1"] * 100)).max_value == 100


def test_long_notation_is_shortened_in_messages() -> None:
    with pytest.raises(DiceError) as caught:
        parse("1+" * 200 + "x")
    assert len(str(caught.value)) < 250


def test_constructors_validate_too() -> None:
    with pytest.raises(DiceError, match="keeps 4 of 3"):
        Dice(3, 6, Keep(KeepMode.KEEP_HIGHEST, 4))
    with pytest.raises(DiceError, match="0 sides"):
        Dice(1, 0)
    with pytest.raises(DiceError, match="negative"):
        Const(-1)
    with pytest.raises(DiceError, match="can be 0"):
        BinOp(Op.DIV, Const(1), parse("1d3-2"))
    with pytest.raises(DiceError, match="not on a d6"):
        Dice(1, 6, faces=((7, 1),))


def test_faces_are_stored_sorted() -> None:
    assert Dice(2, 6, faces=((6, 2), (4, 1))).faces == ((4, 1), (6, 2))


@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("3d6", 3, 18),
        ("4d6kh3+2", 5, 20),
        ("1d6-1d6", -5, 5),
        ("-2d6", -12, -2),
        ("1d6*1d6", 1, 36),
        ("(1d6-3)*(1d6-3)", -6, 9),
        ("20/1d4", 5, 20),
        ("-7/2", -4, -4),
        ("3d6[icons]", 0, 6),
        ("3d6[1:-1,6:1]", -3, 3),
        ("3d6[1:2,2:3,3:4,4:5,5:6,6:7]", 6, 21),
        ("5d6kh2[6:1]", 0, 2),
    ],
)
def test_bounds(text: str, low: int, high: int) -> None:
    expr = parse(text)
    assert (expr.min_value, expr.max_value) == (low, high)


def test_parser_cache_lives_only_in_a_private_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = _parser_cache_file("1.0")
    assert isinstance(path, str)
    assert Path(path).parent == tmp_path / "rulekeeper"
    if hasattr(os, "getuid"):
        os.chmod(tmp_path / "rulekeeper", stat.S_IRWXU | stat.S_IRWXG | stat.S_IRWXO)
        assert _parser_cache_file("1.0") is False
