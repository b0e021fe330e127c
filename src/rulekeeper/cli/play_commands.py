"""Commands that change a campaign or read its history: actions, resolve, time, log, undo, redo."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from rulekeeper.cli.output import console, emit_json, line, terminal_height
from rulekeeper.cli.render import (
    STEP_MARKS,
    print_pending,
    print_steps,
    stakes_lines,
    step_json,
    step_lines,
    width,
    wrap,
)
from rulekeeper.core.stakes import pending_entry

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, CommandResult, LogEntry
    from rulekeeper.cli.context import Context
    from rulekeeper.core.play import Outcome

__all__ = [
    "advance_command",
    "log_command",
    "pending_command",
    "redo_command",
    "resolve_command",
    "round_command",
    "run_action",
    "show_result",
    "undo_command",
]


def result_json(campaign: Campaign, result: CommandResult) -> dict[str, Any]:
    outcome = result.outcome
    player = _player_facing_actor(campaign, result)
    if player is not None:
        # Output meant for a player: only that character's checks, redacted, and the player's lines.
        return {
            "campaign": campaign.name,
            "seq": result.seq,
            "version": result.version,
            "as_player": player,
            "explanation": campaign.ruleset.player_lines(result.explanation),
            "result": dict(outcome.result) if outcome is not None else {},
            "pending": campaign.player_pending(player),
            "clock": campaign.state.clock,
        }
    return {
        "campaign": campaign.name,
        "seq": result.seq,
        "version": result.version,
        "command": result.command,
        "explanation": [step_json(s) for s in result.explanation],
        "result": dict(outcome.result) if outcome is not None else {},
        "new_pending": [pending_entry(p) for p in outcome.pending] if outcome is not None else [],
        "pending": [pending_entry(p) for p in campaign.pending()],
        "undone": list(result.undone),
        "redone": list(result.redone),
        "clock": outcome.state.clock if outcome is not None else campaign.state.clock,
    }


def _player_facing_actor(campaign: Campaign, result: CommandResult) -> str | None:
    action = result.command.get("action") if result.command.get("kind") == "act" else None
    if not isinstance(action, Mapping):
        return None
    spec = campaign.ruleset.actions().get(str(action.get("name")))
    actor = action.get("actor")
    return str(actor) if spec is not None and spec.player_facing and actor else None


def show_result(campaign: Campaign, result: CommandResult, title: str, *, as_json: bool, explain: bool = False) -> None:
    if as_json:
        emit_json(result_json(campaign, result))
        return
    from rulekeeper.core import format_duration

    clock = result.outcome.state.clock if result.outcome is not None else campaign.state.clock
    marks = ((r"^#\d+", "bold magenta"), (r"\(game time [^)]*\)$", "dim"))
    for text in wrap(f"#{result.seq} {title} (game time {format_duration(clock)})", indent="", hanging="    "):
        line(text, style="bold", highlights=marks)
    player = _player_facing_actor(campaign, result)
    if player is not None:
        # Meant for a player: their own lines, never the GM's explanation.
        for said in campaign.ruleset.player_lines(result.explanation):
            for text in wrap(f"• {said}"):
                line(text)
        if result.outcome is not None:
            for key, value in result.outcome.result.items():
                for text in wrap(f"{key}: {_plain(value)}"):
                    line(text)
        _print_player_pending(campaign.player_pending(player))
        return
    print_steps(result.explanation, explain=explain)
    if not result.explanation and result.outcome is not None and result.outcome.result:
        # An action that only reports (a view, a calculation) has its answer in the result.
        for key, value in result.outcome.result.items():
            if key == "clock":
                continue  # the heading already says the game time
            shown = format_duration(value) if key in _DURATIONS and isinstance(value, int) else _plain(value)
            for text in wrap(f"{key.replace('_', ' ')}: {shown}"):
                line(text)
    if result.undone:
        line(f"  undone: {', '.join(f'#{s}' for s in result.undone)}", style="yellow")
    if result.redone:
        line(f"  redone: {', '.join(f'#{s}' for s in result.redone)}", style="green")
    if result.outcome is not None and result.outcome.pending:
        print_pending(result.outcome.pending, heading="New pending checks:")


# Result fields that hold seconds of game time; people read them as "1h 30m".
_DURATIONS = frozenset({"advanced", "seconds", "duration", "elapsed", "due", "at", "until"})


def _plain(value: Any) -> str:
    """A result value as a person reads it: lists joined, mappings as key=value."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_plain(v)}" for k, v in value.items()) or "—"
    if isinstance(value, (list, tuple)):
        return ", ".join(_plain(v) for v in value) or "—"
    return str(value)


def run_action(
    context: Context,
    name: str,
    actor: str | None,
    params: Mapping[str, Any],
    *,
    dice: Sequence[int] | str | None,
    base_version: int | None,
    key: str | None,
    as_json: bool,
) -> None:
    from rulekeeper.cli.names import resolve_actor
    from rulekeeper.core import Action

    campaign = context.open()
    if actor is not None:
        actor = resolve_actor(campaign, actor)
    spec = campaign.ruleset.actions().get(name)
    if spec is not None:
        params = dict(params)
        for p in spec.params:
            value = params.get(p.name)
            if p.kind == "character" and isinstance(value, str):
                params[p.name] = resolve_actor(campaign, value)
    action = Action(name=name, actor=actor, params=dict(params))
    if dice is None and base_version is None and key is None:
        outcome = campaign.peek(action)
        if outcome is not None:
            player = actor if spec is not None and spec.player_facing else None
            title = f"{name} {actor or ''}".strip()
            _show_reading(campaign, outcome, title, player=player, as_json=as_json, explain=context.explain)
            return
    result = campaign.act(action, dice=dice, expected_version=base_version, key=key)
    args = " ".join(f"{k}={v}" for k, v in params.items())
    show_result(campaign, result, f"{name} {actor or ''} {args}".strip(), as_json=as_json, explain=context.explain)


def _show_reading(
    campaign: Campaign, outcome: Outcome[Any], title: str, *, player: str | None, as_json: bool, explain: bool
) -> None:
    """A read-only action's answer: shown like any result, but with no command number.

    A player-facing one (``player`` set) shows the player's lines, never the GM's explanation.
    """
    from rulekeeper.cli.render import print_view

    said = campaign.ruleset.player_lines(outcome.explanation) if player is not None else None
    if as_json:
        data: dict[str, Any] = {"campaign": campaign.name, "recorded": False, "version": campaign.version}
        if player is not None:
            data |= {"as_player": player, "explanation": said, "pending": campaign.player_pending(player)}
        else:
            data["explanation"] = [step_json(s) for s in outcome.explanation]
        emit_json(data | {"result": dict(outcome.result)})
        return
    line(f"{title} (reads only: not recorded)", style="bold")
    if said is not None:
        for text in said:
            for part in wrap(f"• {text}"):
                line(part)
    else:
        print_steps(outcome.explanation, explain=explain)
    for key, value in outcome.result.items():
        if isinstance(value, Mapping):
            print_view(key.replace("_", " "), value)  # a view reads best as a sheet
        elif key != "fields":
            for part in wrap(f"{key.replace('_', ' ')}: {_plain(value)}"):
                line(part)
    if player is not None:
        _print_player_pending(campaign.player_pending(player))


def _print_player_pending(pending: Sequence[Mapping[str, Any]]) -> None:
    columns = width()
    for p in pending:
        who = f"{p['actor']}: " if p.get("actor") else ""
        threshold = p.get("threshold")
        text = f"#{p['id']} {who}{p.get('label') or p.get('check')} — roll {','.join(p['dice'])}"
        text += f" against {threshold}" if threshold is not None else ""
        if p.get("probability") is not None:
            text += f", {100 * float(p['probability']):.2f}% to succeed"
        for part in wrap(text, indent="  ", hanging="      ", columns=columns):
            line(part, highlights=((r"^  #\d+", "bold yellow"),))
        for said in stakes_lines(p["stakes"]) if p.get("stakes") else []:
            for part in wrap(said, indent="      ", hanging="        ", columns=columns):
                line(part)


def pending_command(context: Context, *, as_player: str | None = None, as_json: bool) -> None:
    campaign = context.open()
    if as_player is not None:
        mine = campaign.player_pending(as_player)
        if as_json:
            emit_json({"campaign": campaign.name, "as_player": as_player, "pending": mine})
            return
        if not mine:
            console().print(f"No checks waiting for {as_player}'s dice.")
            return
        console().print(f"Waiting for {as_player}'s dice:")
        _print_player_pending(mine)
        return
    pending = campaign.pending()
    if as_json:
        emit_json({"campaign": campaign.name, "pending": [pending_entry(p) for p in pending]})
        return
    if not pending:
        line("No pending checks.")
        return
    print_pending(pending, heading=f"Pending checks in {campaign.name}:")


def resolve_command(
    context: Context, pending_id: int, *, dice: Sequence[int] | str | None, auto: bool, as_json: bool
) -> None:
    from rulekeeper.errors import InputError

    if (dice is None) == (not auto):
        raise InputError("resolve needs either --dice or --auto", expected="--dice 4,6,2 or --auto")
    campaign = context.open()
    result = campaign.resolve(pending_id, None if auto else dice)
    show_result(campaign, result, f"resolve check #{pending_id}", as_json=as_json, explain=context.explain)


def advance_command(context: Context, duration: str, *, as_json: bool) -> None:
    from rulekeeper.core import parse_duration

    campaign = context.open()
    seconds = parse_duration(duration, round_seconds=campaign.ruleset.round_seconds)
    result = campaign.advance(seconds)
    show_result(campaign, result, f"advance {duration}", as_json=as_json, explain=context.explain)


def round_command(context: Context, *, count: int, as_json: bool) -> None:
    from rulekeeper.errors import InputError
    from rulekeeper.limits import MAX_ROUNDS

    if not 1 <= count <= MAX_ROUNDS:
        shown = count if abs(count) < 10**30 else "so many"
        raise InputError(f"cannot play {shown} rounds", expected=f"a count from 1 to {MAX_ROUNDS:,} (docs/limits.md)")
    campaign = context.open()
    # One command, one transaction: every round applies, or (refused, interrupted) none does.
    result = campaign.next_round(count)
    label = "next round" if count == 1 else f"{count} rounds"
    show_result(campaign, result, label, as_json=as_json, explain=context.explain)


def undo_command(context: Context, seq: int | None, *, yes: bool, as_json: bool) -> None:
    campaign = context.open()
    # The version the question was asked at: anything written meanwhile makes the undo a conflict.
    asked_at = _confirm_undo(campaign, seq) if seq is not None and not yes else None
    result = campaign.undo(seq, expected_version=asked_at)
    show_result(campaign, result, "undo" + (f" #{seq}" if seq else ""), as_json=as_json, explain=context.explain)


def _confirm_undo(campaign: Campaign, seq: int) -> int | None:
    """Undoing a command that others depend on takes them too: say which, and ask first."""
    import sys

    from rulekeeper.errors import InputError, RuleRefusal

    preview = campaign.preview_undo(seq)
    steps = preview.explanation
    if len(steps) <= 1:
        return None
    line(f"Undoing #{seq} also undoes {len(steps) - 1} later command(s) that depend on it:")
    for step in steps:
        for text in wrap(step.text, indent="  ", hanging="      "):
            line(text)
    if not sys.stdin.isatty():
        raise InputError(f"undoing #{seq} takes {len(steps)} commands and needs confirmation", expected="--yes")
    try:
        answer = input(f"Undo these {len(steps)} commands? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise RuleRefusal(f"undo of #{seq} cancelled; nothing changed")
    return preview.version


def redo_command(context: Context, *, as_json: bool) -> None:
    campaign = context.open()
    result = campaign.redo()
    show_result(campaign, result, "redo", as_json=as_json, explain=context.explain)


# A line of output and the parts of it to highlight.
_Line = tuple[str, Sequence[tuple[str, str]]]
_Entry = TypeVar("_Entry")


def log_command(
    context: Context,
    *,
    actor: str | None,
    since: str | None,
    until: str | None,
    brief: bool,
    explain: bool,
    as_json: bool,
    as_player: str | None = None,
    show_all: bool = False,
) -> None:
    """The history: for a person the latest screenful (``show_all``: all of it), for ``--json`` all of it."""
    from rulekeeper.core import format_duration, parse_duration

    campaign = context.open()
    rounds = campaign.ruleset.round_seconds
    since_s = None if since is None else parse_duration(since, round_seconds=rounds)
    until_s = None if until is None else parse_duration(until, round_seconds=rounds)
    room = None if show_all or as_json else _screen_room()
    if as_player is not None:
        _player_log(campaign, as_player, since_s, until_s, as_json=as_json, room=room)
        return
    if room is None:
        entries, earlier = campaign.log(actor=actor, since=since_s, until=until_s), 0
    else:
        # Each entry takes a line at least, so no more than a screenful of them can be shown.
        entries, earlier = campaign.log_tail(room, actor=actor, since=since_s, until=until_s)
    if as_json:
        emit_json(
            {
                "campaign": campaign.name,
                "entries": [
                    {
                        "seq": e.seq,
                        "kind": e.kind,
                        "summary": e.summary,
                        "at": e.at,
                        "until": e.until,
                        "wall_time": e.wall_time.isoformat(),
                        "actors": list(e.actors),
                        "command": dict(e.command),
                        "result": dict(e.result),
                        "explanation": [step_json(s) for s in e.explanation],
                        "dice": [list(d) for d in e.dice],
                        "undone_by": e.undone_by,
                        "redone_by": e.redone_by,
                        "undoes": list(e.undoes),
                        "redoes": list(e.redoes),
                    }
                    for e in entries
                ],
            }
        )
        return
    if not entries:
        line("No history matches.")
        return
    columns = width()

    def lines_of(entry: LogEntry) -> list[_Line]:
        text = f"#{entry.seq:<4} {format_duration(entry.at):>8}  {entry.summary}"
        marks = [(r"^#\d+", "bold magenta")]
        if entry.undone_by is not None:
            text += f" (undone by #{entry.undone_by})"
            marks.append((r"(?<=^.{16}).*", "strike dim"))
        out: list[_Line] = [(part, marks) for part in wrap(text, indent="", hanging=" " * 16, columns=columns)]
        if not brief:
            for step in entry.explanation:
                out += [(part, STEP_MARKS) for part in step_lines(step, explain=explain, columns=columns)]
        return out

    _print_latest(entries, lines_of, room, earlier)


def _screen_room() -> int:
    """Lines a log may fill: the screen's, less its footer and the prompt that follows."""
    return max(5, terminal_height() - 2)


def _print_latest(
    entries: Sequence[_Entry], lines_of: Callable[[_Entry], list[_Line]], room: int | None, earlier: int
) -> None:
    """The entries, in order, as lines: the latest that fit ``room`` lines (always one; all if
    ``room`` is None), then a footer saying how many earlier ones were left out."""
    shown: list[list[_Line]] = []
    used = 0
    for i in range(len(entries) - 1, -1, -1):
        block = lines_of(entries[i])
        if room is not None and shown and used + len(block) > room:
            earlier += i + 1
            break
        shown.append(block)
        used += len(block)
    for block in reversed(shown):
        for text, marks in block:
            line(text, highlights=marks)
    if earlier:
        word = "entry" if earlier == 1 else "entries"
        line(f"({earlier:,} earlier {word} not shown; --all shows every one)", style="dim")


def _player_log(
    campaign: Campaign, as_player: str, since: int | None, until: int | None, *, as_json: bool, room: int | None
) -> None:
    from rulekeeper.core import format_duration

    entries = campaign.player_log(as_player, since=since, until=until)
    if as_json:
        emit_json({"campaign": campaign.name, "as_player": as_player, "entries": entries})
        return
    if not entries:
        line("No history matches.")
        return

    def lines_of(entry: Mapping[str, Any]) -> list[_Line]:
        marks = [(r"(?<=^.{16}).*", "strike dim")] if entry["undone"] else []
        out: list[_Line] = []
        for i, said in enumerate(entry["lines"]):
            head = f"#{entry['seq']:<4} {format_duration(entry['at']):>8}  " if i == 0 else " " * 16
            out += [(part, marks) for part in wrap(head + said, indent="", hanging=" " * 16)]
        return out

    _print_latest(entries, lines_of, room, 0)
