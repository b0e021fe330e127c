"""Shared helpers for the Wrath & Glory tests: a ruleset, states with characters, and one-line actions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulekeeper.core import Action, GameState, Outcome, Settings, apply_action, get_ruleset
from rulekeeper.dice import ScriptedSource
from rulekeeper.dice.source import DiceSource
from rulekeeper.systems.wrath_glory import WrathGloryCharacter, WrathGloryRuleset
from support.table import new_game

RULESET = get_ruleset("wg")
assert isinstance(RULESET, WrathGloryRuleset)

BASIC: dict[str, Any] = {"tier": 1, "toughness": 3, "willpower": 3}  # Max Wounds 5, Resilience 4, Max Shock 4


def state_with(
    characters: Mapping[str, Mapping[str, Any]] | None = None, settings: Settings | None = None
) -> GameState[WrathGloryCharacter]:
    return new_game(RULESET, characters or {"ari": BASIC}, settings)


def act(
    state: GameState[WrathGloryCharacter],
    name: str,
    actor: str | None = "ari",
    rolls: Iterable[int] | DiceSource = (),
    **params: Any,
) -> Outcome[WrathGloryCharacter]:
    source = rolls if isinstance(rolls, DiceSource) else ScriptedSource(list(rolls))
    return apply_action(RULESET, state, Action(name, actor, params), source)


def view(state: GameState[WrathGloryCharacter], actor: str = "ari") -> dict[str, Any]:
    return RULESET.view(state, actor)


def condition_names(state: GameState[WrathGloryCharacter], actor: str = "ari") -> set[str]:
    return {c.name for c in state.conditions_of(actor)}
