"""Commands that change a campaign or read its history: actions, resolve, time, log, undo, redo."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import console, emit_json
from rulekeeper.cli.render import pending_json, print_pending, print_steps, step_json

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, CommandResult
    from rulekeeper.cli.context import Context

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
        "new_pending": [pending_json(p) for p in outcome.pending] if outcome is not None else [],
        "pending": [pending_json(p) for p in campaign.pending()],
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


def show_result(campaign: Campaign, result: CommandResult, title: str, *, as_json: bool) -> None:
    if as_json:
        emit_json(result_json(campaign, result))
        return
    from rich.text import Text

    from rulekeeper.core import format_duration

    out = console()
    head = Text(f"#{result.seq} ", style="bold magenta")
    head.append(title, style="bold")
    clock = result.outcome.state.clock if result.outcome is not None else campaign.state.clock
    head.append(f"  (game time {format_duration(clock)})", style="dim")
    out.print(head)
    player = _player_facing_actor(campaign, result)
    if player is not None:
        for line in campaign.ruleset.player_lines(result.explanation):
            out.print(Text(f"  • {line}"))
        if result.outcome is not None:
            for key, value in result.outcome.result.items():
                out.print(Text(f"  {key}: {value}"))
        _print_player_pending(campaign.player_pending(player))
        return
    print_steps(result.explanation)
    if not result.explanation and result.outcome is not None and result.outcome.result:
        # An action that only reports (a view, a calculation) has its answer in the result.
        for key, value in result.outcome.result.items():
            out.print(Text(f"  {key}: {value}"))
    if result.undone:
        out.print(Text(f"  undone: {', '.join(f'#{s}' for s in result.undone)}", style="yellow"))
    if result.redone:
        out.print(Text(f"  redone: {', '.join(f'#{s}' for s in result.redone)}", style="green"))
    if result.outcome is not None and result.outcome.pending:
        print_pending(result.outcome.pending, heading="New pending checks:")


def run_action(
    context: Context,
    name: str,
    actor: str | None,
    params: Mapping[str, Any],
    *,
    dice: Sequence[int] | None,
    base_version: int | None,
    key: str | None,
    as_json: bool,
) -> None:
    from rulekeeper.core import Action

    campaign = context.open()
    result = campaign.act(
        Action(name=name, actor=actor, params=dict(params)), dice=dice, expected_version=base_version, key=key
    )
    args = " ".join(f"{k}={v}" for k, v in params.items())
    show_result(campaign, result, f"{name} {actor or ''} {args}".strip(), as_json=as_json)


def _print_player_pending(pending: Sequence[Mapping[str, Any]]) -> None:
    from rich.text import Text

    out = console()
    for p in pending:
        line = Text(f"  #{p['id']} ", style="bold yellow")
        if p.get("actor"):
            line.append(f"{p['actor']}: ", style="bold")
        line.append(str(p.get("label") or p.get("check")))
        threshold = p.get("threshold")
        line.append(f" — roll {','.join(p['dice'])}" + (f" against {threshold}" if threshold is not None else ""))
        if p.get("probability") is not None:
            line.append(f", {100 * float(p['probability']):.2f}% to succeed")
        out.print(line)


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
        emit_json({"campaign": campaign.name, "pending": [pending_json(p) for p in pending]})
        return
    if not pending:
        console().print("No pending checks.")
        return
    print_pending(pending, heading=f"Pending checks in {campaign.name}:")


def resolve_command(
    context: Context, pending_id: int, *, dice: Sequence[int] | None, auto: bool, as_json: bool
) -> None:
    from rulekeeper.errors import InputError

    if (dice is None) == (not auto):
        raise InputError("resolve needs either --dice or --auto", expected="--dice 4,6,2 or --auto")
    campaign = context.open()
    result = campaign.resolve(pending_id, None if auto else dice)
    show_result(campaign, result, f"resolve check #{pending_id}", as_json=as_json)


def advance_command(context: Context, duration: str, *, as_json: bool) -> None:
    from rulekeeper.core import parse_duration

    campaign = context.open()
    seconds = parse_duration(duration, round_seconds=campaign.ruleset.round_seconds)
    result = campaign.advance(seconds)
    show_result(campaign, result, f"advance {duration}", as_json=as_json)


def round_command(context: Context, *, count: int, as_json: bool) -> None:
    from rulekeeper.errors import InputError
    from rulekeeper.limits import MAX_ROUNDS

    if not 1 <= count <= MAX_ROUNDS:
        shown = count if abs(count) < 10**30 else "so many"
        raise InputError(f"cannot play {shown} rounds", expected=f"a count from 1 to {MAX_ROUNDS:,} (docs/limits.md)")
    campaign = context.open()
    # One command, one transaction: every round applies, or (refused, interrupted) none does.
    result = campaign.next_round(count)
    show_result(campaign, result, "next round" if count == 1 else f"{count} rounds", as_json=as_json)


def undo_command(context: Context, seq: int | None, *, as_json: bool) -> None:
    campaign = context.open()
    result = campaign.undo(seq)
    show_result(campaign, result, "undo" + (f" #{seq}" if seq else ""), as_json=as_json)


def redo_command(context: Context, *, as_json: bool) -> None:
    campaign = context.open()
    result = campaign.redo()
    show_result(campaign, result, "redo", as_json=as_json)


def log_command(
    context: Context,
    *,
    actor: str | None,
    since: str | None,
    until: str | None,
    explain: bool,
    as_json: bool,
    as_player: str | None = None,
) -> None:
    from rulekeeper.core import format_duration, parse_duration

    campaign = context.open()
    rounds = campaign.ruleset.round_seconds
    since_s = None if since is None else parse_duration(since, round_seconds=rounds)
    until_s = None if until is None else parse_duration(until, round_seconds=rounds)
    if as_player is not None:
        _player_log(campaign, as_player, since_s, until_s, as_json=as_json)
        return
    entries = campaign.log(actor=actor, since=since_s, until=until_s)
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
    from rich.text import Text

    out = console()
    if not entries:
        out.print("No history matches.")
        return
    for entry in entries:
        line = Text(f"#{entry.seq:<4}", style="bold magenta")
        line.append(f" {format_duration(entry.at):>8} ", style="dim")
        style = "strike dim" if entry.undone_by is not None else ""
        line.append(entry.summary, style=style)
        if entry.undone_by is not None:
            line.append(f"  (undone by #{entry.undone_by})", style="yellow")
        out.print(line)
        if explain:
            print_steps(entry.explanation)


def _player_log(campaign: Campaign, as_player: str, since: int | None, until: int | None, *, as_json: bool) -> None:
    from rich.text import Text

    from rulekeeper.core import format_duration

    entries = campaign.player_log(as_player, since=since, until=until)
    if as_json:
        emit_json({"campaign": campaign.name, "as_player": as_player, "entries": entries})
        return
    out = console()
    if not entries:
        out.print("No history matches.")
        return
    for entry in entries:
        style = "strike dim" if entry["undone"] else ""
        for i, text in enumerate(entry["lines"]):
            head = Text(f"#{entry['seq']:<4} {format_duration(entry['at']):>8} " if i == 0 else " " * 14, style="dim")
            head.append(text, style=style)
            out.print(head)
