"""``evolve``: ``dataclasses.replace`` for the frozen state the engine copies on every change.

Every step of a command replaces part of an immutable ``GameState`` (a new id, a condition, a
character whose HP fell), and a GURPS attack replaces the character and its turn as well: a
simulated duel makes over a hundred such copies. ``dataclasses.replace`` builds each one through
the class's generated ``__init__`` with every field passed by keyword, which costs several
microseconds for a class of thirty fields; copying the instance dictionary gives the same object
in a fraction of that. It is only done where the two cannot differ: a dataclass whose fields are
all set by ``__init__``, with no ``__post_init__`` to run and no slots, and no cached property
that would carry a stale value into the copy. Anything else, and any name that is not a field,
goes to ``dataclasses.replace`` itself, with its checks and errors.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

__all__ = ["evolve"]

T = TypeVar("T")

# Per class: the names of its fields when a dictionary copy equals ``replace``, else None.
_COPYABLE: dict[type, frozenset[str] | None] = {}


def _copyable_fields(cls: type) -> frozenset[str] | None:
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if not fields or not all(f.init for f in fields):
        return None
    for klass in cls.__mro__:
        own = vars(klass)
        if own.get("__slots__") or any(isinstance(v, functools.cached_property) for v in own.values()):
            return None  # a value outside the instance dictionary, or one derived from the old fields
    return frozenset(f.name for f in fields)


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with ``changes``; the same as ``dataclasses.replace``."""
    cls = type(obj)
    try:
        names = _COPYABLE[cls]
    except KeyError:
        names = _COPYABLE[cls] = _copyable_fields(cls)
    if names is None or not names.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    new: T = object.__new__(cls)
    fields = new.__dict__
    fields.update(obj.__dict__)
    fields.update(changes)
    return new
