"""Reading our own JSON back into the frozen state dataclasses, strictly and without pydantic.

Building pydantic's validator for a system's ``GameState`` costs more than everything else a
one-shot command does (a third of a second on a laptop), and a snapshot is JSON this code wrote
itself. So a snapshot is first read by this small decoder, driven by the dataclasses' own type
hints. It accepts only exactly what the dump produces (every value of its exact type, every
dataclass with exactly its fields); anything else raises :class:`NotOurs`, and the caller falls
back to pydantic, whose validation and messages stand for anything typed or imported by a person.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

__all__ = ["NotOurs", "decode"]


class NotOurs(ValueError):
    """The value is not exactly what our dump writes for this type."""


_HINTS: dict[type[Any], tuple[tuple[str, Any], ...]] = {}
_NAMES: dict[type[Any], frozenset[str]] = {}


def _hints(cls: type[Any]) -> tuple[tuple[str, Any], ...]:
    found = _HINTS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = _HINTS[cls] = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)
    return found


def _field_names(cls: type[Any]) -> frozenset[str]:
    found = _NAMES.get(cls)
    if found is None:
        found = _NAMES[cls] = frozenset(name for name, _ in _hints(cls))
    return found


def _dataclass(cls: type[Any], value: Any, subst: Mapping[Any, Any]) -> Any:
    if not isinstance(value, dict) or value.keys() != _field_names(cls):
        raise NotOurs(f"{cls.__name__}: not exactly its fields")
    return cls(**{name: decode(hint, value[name], subst) for name, hint in _hints(cls)})


def decode(tp: Any, value: Any, subst: Mapping[Any, Any] | None = None) -> Any:
    """``value`` (parsed JSON) as an instance of ``tp``; :class:`NotOurs` if it is not exactly that."""
    subst = subst or {}
    if isinstance(tp, TypeVar):
        tp = subst.get(tp, Any)
    if tp is Any:
        return value
    if tp is type(None):
        if value is not None:
            raise NotOurs("expected null")
        return None
    if tp is bool:
        if type(value) is not bool:
            raise NotOurs("expected a boolean")
        return value
    if tp is int:
        if type(value) is not int:
            raise NotOurs("expected a whole number")
        return value
    if tp is float:
        if type(value) not in (int, float):
            raise NotOurs("expected a number")
        return float(value)
    if tp is str:
        if type(value) is not str:
            raise NotOurs("expected text")
        return value
    origin = typing.get_origin(tp)
    if origin is None:
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            try:
                return tp(value)
            except ValueError:
                raise NotOurs(f"not a {tp.__name__}") from None
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            return _dataclass(tp, value, subst)
        raise NotOurs(f"no reading for {tp!r}")
    args = typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        found: list[Any] = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                found.append(decode(arg, value, subst))
            except NotOurs:
                continue
        if len(found) != 1:
            # None fits, or more than one does: which one pydantic would choose is its call.
            raise NotOurs("not exactly one member of the union fits")
        return found[0]
    if origin is typing.Literal:
        if value not in args:
            raise NotOurs("not one of the literal values")
        return value
    if origin is tuple:
        if not isinstance(value, list):
            raise NotOurs("expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v, subst) for v in value)
        if len(args) != len(value):
            raise NotOurs("wrong length")
        return tuple(decode(a, v, subst) for a, v in zip(args, value, strict=True))
    if origin is list:
        if not isinstance(value, list):
            raise NotOurs("expected a list")
        return [decode(args[0], v, subst) for v in value]
    if origin in (dict, Mapping):
        if not isinstance(value, dict):
            raise NotOurs("expected an object")
        key_type, value_type = args
        if key_type is not str:
            raise NotOurs("only text keys are read here")
        return {k: decode(value_type, v, subst) for k, v in value.items()}
    if dataclasses.is_dataclass(origin) and isinstance(origin, type):
        params = getattr(origin, "__parameters__", ())
        return _dataclass(origin, value, {**subst, **dict(zip(params, args, strict=True))})
    raise NotOurs(f"no reading for {tp!r}")
