"""A GCS file with any one value replaced by a value of another type imports or is refused with
``InputError`` naming where -- never another exception (which the CLI would show as a crash)."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.systems.gurps.gcs_library import load

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps import import_gcs, new_character

SOURCE = load("1shotadventures/Characters/The Phantom Jungle/El Clavo.gcs")


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "calc":
                out.extend(_paths(item, (*path, key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.extend(_paths(item, (*path, i)))
    return out


PATHS = [p for p in _paths(SOURCE) if p[0] != "settings" or len(p) < 3]
VALUES = st.one_of(
    st.text(max_size=5),
    st.integers(-(10**9), 10**9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), VALUES)
def test_one_wrong_value_is_refused_by_path_or_imported(path: tuple[Any, ...], value: Any) -> None:
    data = copy.deepcopy(SOURCE)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    try:
        result = import_gcs(data)
    except InputError as exc:
        assert exc.where, str(exc)
        assert "\n" not in str(exc)
        return
    with contextlib.suppress(InputError):  # a value the sheet refuses (ST -1e9): still a clear error
        new_character(result.sheet)
