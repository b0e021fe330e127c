"""How a fighter stands after a fight, as its ruleset reads the state the engine left.

Every system maps onto the same five outcomes (``Ruleset.standing``), so one report fits all:
``dead``, ``dying``, ``unconscious`` (down), ``wounded`` (hurt but standing) and ``unhurt``.
A fighter is *out of the fight* when the ruleset says so (down, dying or dead, or a condition
that stops acting). Health left is the figure the system counts down, named by its combat rules.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core import get_ruleset
from rulekeeper.core.presentation import LEVELS
from rulekeeper.core.state import GameState

__all__ = ["STATUSES", "health", "health_name", "is_out", "status"]

STATUSES = LEVELS


def health_name(system: str) -> str:
    return get_ruleset(system).combat().health_name


def status(state: GameState[Any], actor: str) -> str:
    return get_ruleset(state.system).standing(state, actor).level


def health(state: GameState[Any], actor: str) -> int:
    return get_ruleset(state.system).standing(state, actor).health


def is_out(state: GameState[Any], actor: str) -> bool:
    return get_ruleset(state.system).standing(state, actor).out
