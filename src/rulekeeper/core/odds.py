"""The exact odds of one check, as a system states them (``rulekeeper check``, ``/api/check``).

A ruleset builds the check and its outcome table (``Ruleset.odds``); the front ends only print
or serialise it, so no front end decides how a system's check is built or what a modifier means.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ParamSpec

__all__ = ["MODIFIER", "TARGET", "Odds"]

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
