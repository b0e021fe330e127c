"""The three ways state moves: apply an action, resolve a pending check, let time pass.

Each is a pure function ``(ruleset, state, ..., dice) -> Outcome``; nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar, cast

from rulekeeper.core.action import Action, Call, validate_params
from rulekeeper.core.check import CheckResult
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import format_duration
from rulekeeper.core.explain import LATE_TIMERS, Step
from rulekeeper.core.frozen import evolve
from rulekeeper.core.play import Outcome, Play, announce_check
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import AutomationLevel, GameState, PendingCheck, Settings, Timer
from rulekeeper.core.waiting_commands import (
    COMMAND_TIMER,
    apply_waiting_command,
    check_words,
    overdue_check,
    refuse_waiting_command,
    wait_behind,
)
from rulekeeper.core.who_rolls import level_for as who_level_for
from rulekeeper.dice.source import DiceSource, FallbackSource, ScriptedSource
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError
from rulekeeper.limits import MAX_ADVANCE_FIRINGS, MAX_ROUNDS

__all__ = [
    "CORE_RULE",
    "NO_DICE",
    "SET_ASIDE",
    "CountingSource",
    "add_character",
    "advance",
    "apply_action",
    "judge_typed_total",
    "next_round",
    "resolve_check",
    "resolve_typed_in_order",
    "roll_what_waits",
    "set_aside",
    "sync_derived",
    "typed_total",
    "typed_values",
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
    return sync_derived(ruleset, evolve(state, characters=chars), NO_DICE).state


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
    ruleset: Ruleset[C],
    state: GameState[C],
    action: Action,
    dice: DiceSource,
    *,
    explain: bool = True,
    table_dice: bool = False,
) -> Outcome[C]:
    """Apply one action; ``explain=False`` (simulation) runs the same rules without building the
    explanation; ``table_dice``: ``dice`` were typed at the table (see ``Play.table_dice``)."""
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
    holder = None if spec.kind == "view" else overdue_check(state)  # a view only reads: answered now
    if holder is not None:
        # Judged in its turn, not now: the roll it waits for may change the answer (the blow aimed
        # at a foe who turns out to be down is refused then, with the reason).
        if table_dice:
            raise InputError(
                f"this command comes after {check_words(holder)}, which the clock has run past: it will "
                "wait for that roll, so it cannot take dice typed now",
                expected=f"resolve #{holder.id} first, or give the command without dice",
                where=where,
            )
        waiting = Play(ruleset, state, dice, explain=explain)
        wait_behind(waiting, action, holder)
        return _finish(waiting)
    play = Play(ruleset, state, dice, explain=explain, table_dice=table_dice)
    spec.handler(play, Call(action.name, action.actor, params))
    _fire_due(ruleset, play, state.clock, state.clock, timers=False)  # rolls held behind a withdrawn check
    return _finish(play)


def resolve_check(
    ruleset: Ruleset[C],
    state: GameState[C],
    pending_id: int,
    dice: DiceSource,
    typed: Sequence[int] | None = None,
    *,
    total: int | None = None,
    table_dice: bool = False,
) -> Outcome[C]:
    """Resolve a pending check with dice typed in at the table (``typed``) or rolled by ``dice``.

    Typed values are checked against the dice the check needs; any rolls its consequences
    need beyond them come from ``dice``. ``total`` is a total typed at the table for a check
    decided by its total alone (see :func:`typed_total`): it is judged as it is, no dice read.
    """
    pending = state.find_pending(pending_id)
    if pending is None:
        waiting = ", ".join(f"#{p.id}" for p in state.pending) or "none"
        raise UnknownNameError(f"no pending check #{pending_id}", expected=f"one of: {waiting}")
    if typed is not None and total is None:
        total = typed_total(state, pending, typed)
    announce_check(dice, pending)
    if total is not None:
        source, result = dice, judge_typed_total(pending, total)  # its consequences roll from ``dice``
    else:
        source = (
            dice
            if typed is None
            else typed_dice_source(
                pending,
                typed,
                dice,
                state.settings,
                surplus_feeds_consequences=ruleset.typed_dice_feed_consequences,
            )
        )
        result = pending.check.resolve(source)
    play = Play(ruleset, state, source, table_dice=table_dice or typed is not None)
    if not state.settings.every_roll_a_check:
        play.resolve_pending(pending, result, CORE_RULE)  # a campaign from before
        return _finish(play)
    _settle(play, pending, result)
    # Then, in time order: what the roll led to if it was due earlier (the next roll of a series, a
    # condition's end), exactly as if rolled on time, and the engine's own rolls held behind it.
    _fire_due(ruleset, play, state.clock, min(pending.created, state.clock))
    return _finish(play)


def roll_what_waits(ruleset: Ruleset[C], state: GameState[C], dice: DiceSource) -> Outcome[C]:
    """The engine rolls every pending check whose kind the table has just switched to ``auto``,
    as if it had rolled each at its own moment: earliest first, a roll's consequences before the
    checks asked beside it, and what waited behind each applied in time order (``resolve_check``).
    A check of a kind still left for the table keeps waiting."""
    steps: list[Step] = []
    events: list[Any] = []
    checks: list[CheckResult] = []
    result: dict[str, Any] = {}
    first = state.next_id
    queue = _auto_waiting(state)
    while queue:
        pending = state.find_pending(queue.pop(0).id)
        if pending is None:
            continue  # withdrawn by an earlier roll's consequences
        mark = state.next_id
        out = resolve_check(ruleset, state, pending.id, dice)
        state = out.state
        steps.extend(out.explanation)
        events.extend(out.events)
        checks.extend(out.checks)
        result.update(out.result)
        fresh = [p for p in _auto_waiting(state) if p.id >= mark]
        queue = sorted([*fresh, *(p for p in queue if state.find_pending(p.id) is not None)], key=lambda p: p.created)
    asked = tuple(p for p in state.pending if p.id >= first)  # left for the table by what was rolled
    return Outcome(state, tuple(events), asked, tuple(steps), result, tuple(checks))


def _auto_waiting(state: GameState[Any]) -> list[PendingCheck]:
    settings = state.settings
    auto = [
        p
        for p in state.pending
        if p.after is None and who_level_for(settings, p.check.kind, p.actor) is AutomationLevel.AUTO
    ]
    return sorted(auto, key=lambda p: (p.created, p.id))


def _settle(play: Play[C], pending: PendingCheck, result: CheckResult) -> None:
    """Apply a roll's result; a roll due earlier than the clock has its consequences when it was due."""
    play.as_of = pending.created if pending.created < play.state.clock else None
    play.holding = None
    timeline, play.in_timeline = play.in_timeline, play.in_timeline or pending.blocks_time
    mark = play.state.next_id
    play.resolve_pending(pending, result, CORE_RULE)
    play.as_of = None
    play.in_timeline = timeline
    # Rolls held behind this one wait on for what it led to that the table must roll first.
    asked = [p.id for p in play.state.pending if p.id >= mark and p.after is None]
    if asked:
        last = max(asked)
        play.state = evolve(
            play.state,
            pending=tuple(evolve(p, after=last) if p.after == pending.id else p for p in play.state.pending),
        )


class CountingSource:
    """Counts the dice another source hands out, so typed dice can be followed through a command."""

    __slots__ = ("count", "inner")

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.count = 0

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.count += 1
        return value

    def before_check(self, pending: PendingCheck) -> None:
        announce_check(self.inner, pending)


def resolve_typed_in_order(
    ruleset: Ruleset[C], outcome: Outcome[C], first_id: int, dice: CountingSource, typed: int
) -> Outcome[C]:
    """Dice typed up front for one command at a table that prompts for its rolls.

    The command left checks pending (attack, then defence if it hit, then damage if that failed,
    then what the damage causes); each takes the next typed values in the order the engine would
    roll them under ``auto`` (a roll's own consequences before the checks asked beside it), exactly
    as if typed as it appeared, until the typed values are used up. Checks still waiting
    when they run out stay pending; a check that needs more values than are left is refused,
    naming it, so nothing is half applied.
    """
    steps, events, checks = list(outcome.explanation), list(outcome.events), list(outcome.checks)
    result = dict(outcome.result)
    state = outcome.state
    # Depth first, as the engine rolls under auto: what a roll leads to comes before its siblings.
    queue = [p.id for p in state.pending if p.id >= first_id and p.after is None]
    settled: set[int] = set()
    while dice.count < typed and queue:
        pending = state.find_pending(queue.pop(0))
        if pending is None:
            continue  # withdrawn by an earlier roll's consequences (the character fell unconscious)
        if state.settings.secret_rolls_apart and ruleset.is_secret(pending, state.settings):
            continue  # the GM's to roll, never the typed dice's (Settings.secret_rolls_apart)
        left = typed - dice.count
        sides = pending.check.dice_sides
        if left < len(sides):
            shape = ",".join(f"d{s}" for s in sides)
            what = pending.stakes.purpose if pending.stakes is not None else pending.check.describe()
            raise InputError(
                f"the typed dice ran out at check #{pending.id} ({what}): it needs {len(sides)} ({shape}), {left} left",
                expected=f"{typed - left + len(sides)} dice values, or {typed - left} to leave it pending",
            )
        mark = state.next_id
        settled.add(pending.id)
        nxt = resolve_check(ruleset, state, pending.id, dice, table_dice=True)
        state = nxt.state
        queue = [p.id for p in state.pending if p.id >= mark and p.after is None] + queue
        steps.extend(nxt.explanation)
        events.extend(nxt.events)
        checks.extend(nxt.checks)
        result.update(nxt.result)
    still = {p.id for p in state.pending}
    if state.settings.typed_totals_judged:
        # A check its typed dice settle in this same command was never waiting for the table: no
        # "waiting for dice" line before its result (roll_rules 3; older histories replay as stored).
        steps = [s for s in steps if not _waited_for(s, settled)]
    created = [p for p in (*outcome.pending, *(p for p in state.pending if p.id >= first_id)) if p.id in still]
    unresolved = tuple({p.id: p for p in created}.values())
    return Outcome(state, tuple(events), unresolved, tuple(steps), result, tuple(checks))


def _total_judge(pending: PendingCheck) -> Callable[[int], CheckResult] | None:
    """The check's own judgement of a total typed alone, if only its total decides it."""
    judge = getattr(pending.check, "judge_total", None)
    return cast("Callable[[int], CheckResult]", judge) if callable(judge) else None


def typed_total(state: GameState[Any], pending: PendingCheck, typed: Sequence[int]) -> int | None:
    """The total typed alone for a check of several dice that takes its total (``judge_total``:
    a GURPS success roll, a plain roll such as damage), by the rules for rolls that judge it as
    that total; None when the values are dice."""
    if not state.settings.typed_totals_judged or len(typed) != 1 or len(pending.check.dice_sides) < 2:
        return None
    return typed[0] if _total_judge(pending) is not None else None


def judge_typed_total(pending: PendingCheck, total: int) -> CheckResult:
    judge = _total_judge(pending)
    if judge is None:
        raise InputError(f"check #{pending.id} needs its dice, not a total", expected=_dice_form(pending))
    try:
        return judge(total)
    except InputError as exc:
        raise InputError(f"check #{pending.id}: {exc.message}", expected=exc.expected) from None


def _dice_form(pending: PendingCheck) -> str:
    sides = pending.check.dice_sides
    shape = ",".join(f"d{s}" for s in sides)
    alternative = ""
    if len(sides) > 1 and _total_judge(pending) is not None:
        alternative = f", or their total alone ({pending.check.describe()})"
    return f"{len(sides)} values for {shape}{alternative}"


def _waited_for(step: Step, settled: set[int]) -> bool:
    return step.data.get("pending") in settled and step.text.startswith("waiting for dice: ")


def typed_values(pending: PendingCheck, typed: Sequence[int], settings: Settings) -> tuple[int, ...]:
    """The typed values a pending check will read as dice. By the rules for rolls before typed
    totals were judged (roll_rules 2), a GURPS success roll's lone total became even dice; a
    history stored then replays that way."""
    sides = pending.check.dice_sides
    values = tuple(typed)
    legacy_total = not settings.typed_totals_judged and len(values) == 1 and len(sides) > 1
    if legacy_total and pending.check.type == "gurps-success":
        return _dice_for_total(pending.id, values[0], sides)
    return values


def typed_dice_source(
    pending: PendingCheck,
    typed: Sequence[int],
    fallback: DiceSource,
    settings: Settings,
    *,
    surplus_feeds_consequences: bool = True,
) -> FallbackSource:
    """Dice typed at the table for a pending check: at least the check's own dice, then any more
    feed its consequences (where the ruleset says so, ``Ruleset.typed_dice_feed_consequences``),
    and rolls beyond those come from ``fallback``.

    A total typed alone for a check that takes one is not dice: see :func:`typed_total`.
    """
    sides = pending.check.dice_sides
    typed = typed_values(pending, typed, settings)
    if len(typed) < len(sides):
        raise InputError(f"check #{pending.id} needs {len(sides)} dice, got {len(typed)}", expected=_dice_form(pending))
    if len(typed) > len(sides) and not surplus_feeds_consequences:
        # A surplus die would silently become the next roll (a consequence nobody chose to roll).
        raise InputError(
            f"check #{pending.id} takes exactly {len(sides)} dice, got {len(typed)}; nothing was applied",
            expected=_dice_form(pending),
        )
    return FallbackSource(ScriptedSource(typed, label=f"dice for check #{pending.id}"), fallback)


def _dice_for_total(pending_id: int, total: int, sides: Sequence[int]) -> tuple[int, ...]:
    """Dice showing ``total`` (as even as possible): how roll_rules 2 took a GURPS total alone."""
    low, high = len(sides), sum(sides)
    if not low <= total <= high:
        raise InputError(
            f"check #{pending_id}: {total} cannot be rolled on {len(sides)}d{sides[0]}",
            expected=f"{len(sides)} dice, or a total from {low} to {high}",
        )
    values = []
    left = total
    for i, s in enumerate(sides):
        rest = len(sides) - i - 1
        even = -(-left // (rest + 1))
        value = min(s, max(even, 1, left - sum(sides[i + 1 :])))
        values.append(value)
        left -= value
    return tuple(values)


def advance(
    ruleset: Ruleset[C],
    state: GameState[C],
    seconds: int,
    dice: DiceSource,
    *,
    explain: bool = True,
    table_dice: bool = False,
) -> Outcome[C]:
    """Let ``seconds`` of game time pass, firing every timer that falls due, in time order."""
    if seconds < 0:
        raise InputError(f"cannot turn the clock back ({seconds}s)", expected="a positive duration")
    play = Play(ruleset, state, dice, explain=explain, table_dice=table_dice)
    target = state.clock + seconds
    _fire_due(ruleset, play, target, state.clock)
    play.state = evolve(play.state, clock=target)
    if play.state.pending:
        waiting_ids = ", ".join(f"#{p.id}" for p in play.state.pending)
        play.explain(f"still waiting for dice: pending check(s) {waiting_ids}", CORE_RULE)
    waiting = [p for p in play.state.pending if p.created < target and p.after is None]
    # Time does not wait for dice, and it does not skip them either: a roll asked as time passed
    # keeps its due time, and the timers after it (the next roll of an hourly series, a condition's
    # end) fire in order once it is resolved, one pending check at a time, not one check taking N
    # values, because whether the next roll is due at all depends on this one.
    for p in waiting:
        what = p.stakes.purpose if p.stakes is not None else p.check.describe()
        follows = "; the timers after it wait for it" if p.blocks_time else ""
        play.explain(
            f"waiting for dice: #{p.id} ({what}), due {format_duration(target - p.created)} ago{follows}",
            CORE_RULE,
            actor=p.actor,
            pending=p.id,
            check=p.check.kind,  # so a GM-secret check's reminder stays with the GM, as the check does
        )
    late = [t for t in play.state.timers if t.due <= target]
    if late:
        # The GM's line (``Ruleset.is_secret_step`` keeps it from players, in every history): it
        # names any character's timers, and that time waits even behind a GM-secret check.
        play.explain(
            f"{len(late)} {LATE_TIMERS}: " + ", ".join(t.label for t in late[:3]) + (", ..." if len(late) > 3 else ""),
            CORE_RULE,
        )
    play.result["clock"] = target
    play.result["advanced"] = seconds
    return _finish(play)


def _fire_due(ruleset: Ruleset[C], play: Play[C], target: int, start: int, *, timers: bool = True) -> None:
    """Fire every timer due by ``target`` and roll every held check whose wait is over, earliest
    first (a held roll before a timer of the same moment, then by id), moving the clock to each."""
    fired = 0
    while True:
        held = [p for p in play.state.pending if p.after is not None and play.state.find_pending(p.after) is None]
        # Timers wait behind a roll asked as time passed, the same moment included.
        blocker = min((p.created for p in play.state.pending if p.blocks_time), default=None)
        due = (
            [
                t
                for t in play.state.timers
                if t.due <= target and (blocker is None or t.due < blocker) and SET_ASIDE not in t.data
            ]
            if timers
            else []
        )
        if not held and not due:
            break
        fired += 1
        if fired > MAX_ADVANCE_FIRINGS:
            # Refused whole (nothing is applied): a recurring timer over a long span is unbounded work.
            raise InputError(
                f"{format_duration(target - start)} would fire more than {MAX_ADVANCE_FIRINGS:,} timers",
                expected="a shorter span of time, advanced in several steps (docs/limits.md)",
            )
        first_held = min(held, key=lambda p: (p.created, p.id)) if held else None
        # A command given at a moment comes after every consequence due then (as it was given after
        # the clock reached it).
        timer = min(due, key=lambda t: (t.due, t.kind == COMMAND_TIMER, t.id)) if due else None
        play.in_timeline = timers
        if first_held is not None and (timer is None or first_held.created <= timer.due):
            waited = f"check #{first_held.after} is settled"
            play.explain(f"{waited}: the engine rolls held check #{first_held.id}", CORE_RULE)
            announce_check(play.dice, first_held)
            _settle(play, first_held, first_held.check.resolve(play.dice))
            continue
        assert timer is not None
        play.state = evolve(
            play.state,
            clock=max(play.state.clock, timer.due),
            timers=tuple(t for t in play.state.timers if t.id != timer.id),
        )
        if timer.kind != COMMAND_TIMER:  # a waiting command is the table's, and says so itself
            play.explain(
                f"after {format_duration(timer.due - start)}: {timer.label}",
                CORE_RULE,
                actor=timer.actor,
            )
            play.event("timer-fired", timer.actor, kind=timer.kind, label=timer.label, at=timer.due)
        # Catching up after a late roll, the clock is already past the timer: it fires at its due time.
        play.as_of = timer.due if timer.due < play.state.clock else None
        if timer.kind == "core.condition-ends" and timer.actor is not None:
            condition = play.state.condition(timer.actor, str(timer.data.get("name")))
            if condition is not None:
                play.remove_condition(timer.actor, condition.name, CORE_RULE)
                ruleset.on_condition_end(play, condition)
        else:
            _fire_or_set_aside(ruleset, play, timer)
    play.as_of = None
    play.in_timeline = False


#: A timer's data key marking it set aside: its consequence failed when it fell due.
SET_ASIDE = "set_aside"


def set_aside(state: GameState[Any]) -> tuple[Timer, ...]:
    """The consequences set aside for the GM (their reason under ``data[SET_ASIDE]``)."""
    return tuple(t for t in state.timers if SET_ASIDE in t.data)


def _fire_or_set_aside(ruleset: Ruleset[C], play: Play[C], timer: Timer) -> None:
    """Fire ``timer``; if its consequence fails (bad data from whoever scheduled it, a sheet
    changed since), undo what it began and keep it aside with the reason, so one broken
    consequence never stops the clock for the whole table. The GM fixes or drops it."""
    state, result, holding = play.state, dict(play.result), play.holding
    marks = (len(play.steps), len(play.events), len(play.new_pending), len(play.checks))
    try:
        if timer.kind == COMMAND_TIMER:
            apply_waiting_command(play, ruleset.actions(), timer)
        else:
            ruleset.on_timer(play, timer)
    except (InputError, UnknownNameError, RuleRefusal) as exc:
        play.state, play.result, play.holding = state, result, holding
        del play.steps[marks[0] :], play.events[marks[1] :], play.new_pending[marks[2] :], play.checks[marks[3] :]
        if timer.kind == COMMAND_TIMER:
            # Refused in its turn, as it would have been had the roll come first: it changes nothing,
            # and the history says why (it is the table's command, not a consequence to fix).
            refuse_waiting_command(play, timer, str(exc))
            return
        aside = replace(timer, data={**timer.data, SET_ASIDE: str(exc)})
        play.state = evolve(play.state, timers=(*play.state.timers, aside))
        play.explain(
            f"{timer.label}: could not be played and is set aside for the GM ({exc}); "
            f"fix it and retry, or drop it (timer #{timer.id})",
            CORE_RULE,
            actor=timer.actor,
            gm_only=True,
        )


def next_round(
    ruleset: Ruleset[C],
    state: GameState[C],
    dice: DiceSource,
    rounds: int = 1,
    *,
    explain: bool = True,
    table_dice: bool = False,
) -> Outcome[C]:
    """``rounds`` rounds (GURPS: one second each; Gods & Monsters: ten seconds; the others: a setting)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InputError(f"cannot play {rounds!r} rounds", expected=f"1 to {MAX_ROUNDS:,} rounds (docs/limits.md)")
    seconds = int(state.settings.option("round_seconds", ruleset.round_seconds))
    return advance(ruleset, state, seconds * rounds, dice, explain=explain, table_dice=table_dice)
