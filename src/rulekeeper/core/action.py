"""Actions as data: what a ruleset offers, with typed parameters every front end can generate from.

A ruleset declares each action once as an :class:`ActionSpec`. The CLI builds its subcommands
from these, the HTTP layer its request models, and scenario files name them -- so no front end
hand-writes a command per system. :class:`Action` is the canonical JSON-able form of one use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from rulekeeper.core.params import Params
from rulekeeper.errors import InputError, UnknownNameError
from rulekeeper.limits import MAX_DICE, MAX_PARAM_NUMBER, MAX_SET_VALUE_CHARS

if TYPE_CHECKING:
    from rulekeeper.core.citation import Rule
    from rulekeeper.core.explain import Step
    from rulekeeper.core.play import Play

__all__ = ["Action", "ActionSpec", "Calculation", "CalculatorSpec", "Call", "ParamSpec", "Params", "validate_params"]

ParamKind = Literal["int", "float", "str", "bool", "choice", "character", "dice", "duration", "ints"]

# Longer than any number within MAX_PARAM_NUMBER: refused before int() meets Python's digit limit.
_NUMBER_CHARS = 30
_BOOL_TEXT = {"true": True, "yes": True, "1": True, "on": True, "false": False, "no": False, "0": False, "off": False}


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of an action or calculator.

    ``kind`` says how text is read: ``character`` is a character id, ``dice`` dice notation,
    ``duration`` text such as ``10m`` (stored as seconds), ``ints`` a comma-separated list.
    """

    name: str
    kind: ParamKind = "int"
    help: str = ""
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    #: It names a GM secret (a VI·VIII·X unknown stat): only the GM may set it, since whether a
    #: guess is accepted would tell a player what the secret is called.
    gm_only: bool = False
    #: It names another character (``target``, ``subject``, ``healer``, a list of ids ...): the
    #: player's-seat rules check every such parameter, not only the actor. A ``character`` kind
    #: always does (see ``__post_init__``); text parameters holding ids say so here.
    names_character: bool = False
    #: It overrides what the rules would compute (damage, skill, DR, a threshold, a roll modifier
    #: read at the table ...): only the GM may set it (``campaign/seat.py``).
    overrides_rules: bool = False
    #: The choice is the named other character's own (the defence a target makes): a player
    #: acting on a character they do not play may not make it for them when the table lets the
    #: action apply directly (as a request, the GM reads it and may amend it).
    target_decides: bool = False

    def __post_init__(self) -> None:
        if self.kind == "character" and not self.names_character:
            object.__setattr__(self, "names_character", True)

    @property
    def expected(self) -> str:
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        bounds = ""
        if self.minimum is not None and self.maximum is not None:
            bounds = f" from {self.minimum:g} to {self.maximum:g}"
        elif self.minimum is not None:
            bounds = f" of at least {self.minimum:g}"
        elif self.maximum is not None:
            bounds = f" of at most {self.maximum:g}"
        names = {
            "int": "a whole number",
            "float": "a number",
            "str": "text",
            "bool": "true or false",
            "character": "a character id",
            "dice": "dice notation such as 2d6+1",
            "duration": "a duration such as 30s, 10m, 8h or 3d",
            "ints": "comma-separated whole numbers such as 4,6,2",
        }
        return names[self.kind] + bounds

    def coerce(self, value: Any, where: str) -> Any:
        try:
            out = self._coerce(value)
        except (TypeError, ValueError, OverflowError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"{self.name}={_shown(value)} is not valid", expected=self.expected, where=where) from None
        # A number without bounds of its own still stays within what a table could use.
        low = -MAX_PARAM_NUMBER if self.minimum is None else self.minimum
        high = MAX_PARAM_NUMBER if self.maximum is None else self.maximum
        in_range = not isinstance(out, (int, float)) or isinstance(out, bool) or (low <= out <= high)
        if self.kind in ("int", "float", "duration") and not in_range:
            raise InputError(f"{self.name}={_shown(value)} is out of range", expected=self.expected, where=where)
        return out

    def _coerce(self, value: Any) -> Any:
        kind = self.kind
        if kind == "int":
            if isinstance(value, bool):
                raise TypeError
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            if isinstance(value, str) and len(value.strip()) > _NUMBER_CHARS:
                raise ValueError
            return int(str(value).strip()) if isinstance(value, str) else int(value)
        if kind == "float":
            if isinstance(value, bool) or (isinstance(value, str) and len(value.strip()) > _NUMBER_CHARS):
                raise TypeError
            number = float(value)
            if not math.isfinite(number):
                raise ValueError
            return number
        if kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text not in _BOOL_TEXT:
                raise ValueError
            return _BOOL_TEXT[text]
        if kind == "choice":
            text = str(value).strip().lower()
            if text not in self.choices:
                raise ValueError
            return text
        if kind == "duration":
            from rulekeeper.core.clock import parse_duration

            if isinstance(value, int) and not isinstance(value, bool):
                return value
            return parse_duration(str(value))
        if kind == "dice":
            from rulekeeper.dice import parse

            return str(parse(str(value)))
        if kind == "ints":
            parts = list(value) if isinstance(value, (list, tuple)) else str(value).replace(" ", "").split(",")
            if len(parts) > MAX_DICE or any(isinstance(v, str) and len(v) > _NUMBER_CHARS for v in parts):
                raise ValueError
            return tuple(int(v) for v in parts if v != "")
        text = str(value)
        if not text.strip() or len(text) > MAX_SET_VALUE_CHARS:
            raise ValueError
        return text


def _shown(value: Any) -> str:
    """A value as an error message quotes it: its ``repr``, cut at 40 characters."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def validate_params(specs: tuple[ParamSpec, ...], raw: Mapping[str, Any], where: str) -> Params:
    """Check and coerce raw parameters (from JSON, YAML or the command line) against ``specs``."""
    return Params.validate(specs, raw, where)


@dataclass(frozen=True)
class Action:
    """One use of an action: its name, the acting character and its parameters (JSON-able)."""

    name: str
    actor: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "actor": self.actor, "params": dict(self.params)}


@dataclass(frozen=True)
class Call:
    """One use of an action as its handler receives it: the engine has checked the actor and
    validated the parameters against the spec, so every declared one is present and typed."""

    name: str
    actor: str | None
    params: Params

    @property
    def character(self) -> str:
        """The acting character's id, for an action whose spec requires one (the engine checked it
        is in play); reading it for an action that may have none is a bug in the handler."""
        if self.actor is None:
            raise TypeError(f"action {self.name!r} has no acting character: its spec does not require one")
        return self.actor


@dataclass(frozen=True)
class ActionSpec:
    """An action a ruleset offers.

    ``actor`` says whether it needs a character; ``handler`` applies it through a
    :class:`~rulekeeper.core.play.Play` (it may raise ``RuleRefusal``).
    """

    name: str
    help: str
    handler: Callable[[Play[Any], Call], None]
    params: tuple[ParamSpec, ...] = ()
    actor: Literal["required", "optional", "none"] = "required"
    kind: str = "feat"  # damage, heal, feat, maneuver, rest, ... for logs and filters
    # Its output is for the actor's player: front ends show it only through the player projections.
    player_facing: bool = False

    @property
    def title(self) -> str:
        """The action as people name it ("Lose fp" for ``lose_fp``): what logs and cards show
        where players look, never the code name."""
        words = self.name.replace("_", " ").replace(".", " ")
        return words[:1].upper() + words[1:]

    def param(self, name: str) -> ParamSpec:
        for p in self.params:
            if p.name == name:
                return p
        raise UnknownNameError(f"action {self.name!r} has no parameter {name!r}")


@dataclass(frozen=True)
class Calculation:
    """What a calculator returns: named values and the explained steps behind them."""

    values: Mapping[str, Any]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class CalculatorSpec:
    """A rule that needs no campaign (``feat gurps jump --basic-move 6``)."""

    name: str
    help: str
    compute: Callable[[Params], Calculation]
    params: tuple[ParamSpec, ...] = ()
    rule: Rule | None = None

    def calculate(self, raw: Mapping[str, Any]) -> Calculation:
        """Validate raw parameters against the spec, then compute."""
        return self.compute(validate_params(self.params, raw, f"calculator {self.name}"))
