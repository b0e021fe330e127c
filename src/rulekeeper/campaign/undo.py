"""Undo and redo: which commands a reversal takes with it, and the state it leaves.

Undoing command N also undoes every later command that depended on it (all of them still in
effect). A later command L depends on the undone set when:

1. the undone set holds a time advance, a new round or a settings change older than L (time
   and settings touch everything after them); or
2. L concerns a character an undone command concerned (the acting character, any character
   named in its parameters, any character its outcome explained, hit or scheduled); or
3. L resolves a pending check an undone command raised; or
4. replaying L without the undone set would not give exactly its recorded outcome -- the same
   dice, explanation, result, clock and state ids (the safety net that catches whatever the
   first three rules miss).

So the commands left in effect always replay exactly as they were recorded. Redo re-applies
the commands of the most recent undo with their recorded dice; like an editor's redo it is
available only until a new command is issued.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.campaign.commands import GLOBAL_KINDS, summarize
from rulekeeper.campaign.reading import REVERTS, hidden_from_players, reversal_wording
from rulekeeper.campaign.replay import ReplayMismatch, Statuses, fold
from rulekeeper.campaign.results import steps_from_json
from rulekeeper.campaign.snapshots import SnapshotProblem, unseal
from rulekeeper.campaign.table import Table, initial_table
from rulekeeper.core.citation import Rule
from rulekeeper.core.explain import Step
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError
from rulekeeper.store.base import HistoryReader
from rulekeeper.store.records import CampaignRecord, EventRecord

__all__ = ["UNDO_RULE", "Reversal", "check_reversal", "plan_redo", "plan_undo", "redo_stack_top"]

UNDO_RULE = Rule(system="campaign", section="Undo and redo")


@dataclass(frozen=True)
class Reversal:
    """An undo or redo ready to record: the commands it turns off (or on), why, and the table after."""

    kind: str
    refs: tuple[int, ...]
    reasons: dict[int, str]
    table: Table
    steps: tuple[Step, ...]
    actors: tuple[str, ...]


def _window(
    ruleset: Ruleset[Any], record: CampaignRecord, history: HistoryReader, statuses: Statuses, start: int
) -> tuple[Table, list[EventRecord]]:
    """The table just before ``start`` and every event from ``start`` on."""
    snap = history.latest_snapshot(at_most=start - 1)
    table, first = initial_table(ruleset, record.settings), 0
    if snap is not None:
        # An untrusted snapshot is skipped: the window is folded from the start instead.
        with contextlib.suppress(SnapshotProblem):
            table, first = unseal(ruleset, snap, history), snap.version
    events = history.events(after=first)
    before = [e for e in events if e.seq < start]
    table = fold(ruleset, table, before, statuses.active)
    return table, [e for e in events if e.seq >= start]


def _pending_created(event: EventRecord) -> set[int]:
    import json

    return {int(p["id"]) for p in json.loads(event.outcome).get("pending", [])}


def _extend(later: Sequence[EventRecord], targets: set[int], reasons: dict[int, str]) -> None:
    """Add to ``targets`` every command of ``later`` that depends on them (rules 1-3)."""
    touched: set[str] = set()
    raised: dict[int, int] = {}
    clock_from: EventRecord | None = None
    for e in later:
        if e.seq not in targets:
            why = None
            shared = touched.intersection(e.actors)
            resolves = e.command.get("pending") if e.kind == "resolve" else None
            if clock_from is not None:
                kind = "a change of settings" if clock_from.kind == "set_settings" else "a time advance"
                why = f"comes after #{clock_from.seq}, {kind}"
            elif shared:
                why = "also concerns " + ", ".join(sorted(shared))
            elif isinstance(resolves, int) and resolves in raised:
                why = f"resolves check #{resolves}, raised by #{raised[resolves]}"
            if why is None:
                continue
            targets.add(e.seq)
            reasons[e.seq] = why
        touched.update(e.actors)
        for pid in _pending_created(e):
            raised[pid] = e.seq
        if e.kind in GLOBAL_KINDS and clock_from is None:
            clock_from = e


def _refold(ruleset: Ruleset[Any], base: Table, later: Sequence[EventRecord], active: Callable[[int], bool]) -> Table:
    return fold(ruleset, base, later, active, verify=True)


def _describe(
    ruleset: Ruleset[Any], kind: str, refs: Sequence[int], reasons: dict[int, str], events: dict[int, EventRecord]
) -> list[Step]:
    """One line per command reverted; a player reads it in their own words (``reversal_wording``),
    and not at all when the command itself was hidden from players (a GM-secret roll)."""
    verb = "undone" if kind == "undo" else "redone"
    steps = []
    for ref in refs:
        e = events[ref]
        why = reasons.get(ref)
        text = f"#{ref} {summarize(e.command, e.refs)}: {verb}" + (f" ({why})" if why else "")
        explained = steps_from_json(json.loads(e.outcome).get("explanation", []))
        data: dict[str, Any] = {REVERTS: ref}
        if hidden_from_players(ruleset, e.kind, explained):
            data["gm_only"] = True
        else:
            data["player"] = reversal_wording(verb, e.kind, e.command)
        steps.append(Step(text, UNDO_RULE, actor=e.actors[0] if len(e.actors) == 1 else None, data=data))
    return steps


def _reversal(
    ruleset: Ruleset[Any],
    kind: str, refs: Sequence[int], reasons: dict[int, str], table: Table, later: Sequence[EventRecord]
) -> Reversal:
    by_seq = {e.seq: e for e in later}
    actors = sorted({a for r in refs for a in by_seq[r].actors})
    steps = _describe(ruleset, kind, refs, reasons, by_seq)
    return Reversal(kind, tuple(refs), reasons, table, tuple(steps), tuple(actors))


def _chosen_command(history: HistoryReader, statuses: Statuses, seq: int) -> EventRecord:
    event = history.event(seq)
    head = history.head()
    if event is None:
        raise UnknownNameError(f"no command #{seq}", expected=f"a command number from 1 to {head}")
    if event.is_meta:
        raise InputError(f"#{seq} is an {event.kind}, not a command", expected="the number of a command to undo")
    if not statuses.active(seq):
        raise InputError(f"#{seq} is already undone (by #{statuses.undone_by[seq]})", expected="a command in effect")
    return event


def plan_undo(ruleset: Ruleset[Any], record: CampaignRecord, history: HistoryReader, chosen: int | None) -> Reversal:
    """Undo ``chosen`` (default: the newest command in effect) and everything that depended on it."""
    statuses = Statuses.of(history.meta_events())
    if chosen is None:
        newest = [s for s in history.command_seqs_desc(len(statuses.undone) + 1) if statuses.active(s)]
        if not newest:
            raise RuleRefusal("nothing to undo: no command is in effect")
        chosen = newest[0]
    else:
        _chosen_command(history, statuses, chosen)
    base, later = _window(ruleset, record, history, statuses, chosen)
    in_effect = [e for e in later if not e.is_meta and statuses.active(e.seq)]
    targets = {chosen}
    reasons: dict[int, str] = {}
    while True:
        _extend(in_effect, targets, reasons)
        try:
            table = _refold(ruleset, base, later, lambda s: statuses.active(s) and s not in targets)
        except ReplayMismatch as exc:
            # Rule 4: it no longer replays as recorded without the undone commands.
            targets.add(exc.seq)
            reasons[exc.seq] = f"would not replay the same without the rest: {exc.reason}"
            continue
        return _reversal(ruleset, "undo", sorted(targets), reasons, table, later)


def redo_stack_top(history: HistoryReader) -> EventRecord | None:
    """The undo a redo would reverse: undos since the newest command, less those already redone."""
    newest = history.command_seqs_desc(1)
    stack: list[EventRecord] = []
    for e in history.events(after=newest[0] if newest else 0):
        if e.kind == "undo":
            stack.append(e)
        elif e.kind == "redo" and stack:
            stack.pop()
    return stack[-1] if stack else None


def plan_redo(ruleset: Ruleset[Any], record: CampaignRecord, history: HistoryReader) -> Reversal:
    """Re-apply the commands of the most recent undo (not yet redone) with their recorded dice."""
    top = redo_stack_top(history)
    if top is None:
        raise RuleRefusal("nothing to redo: no undo since the last command")
    refs = top.refs
    statuses = Statuses.of(history.meta_events())
    base, later = _window(ruleset, record, history, statuses, min(refs))
    try:
        table = _refold(ruleset, base, later, lambda s: statuses.active(s) or s in refs)
    except ReplayMismatch as exc:
        raise RuleRefusal(f"cannot redo: #{exc.seq} {exc.reason}") from None
    return _reversal(ruleset, "redo", refs, {}, table, later)


def check_reversal(
    ruleset: Ruleset[Any], record: CampaignRecord, history: HistoryReader, kind: str, refs: Sequence[int]
) -> Reversal:
    """A recorded undo or redo (from an imported file) checked against the history before it."""
    if not refs:
        raise InputError(f"an {kind} that reverses nothing")
    statuses = Statuses.of(history.meta_events())
    if kind == "undo":
        for ref in refs:
            _chosen_command(history, statuses, ref)
        active = lambda s: statuses.active(s) and s not in refs  # noqa: E731
    else:
        top = redo_stack_top(history)
        if top is None or tuple(top.refs) != tuple(refs):
            raise InputError(f"a redo of {list(refs)} that does not follow a matching undo")
        active = lambda s: statuses.active(s) or s in refs  # noqa: E731
    base, later = _window(ruleset, record, history, statuses, min(refs))
    try:
        table = _refold(ruleset, base, later, active)
    except ReplayMismatch as exc:
        raise InputError(f"after this {kind}, #{exc.seq} would not replay as recorded: {exc.reason}") from None
    return _reversal(ruleset, kind, tuple(refs), {}, table, later)
