"""Plain JSON forms of outcomes and commands, and the one place JSON text is made."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rulekeeper.errors import InputError

__all__ = ["canonical", "dumps", "jsonable"]


def _fallback(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"{type(value).__name__} is not JSON data")


def jsonable(value: Any) -> Any:
    """Frozen dataclasses, enums, tuples and mappings as plain JSON data (fast: pydantic-core)."""
    from pydantic_core import to_jsonable_python

    return to_jsonable_python(value, fallback=_fallback)


# One encoder for every call: json.dumps builds a new one whenever it is given options.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def dumps(value: Any) -> str:
    return _encode(value)


def canonical(value: Any, what: str) -> Any:
    """``value`` exactly as it will read back from storage, or ``InputError`` if it is not JSON data.

    Commands are applied from this form both live and in replays, so the two never differ.
    """
    try:
        return json.loads(dumps(jsonable(value)))
    except (TypeError, ValueError) as exc:
        raise InputError(f"{what} is not JSON data: {exc}", expected="numbers, text, lists and mappings") from None
