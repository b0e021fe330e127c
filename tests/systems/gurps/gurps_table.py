"""A small test harness: a GURPS game state driven through the engine with scripted dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulekeeper.core import Action, AutomationLevel, Outcome, Settings, get_ruleset
from rulekeeper.core.engine import add_character, advance, apply_action, resolve_check
from rulekeeper.core.state import GameState
from rulekeeper.dice.source import ScriptedSource
from rulekeeper.systems.gurps import GurpsCharacter

RULES = get_ruleset("gurps")


class Table:
    def __init__(
        self,
        automation: dict[str, str] | None = None,
        options: dict[str, Any] | None = None,
        **sheets: dict[str, Any],
    ) -> None:
        settings = Settings(
            automation={k: AutomationLevel(v) for k, v in (automation or {}).items()}, options=options or {}
        )
        state: GameState[GurpsCharacter] = RULES.new_state(settings)
        for actor, sheet in sheets.items():
            state = add_character(RULES, state, actor, sheet)
        self.state = state
        self.last: Outcome[GurpsCharacter] | None = None

    def _run(self, dice: Sequence[int], step: Any) -> Outcome[GurpsCharacter]:
        source = ScriptedSource(dice)
        outcome: Outcome[GurpsCharacter] = step(source)
        assert not source.remaining, f"unused dice {source.remaining}"
        self.state = outcome.state
        self.last = outcome
        return outcome

    def act(self, name: str, actor: str | None = None, rolls: Sequence[int] = (), **params: Any) -> Outcome[Any]:
        return self._run(rolls, lambda src: apply_action(RULES, self.state, Action(name, actor, params), src))

    def resolve(self, dice: Sequence[int], pending_id: int | None = None, extra: Sequence[int] = ()) -> Outcome[Any]:
        """Type in a pending check's dice; ``extra`` feeds any rolls its consequences make."""
        pid = pending_id if pending_id is not None else self.state.pending[-1].id
        return self._run(extra, lambda src: resolve_check(RULES, self.state, pid, src, typed=list(dice)))

    def advance(self, seconds: int, rolls: Sequence[int] = ()) -> Outcome[Any]:
        return self._run(rolls, lambda src: advance(RULES, self.state, seconds, src))

    def view(self, actor: str) -> dict[str, Any]:
        return RULES.view(self.state, actor)

    def has(self, actor: str, name: str) -> bool:
        return self.state.has_condition(actor, name)

    def char(self, actor: str) -> GurpsCharacter:
        return self.state.characters[actor]

    def text(self) -> str:
        return self.last.render() if self.last else ""
