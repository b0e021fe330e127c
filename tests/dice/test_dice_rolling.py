from __future__ import annotations

import json

import pytest
from dice_strategies import expressions
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.dice import (
    DiceExhausted,
    DieResult,
    Expr,
    FallbackSource,
    RecordingSource,
    Roll,
    ScriptedSource,
    SeededSource,
    parse,
    roll,
)
from rulekeeper.errors import DiceError

seeds = st.one_of(st.integers(), st.text(max_size=8))


@given(expressions(), seeds)
def test_every_roll_is_within_the_expression_bounds(expr: Expr, seed: int | str) -> None:
    result = expr.roll(SeededSource(seed))
    assert expr.min_value <= result.total <= expr.max_value
    assert len(result.dice) == expr.dice_count
    assert all(1 <= d.value <= d.sides for d in result.dice)


@given(expressions(), seeds)
def test_same_seed_gives_the_same_roll(expr: Expr, seed: int | str) -> None:
    assert expr.roll(SeededSource(seed)) == expr.roll(SeededSource(seed))


@given(expressions(), seeds)
def test_recorded_dice_replay_exactly(expr: Expr, seed: int | str) -> None:
    recorder = RecordingSource(SeededSource(seed))
    first = expr.roll(recorder)
    assert expr.roll(ScriptedSource(recorder.values)) == first
    assert expr.roll(ScriptedSource(first.to_json()["values"])) == first


def test_different_seeds_differ_somewhere() -> None:
    rolls = {roll("10d20", SeededSource(seed)).total for seed in range(20)}
    assert len(rolls) > 1


def test_scripted_source_rejects_a_face_the_die_lacks() -> None:
    with pytest.raises(DiceError, match=r"7 cannot be rolled on a d6") as caught:
        roll("2d6", ScriptedSource([3, 7]))
    assert "d6" in str(caught.value)


def test_scripted_source_running_out() -> None:
    with pytest.raises(DiceExhausted, match="die #3 \\(d6\\)"):
        roll("3d6", ScriptedSource([1, 2]))


def test_fallback_source_uses_scripted_values_first() -> None:
    result = roll("3d6", FallbackSource(ScriptedSource([6, 6]), ScriptedSource([1])))
    assert [d.value for d in result.dice] == [6, 6, 1]


class _BrokenSource:
    def __init__(self, value: object) -> None:
        self.value = value

    def roll(self, sides: int) -> int:
        return self.value  # type: ignore[return-value]


@pytest.mark.parametrize("value", [0, 7, 2.5, "3"])
def test_values_from_any_source_are_checked(value: object) -> None:
    with pytest.raises(DiceError, match="for a d6"):
        roll("1d6", _BrokenSource(value))


def test_keep_highest_marks_the_dropped_die() -> None:
    result = roll("4d6kh3+2", ScriptedSource([5, 2, 4, 5]))
    assert result.total == 16
    assert [d.kept for d in result.dice] == [True, False, True, True]
    assert str(result) == "4d6kh3 (5, ~2~, 4, 5) + 2 = 16"


@pytest.mark.parametrize(
    ("text", "faces", "kept", "total"),
    [
        ("4d6kl1", [3, 1, 1, 6], [False, True, False, False], 1),
        ("4d6dh1", [6, 2, 6, 3], [True, True, False, True], 11),  # among equals the earlier is kept
        ("4d6dl2", [1, 5, 1, 4], [False, True, False, True], 9),
        ("3d6kh2", [4, 4, 4], [True, True, False], 8),
    ],
)
def test_keep_and_drop(text: str, faces: list[int], kept: list[bool], total: int) -> None:
    result = roll(text, ScriptedSource(faces))
    assert [d.kept for d in result.dice] == kept
    assert result.total == total


def test_pool_counts_faces_by_the_map() -> None:
    result = roll("3d6[icons]", ScriptedSource([6, 1, 4]))
    assert [d.counted for d in result.dice] == [2, 0, 1]
    assert result.total == 3
    assert str(result) == "3d6[4:1,5:1,6:2] (6:2, 1:0, 4:1) = 3"


def test_keep_then_count() -> None:
    result = roll("4d6kh2[6:1]", ScriptedSource([6, 1, 6, 6]))
    assert result.total == 2
    assert str(result) == "4d6kh2[6:1] (6:1, ~1:0~, 6:1, ~6:1~) = 2"


def test_gurps_shorthand_rolls_like_six_sided_dice() -> None:
    a = roll("2d+1", ScriptedSource([3, 6]))
    b = roll("2d6+1", ScriptedSource([3, 6]))
    assert a == b
    assert a.total == 10


@pytest.mark.parametrize(
    ("text", "faces", "shown"),
    [
        ("1d6", [4], "1d6 (4) = 4"),
        ("2d6-1d4", [1, 6, 2], "2d6 (1, 6) - 1d4 (2) = 5"),
        ("-(1d6+2)*3", [4], "-(1d6 (4) + 2) * 3 = -18"),
        ("7/2", [], "7 / 2 = 3"),
        ("-7/2", [], "-7 / 2 = -4"),
        ("3-(-2)", [], "3 - (-2) = 5"),
        ("(1d6+1)*(1d6-1)", [2, 5], "(1d6 (2) + 1) * (1d6 (5) - 1) = 12"),
    ],
)
def test_plain_text(text: str, faces: list[int], shown: str) -> None:
    assert str(roll(text, ScriptedSource(faces))) == shown


def test_dice_are_flat_and_in_roll_order() -> None:
    result = roll("1d4+(2d6-1d8)", ScriptedSource([1, 2, 3, 4]))
    assert [(d.sides, d.value) for d in result.dice] == [(4, 1), (6, 2), (6, 3), (8, 4)]
    assert result.expr == parse("1d4+(2d6-1d8)")
    assert isinstance(result.parts[1], Roll) and result.parts[1].total == 1


def test_rich_text_matches_plain_text_and_styles_dropped_dice() -> None:
    result = roll("4d6kh3+1", ScriptedSource([6, 1, 4, 5]))
    rich_text = result.to_rich()
    assert rich_text.plain == str(result)
    styles = {rich_text.plain[span.start : span.end]: str(span.style) for span in rich_text.spans}
    assert "strike" in styles["~1~"]
    assert styles["6"] == "bold green"


def test_json_is_serialisable_and_complete() -> None:
    result = roll("4d6kh3+2*(1d4-3)", ScriptedSource([5, 2, 4, 5, 1]))
    data = json.loads(json.dumps(result.to_json()))
    assert data["notation"] == "4d6kh3+2*(1d4-3)"
    assert data["total"] == result.total == 10
    assert data["values"] == [5, 2, 4, 5, 1]
    assert data["text"] == str(result)
    tree = data["tree"]
    assert tree["kind"] == "binary" and tree["op"] == "+"
    assert tree["left"]["dice"][1] == {"sides": 6, "value": 2, "kept": False, "counted": None}
    assert tree["right"]["right"]["left"]["total"] == 1


def test_roll_accepts_an_expression() -> None:
    expr = parse("2d10")
    assert roll(expr, ScriptedSource([3, 4])).total == 7
    assert expr.roll(ScriptedSource([3, 4])) == roll("2d10", ScriptedSource([3, 4]))


def test_die_result_contribution() -> None:
    assert DieResult(6, 5).contribution == 5
    assert DieResult(6, 5, kept=False).contribution == 0
    assert DieResult(6, 6, counted=2).contribution == 2


def test_rolls_are_immutable() -> None:
    result = roll("1d6", ScriptedSource([3]))
    with pytest.raises(AttributeError):
        result.total = 4  # type: ignore[misc]
