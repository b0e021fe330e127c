"""Validated parameters: what an action's handler or a calculator reads, typed once by its specs.

Front ends hand the engine raw text and JSON. :meth:`Params.validate` checks and coerces every
declared parameter once, against its :class:`~rulekeeper.core.action.ParamSpec`, and fills each
omitted one with its declared default, so rule code never converts, defaults or re-checks a value.

Rule code reads a value with the accessor for its declared kind: ``p.int("amount")`` for an
``int`` parameter that is required or has a default, ``p.opt_int("dr")`` for one that may be
absent. An accessor that does not fit the declaration (``p.int`` on a ``str`` parameter, or on
an ``int`` that may be ``None``) raises ``TypeError`` whatever the value: that is a bug in the
rule code, found by any test that runs it, never a player's error.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NoReturn

from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.core.action import ParamKind, ParamSpec

__all__ = ["Params"]

# Which declared kinds each accessor reads, and the Python type every value of them has.
_INT_KINDS: frozenset[ParamKind] = frozenset({"int", "duration"})
_FLOAT_KINDS: frozenset[ParamKind] = frozenset({"float"})
_STR_KINDS: frozenset[ParamKind] = frozenset({"str", "choice", "character", "dice"})
_BOOL_KINDS: frozenset[ParamKind] = frozenset({"bool"})
_INTS_KINDS: frozenset[ParamKind] = frozenset({"ints"})


# Specs by name for each declared tuple of specs, kept with the tuple so its id stays its own:
# the simulation validates thousands of uses of the same few actions.
_SPECS_BY_NAME: dict[int, tuple[tuple[ParamSpec, ...], dict[str, ParamSpec]]] = {}


def _by_name(specs: tuple[ParamSpec, ...]) -> dict[str, ParamSpec]:
    known = _SPECS_BY_NAME.get(id(specs))
    if known is None or known[0] is not specs:
        known = (specs, {s.name: s for s in specs})
        if len(_SPECS_BY_NAME) < 4096:  # specs tuples are declared once; a bound keeps a leak out
            _SPECS_BY_NAME[id(specs)] = known
    return known[1]


class Params(Mapping[str, Any]):
    """The validated parameters of one use of an action or calculator (immutable).

    Every declared parameter is present: its coerced value, its default, or ``None`` when it is
    optional without a default. As a mapping it is JSON-able and compares equal to a plain dict.
    """

    __slots__ = ("_declared", "_specs", "_values")

    def __init__(self, specs: tuple[ParamSpec, ...], values: Mapping[str, Any]) -> None:
        self._declared = specs
        self._specs = _by_name(specs)
        self._values = {s.name: values.get(s.name, s.default) for s in specs}

    @classmethod
    def validate(cls, specs: tuple[ParamSpec, ...], raw: Mapping[str, Any], where: str) -> Params:
        """Check and coerce raw parameters (from JSON, YAML or the command line) against ``specs``.

        Names may use ``-`` for ``_``; an unknown name, a missing required one or a value that does
        not fit its kind is an :class:`InputError` in our words.
        """
        by_name = _by_name(specs)
        unknown = [k for k in raw if k.replace("-", "_") not in by_name]
        if unknown:
            known = ", ".join(by_name) or "none"
            raise InputError(f"unknown parameter {unknown[0]!r}", expected=f"parameters: {known}", where=where)
        normalized = {k.replace("-", "_"): v for k, v in raw.items()}
        out: dict[str, Any] = {}
        for spec in specs:
            if normalized.get(spec.name) is not None:
                out[spec.name] = spec.coerce(normalized[spec.name], where)
            elif spec.required:
                raise InputError(f"missing parameter {spec.name!r}", expected=spec.expected, where=where)
        return cls(specs, out)

    # -- the mapping: for passing a whole set on, logging and JSON ---------------------------

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> builtins.int:
        return len(self._values)

    def __repr__(self) -> builtins.str:
        return f"Params({self._values!r})"

    def as_json(self) -> dict[builtins.str, Any]:
        """The values as JSON holds them (a list for a tuple), to be stored and validated again."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self._values.items()}

    def replace(self, **values: Any) -> Params:
        """These parameters with some values replaced by rule code (already typed, not coerced)."""
        for name in values:
            self._spec(name)
        return Params(self._declared, {**self._values, **values})

    # -- typed reads ---------------------------------------------------------------------------

    def int(self, name: builtins.str) -> builtins.int:
        value: builtins.int = self._read(name, _INT_KINDS, builtins.int, optional=False)
        return value

    def opt_int(self, name: builtins.str) -> builtins.int | None:
        value: builtins.int | None = self._read(name, _INT_KINDS, builtins.int, optional=True)
        return value

    def float(self, name: builtins.str) -> builtins.float:
        value: builtins.float = self._read(name, _FLOAT_KINDS, builtins.float, optional=False)
        return value

    def opt_float(self, name: builtins.str) -> builtins.float | None:
        value: builtins.float | None = self._read(name, _FLOAT_KINDS, builtins.float, optional=True)
        return value

    def str(self, name: builtins.str) -> builtins.str:
        value: builtins.str = self._read(name, _STR_KINDS, builtins.str, optional=False)
        return value

    def opt_str(self, name: builtins.str) -> builtins.str | None:
        value: builtins.str | None = self._read(name, _STR_KINDS, builtins.str, optional=True)
        return value

    def bool(self, name: builtins.str) -> builtins.bool:
        value: builtins.bool = self._read(name, _BOOL_KINDS, builtins.bool, optional=False)
        return value

    def opt_bool(self, name: builtins.str) -> builtins.bool | None:
        value: builtins.bool | None = self._read(name, _BOOL_KINDS, builtins.bool, optional=True)
        return value

    def ints(self, name: builtins.str) -> tuple[builtins.int, ...]:
        value: tuple[builtins.int, ...] = self._read(name, _INTS_KINDS, tuple, optional=False)
        return value

    def opt_ints(self, name: builtins.str) -> tuple[builtins.int, ...] | None:
        value: tuple[builtins.int, ...] | None = self._read(name, _INTS_KINDS, tuple, optional=True)
        return value

    def _spec(self, name: builtins.str) -> ParamSpec:
        spec = self._specs.get(name)
        if spec is None:
            raise TypeError(f"no parameter {name!r} is declared (declared: {', '.join(self._specs) or 'none'})")
        return spec

    def _read(self, name: builtins.str, kinds: frozenset[ParamKind], python: type, *, optional: builtins.bool) -> Any:
        spec = self._specs.get(name)
        if spec is None or spec.kind not in kinds or (not spec.required and spec.default is None) != optional:
            self._misread(name, kinds, python, optional)
        value = self._values[name]
        # Coerced values have exactly their kind's type; only a default could be a subclass of it.
        if value is None or type(value) is python:
            return value
        if isinstance(value, python) and not isinstance(value, builtins.bool):
            return value
        # A default declared with the wrong type: a bug in a spec.
        raise TypeError(f"parameter {name!r} holds {value!r}, not {python.__name__}")

    def _misread(
        self, name: builtins.str, kinds: frozenset[ParamKind], python: type, optional: builtins.bool
    ) -> NoReturn:
        spec = self._specs.get(name)
        if spec is None:
            raise TypeError(f"no parameter {name!r} is declared (declared: {', '.join(self._specs) or 'none'})")
        if spec.kind not in kinds:
            raise TypeError(f"parameter {name!r} is declared {spec.kind!r}, not read as {python.__name__}")
        if optional:
            raise TypeError(f"parameter {name!r} cannot be None: read it with the reader without opt_")
        raise TypeError(f"parameter {name!r} may be None: read it with the opt_ reader")
