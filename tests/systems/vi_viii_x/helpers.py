"""Drivers for VI·VIII·X tests: a table of characters and steps with fixed dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulekeeper.core import (
    Action,
    AutomationLevel,
    GameState,
    Outcome,
    Settings,
    add_character,
    advance,
    apply_action,
    get_ruleset,
    resolve_check,
)
from rulekeeper.dice.source import ScriptedSource
from rulekeeper.systems.vi_viii_x import Character, ViViiiXRuleset

RULESET: ViViiiXRuleset = get_ruleset("vi-viii-x")  # type: ignore[assignment]

RANGER: dict[str, Any] = {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}}

# A fuller sheet: a US under every KS and the skills the rules ask for.
ADEPT: dict[str, Any] = {
    "name": "Adept",
    "BU": 6,
    "CO": 4,
    "IN": 5,
    "EM": 5,
    "us": {
        "VIG": 3,
        "REF": {"ks": "CO", "value": 3},
        "MEM": {"ks": "IN", "value": 4},
        "EMP": {"ks": "EM", "value": 2},
    },
    "es": {
        "stamina": {"us": "VIG", "level": 3},
        "body-control": {"us": "REF", "level": 2},
        "education-medicine": {"us": "MEM", "level": 4},
        "education-alchemy": {"us": "MEM", "level": 2},
        "education-literature": {"us": "MEM", "level": 5, "language": "common"},
    },
    "agility": 7,
    "age": 30,
    "mov": 10,
}


class Table:
    """A game in progress; every step asserts that all the dice it was given were used."""

    def __init__(
        self,
        characters: Mapping[str, Mapping[str, Any]],
        *,
        automation: Mapping[str, str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        settings = Settings(
            automation={k: AutomationLevel(v) for k, v in (automation or {}).items()},
            options=dict(options or {}),
        )
        state: GameState[Character] = RULESET.new_state(settings)
        for actor, sheet in characters.items():
            state = add_character(RULESET, state, actor, sheet)
        self.state = state
        self.last: Outcome[Character] | None = None

    def _keep(self, outcome: Outcome[Character], dice: ScriptedSource) -> Outcome[Character]:
        assert not dice.remaining, f"dice left unused: {dice.remaining}\n{outcome.render()}"
        self.state = outcome.state
        self.last = outcome
        return outcome

    def act(
        self, action_name: str, actor: str | None, /, dice: Sequence[int] = (), **params: Any
    ) -> Outcome[Character]:
        source = ScriptedSource(dice)
        return self._keep(apply_action(RULESET, self.state, Action(action_name, actor, params), source), source)

    def wait(self, seconds: int, dice: Sequence[int] = ()) -> Outcome[Character]:
        source = ScriptedSource(dice)
        return self._keep(advance(RULESET, self.state, seconds, source), source)

    def turns(self, count: int, dice: Sequence[int] = ()) -> Outcome[Character]:
        return self.wait(6 * count, dice)

    def resolve(self, typed: Sequence[int], pending_id: int | None = None) -> Outcome[Character]:
        target = self.state.pending[-1].id if pending_id is None else pending_id
        source = ScriptedSource([])
        return self._keep(resolve_check(RULESET, self.state, target, source, typed), source)

    def view(self, actor: str) -> dict[str, Any]:
        return RULESET.view(self.state, actor)

    def char(self, actor: str) -> Character:
        return self.state.characters[actor]

    def has(self, actor: str, condition: str) -> bool:
        return self.state.has_condition(actor, condition)

    @property
    def text(self) -> str:
        return self.last.render() if self.last else ""


def face(modifier: int) -> int:
    """The die face giving ``modifier`` on the default placeholder d14 (face f gives f - 4)."""
    return modifier + 4
