"""How a fighter stands after a fight, read from the state the engine left (never recomputed).

Every system is mapped onto the same five outcomes, so one report fits all four:

- ``dead``; ``dying`` (G&M and W&G Dying, VI·VIII·X death in its fatality countdown);
- ``unconscious`` (GURPS unconscious, G&M unconscious, VI·VIII·X coma, vegetative or stunned);
- ``wounded`` (hurt but still standing) and ``unhurt``.

A fighter is *out of the fight* when dead, dying or unconscious (also GURPS collapsed from
fatigue, VI·VIII·X paralysis). Health left is the figure each system counts down: GURPS HP,
W&G Wounds left (max Wounds less Wounds), G&M Survival, VI·VIII·X BU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekeeper.core.state import GameState

__all__ = ["HEALTH_NAME", "STATUSES", "health", "is_out", "status"]

STATUSES = ("dead", "dying", "unconscious", "wounded", "unhurt")

HEALTH_NAME = {"gurps": "HP", "wrath-and-glory": "Wounds left", "gods-and-monsters": "Survival", "vi-viii-x": "BU"}


def _gurps(state: GameState[Any], actor: str) -> str:
    c = state.characters[actor]
    if c.dead:
        return "dead"
    if state.has_condition(actor, "unconscious"):
        return "unconscious"
    return "wounded" if c.current_hp < c.hp else "unhurt"


def _wg(state: GameState[Any], actor: str) -> str:
    c = state.characters[actor]
    if c.dead:
        return "dead"
    if c.dying:
        return "dying"
    return "wounded" if c.wounds > 0 else "unhurt"


def _gm(state: GameState[Any], actor: str) -> str:
    c = state.characters[actor]
    if state.has_condition(actor, "dead"):
        return "dead"
    if state.has_condition(actor, "dying"):
        return "dying"
    if state.has_condition(actor, "unconscious"):
        return "unconscious"
    hurt = c.injuries > 0 or c.survival < c.max_survival or c.verve < c.max_verve
    return "wounded" if hurt else "unhurt"


def _kup(state: GameState[Any], actor: str) -> str:
    c = state.characters[actor]
    if c.permanently_dead:
        return "dead"
    names = {x.name for x in state.conditions_of(actor)}
    if "death" in names or c.ks["BU"].current <= 0:
        return "dying"
    if names & {"coma", "vegetative", "stunned"}:
        return "unconscious"
    return "wounded" if c.is_injured else "unhurt"


_STATUS: dict[str, Callable[[GameState[Any], str], str]] = {
    "gurps": _gurps,
    "wrath-and-glory": _wg,
    "gods-and-monsters": _gm,
    "vi-viii-x": _kup,
}

_HEALTH: dict[str, Callable[[Any], int]] = {
    "gurps": lambda c: int(c.current_hp),
    "wrath-and-glory": lambda c: int(c.max_wounds - c.wounds),
    "gods-and-monsters": lambda c: int(c.survival),
    "vi-viii-x": lambda c: int(c.ks["BU"].current),
}


def status(state: GameState[Any], actor: str) -> str:
    return _STATUS[state.system](state, actor)


def health(state: GameState[Any], actor: str) -> int:
    return _HEALTH[state.system](state.characters[actor])


def is_out(state: GameState[Any], actor: str) -> bool:
    if status(state, actor) in ("dead", "dying", "unconscious"):
        return True
    if state.system == "gurps":
        return state.has_condition(actor, "collapsed")
    if state.system == "vi-viii-x":
        return state.has_condition(actor, "paralysis")
    return False
