"""A command's canonical form (``jsonable.canonical``): the plain copy that most commands take
must give exactly what the JSON round trip gives, and refuse exactly what it refuses."""

from __future__ import annotations

import enum
import json
import math
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.campaign.jsonable import canonical, dumps, jsonable, record_text
from rulekeeper.errors import InputError
from support.same_data import same


def _round_trip(value: Any) -> Any:
    return json.loads(dumps(jsonable(value)))


_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_plain = st.recursive(
    _leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(_plain)
def test_plain_data_reads_back_as_the_round_trip_gives_it(value: Any) -> None:
    copied = canonical(value, "command")
    assert same(copied, _round_trip(value))
    if isinstance(value, (list, dict)) and value:
        assert copied is not value  # a copy: changing it leaves the caller's command alone


class Colour(enum.Enum):
    RED = "red"


class Count(int):
    pass


@dataclass(frozen=True)
class Point:
    x: int
    y: tuple[int, ...]


@pytest.mark.parametrize(
    "value",
    [
        {"colour": Colour.RED},
        {"count": Count(3)},
        {"at": Point(1, (2, 3))},
        {1: "a number for a key"},
        {"tags": frozenset({"b", "a"})},
        [True, 2, 3.5, None, ("x", ["y"])],
    ],
)
def test_anything_else_takes_the_round_trip(value: Any) -> None:
    assert same(canonical(value, "command"), _round_trip(value))


@pytest.mark.parametrize(
    "value",
    [
        {"amount": math.nan},
        {"amount": -math.inf},
        {"amount": 10**5000},
        {"what": object()},
    ],
)
def test_what_json_cannot_hold_is_refused_in_our_words(value: Any) -> None:
    with pytest.raises(InputError, match="command is not JSON data"):
        canonical(value, "command")


def _nested(depth: int) -> Any:
    deep: Any = "bottom"
    for _ in range(depth):
        deep = {"in": [deep]}
    return deep


def test_a_command_nested_past_any_real_one_is_answered_as_the_round_trip_answers_it() -> None:
    assert same(canonical(_nested(20), "command"), _round_trip(_nested(20)))
    with pytest.raises(ValueError, match="depth"):
        _round_trip(_nested(200))
    with pytest.raises(InputError, match="command is not JSON data"):
        canonical(_nested(200), "command")
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(InputError, match="command is not JSON data"):
        canonical(cycle, "command")


# -- an outcome record's text (``jsonable.record_text``) -------------------------------------
_record_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_records = st.recursive(
    _record_leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=30,
)


@given(_records)
def test_a_record_reads_back_from_its_text_as_from_dumps(record: Any) -> None:
    if not _finite(record):
        with pytest.raises(ValueError):
            record_text(record)
        return
    assert same(json.loads(record_text(record)), json.loads(dumps(record)))


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


def test_a_record_text_is_compact_and_writes_text_as_it_is() -> None:
    record = {"text": 'héllo ✓ "quoted" \\ \n\x1f', "n": [1, 2.5, -0.0, 10**20, None, True], "empty": {}}
    assert record_text(record) == dumps(record)
    # Words that only look like a float JSON cannot write are text like any other.
    assert json.loads(record_text({"said": "NaN and Infinity"})) == {"said": "NaN and Infinity"}
    for odd in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError):
            record_text({"result": {"hp": odd}})
