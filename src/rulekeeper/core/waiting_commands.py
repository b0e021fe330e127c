"""A command given after the clock has run past a waiting check (issue #25, roll_rules 6).

Nothing dated after a pending check's moment is applied until it is settled (see "Pending checks
and the clock" in docs/architecture.md). A command is dated at the clock when it is given, so when
the clock has already run past a check left for the table, the command is after it: it is
acknowledged and kept, as a timer of kind :data:`COMMAND_TIMER` due when it was given, and the
engine applies it in time order once the check is settled (resolved, or rolled when its kind is
switched to ``auto``), its consequences reported then. Keeping it in the state's timers means it
lives in the history and the snapshots like everything else that waits for the clock: a restart
keeps it, undo removes it. A rule's refusal is judged in its turn, not when it is given (the roll
it waited for may be what makes a foe fall): refused then, it changes nothing and the log says why.

A view (an action of kind ``view``) only reads, and is answered at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from rulekeeper.core.action import Action, ActionSpec, Call, validate_params
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import format_duration
from rulekeeper.core.state import GameState, PendingCheck, Timer
from rulekeeper.errors import InputError, UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.core.play import Play

__all__ = [
    "COMMAND_TIMER",
    "WAITS_FOR",
    "apply_waiting_command",
    "command_words",
    "overdue_check",
    "refuse_waiting_command",
    "waiting_commands",
]

C = TypeVar("C")

#: The timer kind of a command that waits behind a check (the engine plays it, never a ruleset).
COMMAND_TIMER = "core.command"
#: The timer data key naming the check the command was given behind.
WAITS_FOR = "waits_for"
WAITING_RULE = Rule(system="core", section="Game clock and pending checks")


def overdue_check(state: GameState[Any]) -> PendingCheck | None:
    """The earliest check left for the table that the clock has run past, when a command given now
    must wait for it (roll_rules 6), else None. A check dated at the clock itself is not passed: a
    command at the same moment comes after it in the table's order and is applied at once."""
    if not state.settings.commands_wait_for_checks:
        return None
    late = [p for p in state.pending if p.blocks_time and p.after is None and p.created < state.clock]
    return min(late, key=lambda p: (p.created, p.id)) if late else None


def check_words(pending: PendingCheck) -> str:
    """A waiting check as the table names it: "ana's consciousness roll (#7)"."""
    what = pending.stakes.purpose if pending.stakes is not None else pending.check.describe()
    who = f"{pending.actor}: " if pending.actor and not what.startswith(pending.actor) else ""
    return f"{who}{what} (#{pending.id})"


def command_words(action: Action, *, params: bool = False) -> str:
    """A command in a few words: "bob attack", with ``params`` "bob attack target=ana" (for the
    GM's timer list only: a parameter can carry the GM's secret, so lines anyone may read leave
    them out, as the players' log does)."""
    given = " ".join(f"{k}={v}" for k, v in action.params.items() if v is not None) if params else ""
    return " ".join(part for part in (action.actor, action.name, given) if part)


def wait_behind(play: Play[C], action: Action, holder: PendingCheck) -> Timer:
    """Keep ``action`` waiting behind ``holder``, dated at the clock; it is applied in time order
    once ``holder`` is settled (the engine fires it like any timer due by then)."""
    words = command_words(action)
    # Whoever gave it may read which roll it waits for only when that roll is its own character's
    # (or nobody's) and no secret; otherwise the line naming it is the GM's, and they read only
    # that their command waits its turn.
    secret = play.ruleset.is_secret(holder, play.state.settings)
    private = secret or (holder.actor is not None and holder.actor != action.actor)
    timer = play.schedule(
        0,
        COMMAND_TIMER,
        f"{command_words(action, params=True)} (waits for {'an earlier roll' if secret else check_words(holder)})",
        actor=action.actor,
        data={"action": action.to_json(), WAITS_FOR: holder.id},
    )
    play.explain(
        f"{words}: given at {format_duration(play.state.clock)}, after {check_words(holder)}, due at "
        f"{format_duration(holder.created)}; it waits for that roll and is applied, in time order, "
        f"once it is resolved (or its kind is switched to auto)",
        WAITING_RULE,
        actor=action.actor,
        pending=holder.id,
        check=holder.check.kind,  # a GM-secret check's name stays with the GM, as the check does
        **_gm_only(private),
    )
    if private:
        # Whoever gave it learns it waits, never for which roll (the line above is the GM's).
        play.explain(
            f"{words}: recorded; it is applied in its turn, after what came before it", WAITING_RULE, actor=action.actor
        )
    play.event("command-waits", action.actor, timer=timer.id, waits_for=holder.id, name=action.name)
    play.result["waits_for"] = holder.id
    play.result["waiting_command"] = timer.id
    return timer


def _gm_only(private: bool) -> dict[str, Any]:
    return {"gm_only": True} if private else {}


def apply_waiting_command(play: Play[C], specs: Mapping[str, ActionSpec], timer: Timer) -> None:
    """Play a command that waited behind a check, at the moment it was given. A command that can no
    longer be played raises, and the engine undoes what it began and records it as refused in its
    turn (:func:`refuse_waiting_command`)."""
    raw = timer.data.get("action")
    if not isinstance(raw, Mapping) or not isinstance(raw.get("name"), str):
        raise InputError(f"waiting command #{timer.id} has no action", expected="an action name and parameters")
    actor = raw.get("actor")
    action = Action(str(raw["name"]), actor if isinstance(actor, str) else None, dict(raw.get("params") or {}))
    spec = specs.get(action.name)
    if spec is None:
        raise UnknownNameError(f"unknown action {action.name!r}", expected="one of " + ", ".join(sorted(specs)))
    if action.actor is not None and action.actor not in play.state.characters:
        raise UnknownNameError(f"{action.actor!r} is no longer in play", expected="a character in the campaign")
    params = validate_params(spec.params, action.params, f"action {action.name}")
    play.explain(
        f"{command_words(action)}: applied now that check #{timer.data.get(WAITS_FOR)} is settled",
        WAITING_RULE,
        actor=action.actor,
    )
    play.event("command-applied", action.actor, timer=timer.id, name=action.name)
    spec.handler(play, Call(action.name, action.actor, params))


def refuse_waiting_command(play: Play[C], timer: Timer, why: str) -> None:
    """Say that a waiting command was refused in its turn (the engine has undone what it began)."""
    raw = timer.data.get("action")
    name = str(raw.get("name")) if isinstance(raw, Mapping) else "command"
    label = " ".join(part for part in (timer.actor, name) if part)
    play.explain(f"{label}: refused in its turn: {why}", WAITING_RULE, actor=timer.actor)
    play.event("command-refused", timer.actor, timer=timer.id, name=name, why=why)


def waiting_commands(state: GameState[Any]) -> tuple[Timer, ...]:
    """The commands waiting behind a check, in the order they will be applied."""
    return tuple(sorted((t for t in state.timers if t.kind == COMMAND_TIMER), key=lambda t: (t.due, t.id)))
