"""``--vary PATH=VALUES``: one axis of a sweep, and setting it in a raw encounter document.

``PATH`` starts with a side name (``enemies.ogre.count``, ``heroes.brakka.skills.broadsword``:
a member's count or a sheet field, which overrides the member's ``characters`` sheet) or with
a top-level key (``stop.rounds``, ``tactics.ogre.defense``). ``VALUES`` is ``LO..HI`` (whole
numbers, both ends included) or a comma-separated list.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from rulekeeper.errors import InputError

__all__ = ["MAX_CELLS", "Axis", "cells", "parse_vary", "with_values"]

MAX_CELLS = 400
FORM = "PATH=LO..HI or PATH=V1,V2,..., e.g. enemies.ogre.count=1..4"


@dataclass(frozen=True)
class Axis:
    path: str
    values: tuple[Any, ...]


def parse_vary(text: str) -> Axis:
    path, sep, spec = text.partition("=")
    path, spec = path.strip(), spec.strip()
    if not sep or not path or not spec or any(not part for part in path.split(".")):
        raise InputError(f"bad --vary {text!r}", expected=FORM, where="--vary")
    lo, dots, hi = spec.partition("..")
    if dots:
        try:
            a, b = int(lo), int(hi)
        except ValueError:
            raise InputError(
                f"bad range {spec!r}", expected="whole numbers LO..HI, e.g. 10..16", where="--vary"
            ) from None
        if b < a:
            raise InputError(f"empty range {spec!r}", expected="LO..HI with LO <= HI", where="--vary")
        if b - a >= MAX_CELLS:
            raise InputError(f"range {spec!r} is too long", expected=f"at most {MAX_CELLS} values", where="--vary")
        return Axis(path, tuple(range(a, b + 1)))
    values = tuple(yaml.safe_load(v.strip()) for v in spec.split(",") if v.strip())
    if not values:
        raise InputError(f"no values in {text!r}", expected=FORM, where="--vary")
    return Axis(path, values)


def cells(axes: Sequence[Axis]) -> list[tuple[Any, ...]]:
    grid = list(itertools.product(*(a.values for a in axes)))
    if len(grid) > MAX_CELLS:
        raise InputError(f"{len(grid)} cells in the sweep", expected=f"at most {MAX_CELLS}", where="--vary")
    return grid


def with_values(doc: Mapping[str, Any], axes: Sequence[Axis], values: Sequence[Any]) -> dict[str, Any]:
    """A copy of ``doc`` with each axis's path set to its value."""
    out: dict[str, Any] = copy.deepcopy(dict(doc))
    raw_sides = out.get("sides")
    sides: dict[str, Any] = raw_sides if isinstance(raw_sides, dict) else {}
    for axis, value in zip(axes, values, strict=True):
        keys = axis.path.split(".")
        node: dict[str, Any]
        if keys[0] in sides and len(keys) >= 3:
            node = sides
            if keys[1] not in sides[keys[0]]:
                members = ", ".join(map(str, sides[keys[0]]))
                raise InputError(
                    f"no member {keys[1]!r} on side {keys[0]!r}",
                    expected=f"one of {members}",
                    where=f"--vary {axis.path}",
                )
        elif keys[0] in out or keys[0] in ("stop", "tactics", "characters"):
            node = out
        else:
            known = ", ".join([*map(str, sides), "stop", "tactics", "characters"])
            raise InputError(
                f"--vary path {axis.path!r} starts with no side or key of the encounter",
                expected=f"a path starting with one of {known}",
                where="--vary",
            )
        for key in keys[:-1]:
            nxt = node.get(key)
            if nxt is None:
                nxt = node[key] = {}
            if not isinstance(nxt, dict):
                raise InputError(
                    f"{key!r} in {axis.path!r} is not a mapping", expected="a path of mapping keys", where="--vary"
                )
            node = nxt
        node[keys[-1]] = value
    return out
