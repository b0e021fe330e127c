"""The GM's answers at the terminal: players' requests (``requests``, ``approve N [--set k=v]``,
``decline N``) and consequences set aside when they failed (``set-aside``, ``retry N [--set k=v]``,
``drop N``). The decisions are the campaign layer's; these only read and print."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import emit_json, line

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["approve_command", "decline_command", "requests_command", "set_aside_command", "settle_command"]


def _request_line(request: Mapping[str, Any]) -> str:
    action = request.get("action") or {}
    params = request.get("params") or action.get("params") or {}
    shown = " ".join(f"{k}={v}" for k, v in params.items())
    who = f"{action.get('actor')}: " if action.get("actor") else ""
    note = f" ({request['note']})" if request.get("note") else ""
    return (
        f"#{request['id']} {request['status']:<8} {request['by']} asks {who}{action.get('name')} {shown}".rstrip()
        + note
    )


def requests_command(context: Context, *, waiting: bool, as_json: bool) -> None:
    campaign = context.open()
    requests = [r for r in campaign.requests() if not waiting or r["status"] == "waiting"]
    if as_json:
        emit_json({"campaign": campaign.name, "requests": requests})
        return
    if not requests:
        line("No requests from players." if not waiting else "No requests waiting.")
        return
    for request in requests:
        line(_request_line(request))


def _changes(pairs: Sequence[str] | None) -> dict[str, Any]:
    from rulekeeper.cli.campaign_commands import parse_assignments

    return parse_assignments(pairs or ())


def approve_command(context: Context, number: int, *, set_: Sequence[str] | None, as_json: bool) -> None:
    from rulekeeper.cli.play_commands import show_result

    campaign = context.open()
    result = campaign.approve(number, _changes(set_))
    show_result(campaign, result, f"approve request #{number}", as_json=as_json, explain=context.explain)


def decline_command(context: Context, number: int, *, note: str | None, as_json: bool) -> None:
    from rulekeeper.cli.play_commands import show_result

    campaign = context.open()
    result = campaign.decline(number, note)
    show_result(campaign, result, f"decline request #{number}", as_json=as_json, explain=context.explain)


def set_aside_command(context: Context, *, as_json: bool) -> None:
    from rulekeeper.core.clock import format_duration
    from rulekeeper.core.engine import SET_ASIDE

    campaign = context.open()
    aside = campaign.set_aside()
    if as_json:
        items = [
            {"id": t.id, "label": t.label, "actor": t.actor, "due": t.due, "reason": t.data[SET_ASIDE]} for t in aside
        ]
        emit_json({"campaign": campaign.name, "set_aside": items})
        return
    if not aside:
        line("Nothing is set aside.")
        return
    for t in aside:
        line(f"#{t.id} {t.label} (due at {format_duration(t.due)}): {t.data[SET_ASIDE]}")
    line("retry N [--set KEY=VALUE] plays one at the next advance; drop N forgets it.")


def settle_command(context: Context, timer: int, do: str, *, set_: Sequence[str] | None, as_json: bool) -> None:
    from rulekeeper.cli.play_commands import show_result

    campaign = context.open()
    result = campaign.settle_aside(timer, do, _changes(set_))
    show_result(campaign, result, f"{do} #{timer}", as_json=as_json, explain=context.explain)
