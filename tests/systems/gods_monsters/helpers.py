"""Small drivers for tests: one table, characters, and steps with fixed dice."""

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
from rulekeeper.systems.gods_monsters import GmCharacter, GodsMonstersRuleset

RULESET: GodsMonstersRuleset = get_ruleset("gods-and-monsters")  # type: ignore[assignment]

TOROMEEN: dict[str, Any] = {
    "name": "Toromeen",
    "archetype": "warrior",
    "level": 2,
    "survival": 7,
    "verve": 17,
    "fortitude": 11,
    "endurance": 15,
}


class Table:
    """A game in progress; every step asserts all the dice it was given were used."""

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
        state: GameState[GmCharacter] = RULESET.new_state(settings)
        for actor, sheet in characters.items():
            state = add_character(RULESET, state, actor, sheet)
        self.state = state
        self.last: Outcome[GmCharacter] | None = None

    def _keep(self, outcome: Outcome[GmCharacter], dice: ScriptedSource) -> Outcome[GmCharacter]:
        assert not dice.remaining, f"dice left unused: {dice.remaining}\n{outcome.render()}"
        self.state = outcome.state
        self.last = outcome
        return outcome

    def act(
        self, action: str, actor: str | None = None, /, dice: Sequence[int] = (), **params: Any
    ) -> Outcome[GmCharacter]:
        source = ScriptedSource(dice)
        return self._keep(apply_action(RULESET, self.state, Action(action, actor, params), source), source)

    def wait(self, seconds: int, dice: Sequence[int] = ()) -> Outcome[GmCharacter]:
        source = ScriptedSource(dice)
        return self._keep(advance(RULESET, self.state, seconds, source), source)

    def resolve(self, dice: Sequence[int], pending_id: int | None = None) -> Outcome[GmCharacter]:
        pid = pending_id if pending_id is not None else self.state.pending[-1].id
        source = ScriptedSource([])
        return self._keep(resolve_check(RULESET, self.state, pid, source, list(dice)), source)

    def char(self, actor: str) -> GmCharacter:
        return self.state.characters[actor]

    def view(self, actor: str) -> dict[str, Any]:
        return RULESET.view(self.state, actor)

    def has(self, actor: str, name: str) -> bool:
        return self.state.has_condition(actor, name)

    @property
    def text(self) -> str:
        assert self.last is not None
        return self.last.render()
