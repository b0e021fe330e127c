"""One test driver for every system: a game state, characters, and steps taken with scripted dice.

Each step (an action, a pending check typed in, time passing) runs through the engine with a
:class:`ScriptedSource` of the dice given, asserts that every one of them was used, and keeps the
new state and outcome. Systems' own test helpers bind a ruleset and add their sheets.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypedDict, TypeVar

from rulekeeper.core import (
    Action,
    AutomationLevel,
    GameState,
    Outcome,
    Ruleset,
    Settings,
    add_character,
    advance,
    apply_action,
    get_ruleset,
    resolve_check,
)
from rulekeeper.dice.source import DiceSource, ScriptedSource

__all__ = ["DiceTable", "Sheets", "Table", "TableBase", "TableSettings", "new_game", "table_settings"]

C = TypeVar("C")

Sheets = Mapping[str, Mapping[str, Any]]


class TableSettings(TypedDict, total=False):
    """The table's settings as :class:`Table` takes them (for subclasses passing them on)."""

    automation: Mapping[str, str] | None
    options: Mapping[str, Any] | None


def table_settings(automation: Mapping[str, str] | None = None, options: Mapping[str, Any] | None = None) -> Settings:
    """Settings from plain strings: ``{"gurps.death": "prompt"}`` and rule options."""
    return Settings(
        automation={kind: AutomationLevel(level) for kind, level in (automation or {}).items()},
        options=dict(options or {}),
    )


def new_game(ruleset: Ruleset[C], characters: Sheets, settings: Settings | None = None) -> GameState[C]:
    """A new state of ``ruleset`` with ``characters`` (actor id to sheet) added in order."""
    state: GameState[C] = ruleset.new_state(settings)
    for actor, sheet in characters.items():
        state = add_character(ruleset, state, actor, sheet)
    return state


class TableBase(Generic[C]):
    """A game in progress; every step asserts that all the dice it was given were used.

    ``system`` is a name or alias for :func:`get_ruleset` (or a ruleset). :class:`Table` and
    :class:`DiceTable` add ``act``, differing only in what the dice keyword is called.
    """

    def __init__(
        self,
        system: str | Ruleset[C],
        characters: Sheets | None = None,
        *,
        automation: Mapping[str, str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        self.ruleset: Ruleset[C] = get_ruleset(system) if isinstance(system, str) else system
        self.state: GameState[C] = new_game(self.ruleset, characters or {}, table_settings(automation, options))
        self.last: Outcome[C] | None = None

    # -- steps -------------------------------------------------------------------------------
    def run(self, step: Callable[[DiceSource], Outcome[C]], rolls: Sequence[int] = ()) -> Outcome[C]:
        """Run ``step`` with ``rolls`` as its dice, assert they were all used, and keep its outcome."""
        source = ScriptedSource(rolls)
        outcome = step(source)
        assert not source.remaining, f"dice left unused: {source.remaining}\n{outcome.render()}"
        self.state = outcome.state
        self.last = outcome
        return outcome

    def apply(self, action: Action, rolls: Sequence[int] = ()) -> Outcome[C]:
        return self.run(lambda dice: apply_action(self.ruleset, self.state, action, dice), rolls)

    def resolve(self, typed: Sequence[int], /, pending_id: int | None = None, extra: Sequence[int] = ()) -> Outcome[C]:
        """Type in a pending check's dice (the latest check by default); ``extra`` feeds its consequences' rolls."""
        pid = self.state.pending[-1].id if pending_id is None else pending_id
        return self.run(lambda dice: resolve_check(self.ruleset, self.state, pid, dice, list(typed)), extra)

    def advance(self, seconds: int, rolls: Sequence[int] = ()) -> Outcome[C]:
        return self.run(lambda dice: advance(self.ruleset, self.state, seconds, dice), rolls)

    def round(self, count: int = 1, rolls: Sequence[int] = ()) -> Outcome[C]:
        """Let ``count`` rounds pass in one step (a round as :func:`rulekeeper.core.next_round` counts it)."""
        return self.advance(count * self.round_seconds, rolls)

    # -- looking at the game -----------------------------------------------------------------
    @property
    def round_seconds(self) -> int:
        return int(self.state.settings.option("round_seconds", self.ruleset.round_seconds))

    def char(self, actor: str) -> C:
        return self.state.characters[actor]

    def view(self, actor: str) -> dict[str, Any]:
        return self.ruleset.view(self.state, actor)

    def has(self, actor: str, condition: str) -> bool:
        return self.state.has_condition(actor, condition)

    @property
    def text(self) -> str:
        """The last step's outcome, rendered."""
        assert self.last is not None, "no step taken yet"
        return self.last.render()


class Table(TableBase[C]):
    """The generic driver: ``rolls`` are the dice, as some systems' actions take a parameter called ``dice``."""

    def act(self, action: str, actor: str | None = None, /, rolls: Sequence[int] = (), **params: Any) -> Outcome[C]:
        return self.apply(Action(action, actor, params), rolls)


class DiceTable(TableBase[C]):
    """The driver as the Gods & Monsters and VI·VIII·X tests spell it: ``dice=`` for the dice, ``wait``.

    Only for systems with no action parameter called ``dice``.
    """

    def act(self, action: str, actor: str | None = None, /, dice: Sequence[int] = (), **params: Any) -> Outcome[C]:
        return self.apply(Action(action, actor, params), dice)

    def wait(self, seconds: int, dice: Sequence[int] = ()) -> Outcome[C]:
        return self.advance(seconds, dice)
