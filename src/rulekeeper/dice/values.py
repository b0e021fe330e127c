"""Immutable value objects for the dice package: what a frozen dataclass gives, without ``dataclasses``.

The dice values (expressions, keep/drop, die results, rolls) are not dataclasses because
``rulekeeper roll`` is mostly start-up: importing ``dataclasses`` (which imports ``inspect``,
``ast``, ``dis`` and ``tokenize``) and generating each class's methods by ``exec`` took a third
of the command's time.

A subclass names its fields in ``__match_args__``, in the constructor's order (as a dataclass
does), declares its ``__slots__`` (the fields, and any values derived from them) and writes its
``__init__``, assigning through :func:`object.__setattr__`. :class:`Value` gives the rest, as
``@dataclass(frozen=True, slots=True)`` would:

* only the fields are compared, shown and pickled; derived values are not;
* ``==`` holds between instances of the same class with equal fields, and ``hash`` is the hash
  of the fields' tuple;
* ``repr`` is ``Const(value=3)``;
* assigning or deleting any attribute raises :class:`FrozenValueError`, an ``AttributeError``;
* pickling and copying call the constructor with the fields, so derived values are rebuilt.
"""

from __future__ import annotations

from typing import ClassVar, NoReturn

__all__ = ["FrozenValueError", "Value"]


class FrozenValueError(AttributeError):
    """An attempt to change an immutable dice value (the counterpart of ``FrozenInstanceError``)."""


class Value:
    """Base of an immutable, slotted value object compared by its fields."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Value) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise FrozenValueError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenValueError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        return type(self), self._values()
