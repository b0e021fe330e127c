"""What changed between two sheets, in lines a person reads ("skills: + stealth 12, broadsword 13 -> 14").

Sheets are the systems' own plain JSON; this compares them field by field without knowing any
system: a mapping field (skills) by key, a list of named entries (weapons, gear) by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["sheet_changes"]


def _short(value: Any) -> str:
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_short(v) for v in value) + "]"
    return str(value)


def _named(items: Any) -> dict[str, Any] | None:
    """A list whose entries all have a distinct ``name``, by name; None for any other list."""
    if not isinstance(items, Sequence) or isinstance(items, str):
        return None
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or item["name"] in out:
            return None
        out[item["name"]] = item
    return out


def _by_key(old: Mapping[str, Any], new: Mapping[str, Any], *, show_values: bool) -> list[str]:
    parts = [f"+ {k}" + (f" {_short(new[k])}" if show_values else "") for k in new if k not in old]
    parts += [f"- {k}" for k in old if k not in new]
    parts += [
        f"{k} {_short(old[k])} -> {_short(new[k])}" if show_values else f"{k} changed"
        for k in new
        if k in old and old[k] != new[k]
    ]
    return parts


def sheet_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """One line per sheet field that differs, in the new sheet's order, then the fields removed."""
    lines: list[str] = []
    for key in [*new, *(k for k in old if k not in new)]:
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        if key not in old:
            lines.append(f"{key}: new, {_short(after)}")
        elif key not in new:
            lines.append(f"{key}: removed (was {_short(before)})")
        elif isinstance(before, Mapping) and isinstance(after, Mapping):
            lines.append(f"{key}: " + ", ".join(_by_key(before, after, show_values=True)))
        elif (old_named := _named(before)) is not None and (new_named := _named(after)) is not None:
            lines.append(f"{key}: " + ", ".join(_by_key(old_named, new_named, show_values=False)))
        else:
            lines.append(f"{key}: {_short(before)} -> {_short(after)}")
    return lines
