"""Typed reading of GCS JSON values, each failure naming its JSON path and the expected form.

GCS stores some numbers as JSON numbers and some as text ("parry": "0U", "base_weight": "3 lb");
these readers accept exactly what GCS writes and refuse anything else, so a bad file stops the
import with one line instead of being read as zeros.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulekeeper.errors import InputError

__all__ = [
    "as_mapping",
    "criterion_text",
    "opt_bool",
    "opt_list",
    "opt_mapping",
    "opt_number",
    "opt_str",
    "parse_weight",
    "read_default",
    "signed_number",
]

_KIND = {dict: "an object", list: "a list", str: "text", bool: "true or false", type(None): "null"}
_NUMBER_TEXT = re.compile(r"^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$")
_WEIGHT = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-z#]*)\s*$")
#: Pounds per unit; GCS writes weights as text with one of these units.
WEIGHT_UNITS: Mapping[str, float] = {
    "lb": 1.0,
    "lbs": 1.0,
    "#": 1.0,
    "oz": 1 / 16,
    "tn": 2000.0,
    "kg": 2.0,
    "g": 0.002,
    "t": 2000.0,
}


def _kind(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return _KIND.get(type(value), type(value).__name__)


def _wrong(path: str, value: Any, expected: str) -> InputError:
    return InputError(f"found {_kind(value)}", expected=expected, where=path)


def as_mapping(value: Any, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _wrong(path, value, "an object")
    return value


def opt_mapping(data: Mapping[str, Any], key: str, path: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    return as_mapping(value, f"{path}.{key}" if path else key)


def opt_list(data: Mapping[str, Any], key: str, path: str) -> Sequence[Any]:
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _wrong(f"{path}.{key}" if path else key, value, "a list")
    return value


def opt_str(data: Mapping[str, Any], key: str, path: str, default: str = "") -> str:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise _wrong(f"{path}.{key}" if path else key, value, "text")
    return value


def opt_bool(data: Mapping[str, Any], key: str, path: str, default: bool) -> bool:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _wrong(f"{path}.{key}" if path else key, value, "true or false")
    return value


def opt_number(data: Mapping[str, Any], key: str, path: str, default: float = 0.0, *, text: bool = False) -> float:
    """A JSON number; ``text=True`` also takes a number written as text (GCS does for some fields)."""
    value = data.get(key)
    where = f"{path}.{key}" if path else key
    if value is None:
        return default
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if is_number or (text and isinstance(value, str) and _NUMBER_TEXT.match(value)):
        number = float(value)
    else:
        raise _wrong(where, value, "a number" + (" (or a number as text)" if text else ""))
    if not math.isfinite(number):
        raise InputError("the number is not finite", expected="a finite number", where=where)
    return number


def signed_number(text: str, path: str, *, allow_empty: bool = True) -> int:
    """A whole number GCS writes as text with a sign ("+2", "-1"), the empty text being 0."""
    cleaned = text.strip().replace(",", "")
    if not cleaned and allow_empty:
        return 0
    if not _NUMBER_TEXT.match(cleaned):
        raise InputError(f"cannot read {text!r} as a number", expected="a whole number such as +2", where=path)
    return math.trunc(float(cleaned))


def parse_weight(value: Any, path: str) -> float:
    """A GCS weight ("3 lb", "1.5 kg", "8 oz") in pounds; a bare number is pounds."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        raise _wrong(path, value, "a weight such as '3 lb'")
    match = _WEIGHT.match(value.lower().replace(",", ""))
    if not match:
        raise InputError(f"cannot read weight {value!r}", expected="a weight such as '3 lb' or '1.5 kg'", where=path)
    unit = match.group(2) or "lb"
    if unit not in WEIGHT_UNITS:
        raise InputError(f"unknown weight unit {unit!r}", expected="lb, oz, tn, kg or g", where=path)
    return float(match.group(1)) * WEIGHT_UNITS[unit]


_TEXT_COMPARES = (
    "any",
    "is",
    "is_not",
    "contains",
    "does_not_contain",
    "starts_with",
    "does_not_start_with",
    "ends_with",
    "does_not_end_with",
)


def read_default(raw: Any, path: str) -> dict[str, Any]:
    """A skill default (``{type, name?, specialization?, modifier?}``), checked key by key.

    Current GCS writes a default's name and specialization as text criteria (``{"compare": "is",
    "qualifier": "Shortsword"}``), older files as plain text (GCS reads that as "is"). An "is"
    criterion becomes its text; any other comparison stays a criterion, matched by
    :func:`gcs_match.text_matches`.
    """
    default = dict(as_mapping(raw, path))
    opt_str(default, "type", path)
    for key in ("name", "specialization"):
        value = default.get(key)
        if isinstance(value, Mapping):
            where = f"{path}.{key}"
            compare = opt_str(value, "compare", where, "is").strip().lower() or "is"
            qualifier = opt_str(value, "qualifier", where)
            if compare not in _TEXT_COMPARES:
                raise InputError(
                    f"unknown comparison {compare!r}", expected="one of " + ", ".join(_TEXT_COMPARES), where=where
                )
            default[key] = qualifier if compare == "is" else {"compare": compare, "qualifier": qualifier}
        else:
            opt_str(default, key, path)
    default["modifier"] = opt_number(default, "modifier", path, 0.0)
    return default


def criterion_text(value: Any) -> str:
    """A default's name or specialization as text (a criterion's qualifier), for labels."""
    if isinstance(value, Mapping):
        return str(value.get("qualifier") or "")
    return str(value or "")
