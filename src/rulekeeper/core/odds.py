"""The exact odds of one check, as a system states them (``rulekeeper check``, ``/api/check``).

A ruleset builds the check and its outcome table (``Ruleset.odds``); the front ends only print
or serialise it, so no front end decides how a system's check is built or what a modifier means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulekeeper.core.action import ParamSpec, validate_params
from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_CHECK_NUMBER

if TYPE_CHECKING:
    from rulekeeper.core.params import Params
    from rulekeeper.core.ruleset import Ruleset

__all__ = ["MODIFIER", "TARGET", "Odds", "odds_usage", "odds_values"]

_INTEGER = re.compile(r"-?\d+")

#: The two parameters every system's odds may take; a system declares which it reads.
TARGET = ParamSpec("target", "int", "skill, score or stat total")
MODIFIER = ParamSpec("modifier", "int", "total modifier", default=0)


@dataclass(frozen=True)
class Odds:
    check: Any  # a core Check: describe(), probability(), critical_probability()
    #: Each outcome (a face, a total, a number of icons) with its exact chance, for a bar chart.
    rows: tuple[tuple[str, Fraction], ...]
    #: Further lines worth a glance, e.g. ``("critical failure", p)``.
    extra: tuple[tuple[str, Fraction], ...] = ()


def odds_usage(ruleset: Ruleset[Any]) -> str:
    """``check gurps TARGET [-m N]``: what a ruleset's odds take, as a command line."""
    words = [f"check {ruleset.name}"]
    for p in ruleset.odds_params:
        flag = {"target": "TARGET", "modifier": "-m N"}.get(p.name, f"--{p.name.replace('_', '-')} N")
        words.append(flag if p.name == "target" else f"[{flag}]")
    return " ".join(words)


def _short(number: int) -> str:
    return str(number) if abs(number) < 10**30 else f"a number of {len(str(abs(number)))} digits"


def odds_values(ruleset: Ruleset[Any], raw: Mapping[str, Any], where: str) -> Params:
    """The odds parameters given (``raw``; ``None`` is not given), checked against what the
    ruleset's odds take, for the CLI's ``check`` and the API's ``/api/check`` alike."""
    given = {k.replace("-", "_"): v for k, v in raw.items() if v is not None}
    by_name = {p.name for p in ruleset.odds_params}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        raise InputError(
            f"--{unknown[0].replace('_', '-')} has no meaning for a {ruleset.name} check",
            expected=odds_usage(ruleset),
            where=unknown[0],
        )
    # A number the system leaves unbounded is held to the check bounds here, before it is read,
    # so a 400-digit target is refused by its size; bounded ones are the system's to judge.
    unbounded = {p.name for p in ruleset.odds_params if p.minimum is None and p.maximum is None}
    for name, value in given.items():
        text = str(value).strip()
        if name in unbounded and _INTEGER.fullmatch(text) and abs(int(text)) > MAX_CHECK_NUMBER:
            raise InputError(
                f"{name} {_short(int(text))} is out of range",
                expected=f"a {name} from -{MAX_CHECK_NUMBER:,} to {MAX_CHECK_NUMBER:,} (docs/limits.md)",
                where=name,
            )
    return validate_params(ruleset.odds_params, given, where)
