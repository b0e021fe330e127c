"""An event's command and actors are written by pydantic-core's encoder (``statements.event_text``):
for the plain data they are, the text reads back exactly as :func:`statements.dumps`'s does, and
is the same text whenever no float is in it."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.store.statements import dumps, event_text

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_PLAIN = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_float(v) for v in value)
    return False


@given(st.dictionaries(st.text(), _PLAIN, max_size=5))
def test_a_command_reads_back_as_dumps_writes_it(command: dict[str, Any]) -> None:
    text = event_text(command)
    assert json.loads(text) == json.loads(dumps(command))
    if not _has_float(command):
        assert text == dumps(command)


def test_actors_and_the_odd_values_are_written_as_before() -> None:
    assert event_text(("hero", "Ana Ñ")) == dumps(("hero", "Ana Ñ")) == '["hero","Ana Ñ"]'
    assert event_text(()) == "[]"
    # A number JSON has no word for: written as dumps() writes it (pydantic-core is not asked).
    nan = event_text({"a": math.nan})
    assert nan == dumps({"a": math.nan})
    assert event_text({"big": 10**40}) == dumps({"big": 10**40})
    assert event_text({"s": "NaN and Infinity, only words"}) == dumps({"s": "NaN and Infinity, only words"})
