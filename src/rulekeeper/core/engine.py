"""The three ways state moves: apply an action, resolve a pending check, let time pass.

Each is a pure function ``(ruleset, state, ..., dice) -> Outcome``; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from rulekeeper.core.action import Action, validate_params
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import format_duration
from rulekeeper.core.play import Outcome, Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import GameState, PendingCheck
from rulekeeper.dice.source import DiceSource, FallbackSource, ScriptedSource
from rulekeeper.errors import InputError, UnknownNameError

__all__ = [
    "CORE_RULE",
    "NO_DICE",
    "add_character",
    "advance",
    "apply_action",
    "next_round",
    "resolve_check",
    "sync_derived",
]

C = TypeVar("C")

CORE_RULE = Rule(system="core", section="Game clock and pending checks")
# Recomputing conditions from a sheet never rolls: a roll here would be a bug, and fails loudly.
NO_DICE = ScriptedSource((), label="recomputing derived conditions")


def add_character(
    ruleset: Ruleset[C], state: GameState[C], actor: str, sheet: Mapping[str, Any], *, npc: bool = False
) -> GameState[C]:
    """A new state with one more character; ids are short names used in every command."""
    if not actor or not actor.replace("-", "").replace("_", "").isalnum():
        raise InputError(f"bad character id {actor!r}", expected="letters, digits, '-' or '_', e.g. toromeen")
    if actor in state.characters:
        raise InputError(f"character {actor!r} already exists", expected="a new character id")
    character = ruleset.new_character(ruleset.sheet_for(actor, sheet, npc=npc))
    chars = dict(state.characters)
    chars[actor] = character
    # A sheet loaded at 3 of 12 HP is reeling from the start, not from its next change.
    return sync_derived(ruleset, replace(state, characters=chars), NO_DICE).state


def sync_derived(ruleset: Ruleset[C], state: GameState[C], dice: DiceSource) -> Outcome[C]:
    """The state with every character's derived conditions recomputed from their sheet."""
    play = Play(ruleset, state, dice)
    _sync_all(play)
    return play.outcome()


def _sync_all(play: Play[C]) -> None:
    for actor in tuple(play.state.characters):
        play.ruleset.sync_derived(play, actor)


def _finish(play: Play[C]) -> Outcome[C]:
    _sync_all(play)
    return play.outcome()


def apply_action(
    ruleset: Ruleset[C], state: GameState[C], action: Action, dice: DiceSource, *, explain: bool = True
) -> Outcome[C]:
    """Apply one action; ``explain=False`` (simulation) runs the same rules without building the explanation."""
    specs = ruleset.actions()
    spec = specs.get(action.name)
    if spec is None:
        raise UnknownNameError(
            f"unknown {ruleset.name} action {action.name!r}",
            expected="one of " + ", ".join(sorted(specs)),
        )
    where = f"action {action.name}"
    if spec.actor == "required" and not action.actor:
        raise InputError("this action needs a character", expected="a character id", where=where)
    if action.actor is not None and action.actor not in state.characters:
        known = ", ".join(sorted(state.characters)) or "none yet"
        raise UnknownNameError(f"unknown character {action.actor!r}", expected=f"one of: {known}", where=where)
    params = validate_params(spec.params, action.params, where)
    play = Play(ruleset, state, dice, explain=explain)
    spec.handler(play, Action(name=action.name, actor=action.actor, params=params))
    return _finish(play)


def resolve_check(
    ruleset: Ruleset[C],
    state: GameState[C],
    pending_id: int,
    dice: DiceSource,
    typed: Sequence[int] | None = None,
) -> Outcome[C]:
    """Resolve a pending check with dice typed in at the table (``typed``) or rolled by ``dice``.

    Typed values are checked against the dice the check needs; any rolls its consequences
    need beyond them come from ``dice``.
    """
    pending = state.find_pending(pending_id)
    if pending is None:
        waiting = ", ".join(f"#{p.id}" for p in state.pending) or "none"
        raise UnknownNameError(f"no pending check #{pending_id}", expected=f"one of: {waiting}")
    source = dice if typed is None else typed_dice_source(pending, typed, dice)
    play = Play(ruleset, state, source)
    result = pending.check.resolve(source)
    play.resolve_pending(pending, result, CORE_RULE)
    return _finish(play)


def typed_dice_source(pending: PendingCheck, typed: Sequence[int], fallback: DiceSource) -> FallbackSource:
    """Dice typed at the table for a pending check: at least the check's own dice, then any more
    feed its consequences, and rolls beyond those come from ``fallback``."""
    sides = pending.check.dice_sides
    if len(typed) < len(sides):
        shape = ",".join(f"d{s}" for s in sides)
        raise InputError(
            f"check #{pending.id} needs {len(sides)} dice, got {len(typed)}",
            expected=f"{len(sides)} values for {shape}",
        )
    return FallbackSource(ScriptedSource(typed, label=f"dice for check #{pending.id}"), fallback)


def advance(
    ruleset: Ruleset[C], state: GameState[C], seconds: int, dice: DiceSource, *, explain: bool = True
) -> Outcome[C]:
    """Let ``seconds`` of game time pass, firing every timer that falls due, in time order."""
    if seconds < 0:
        raise InputError(f"cannot turn the clock back ({seconds}s)", expected="a positive duration")
    play = Play(ruleset, state, dice, explain=explain)
    target = state.clock + seconds
    start = state.clock
    while True:
        due = [t for t in play.state.timers if t.due <= target]
        if not due:
            break
        timer = min(due, key=lambda t: (t.due, t.id))
        play.state = replace(
            play.state,
            clock=max(play.state.clock, timer.due),
            timers=tuple(t for t in play.state.timers if t.id != timer.id),
        )
        play.explain(
            f"after {format_duration(timer.due - start)}: {timer.label}",
            CORE_RULE,
            actor=timer.actor,
        )
        play.event("timer-fired", timer.actor, kind=timer.kind, label=timer.label, at=timer.due)
        if timer.kind == "core.condition-ends" and timer.actor is not None:
            condition = play.state.condition(timer.actor, str(timer.data.get("name")))
            if condition is not None:
                play.remove_condition(timer.actor, condition.name, CORE_RULE)
                ruleset.on_condition_end(play, condition)
        else:
            ruleset.on_timer(play, timer)
    play.state = replace(play.state, clock=target)
    if play.state.pending:
        # Time does not wait for dice: say so, so a table notices checks it has not rolled yet.
        waiting = ", ".join(f"#{p.id}" for p in play.state.pending)
        play.explain(f"still waiting for dice: pending check(s) {waiting}", CORE_RULE)
    play.result["clock"] = target
    play.result["advanced"] = seconds
    return _finish(play)


def next_round(
    ruleset: Ruleset[C], state: GameState[C], dice: DiceSource, *, explain: bool = True
) -> Outcome[C]:
    """One round (GURPS: one second; Gods & Monsters: ten seconds; the others: a setting)."""
    seconds = int(state.settings.option("round_seconds", ruleset.round_seconds))
    return advance(ruleset, state, seconds, dice, explain=explain)
