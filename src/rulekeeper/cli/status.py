"""``rulekeeper status``: the table on one screen (80×24 holds six characters in every system).

Each character's line is what its ruleset says a GM glances at (``Ruleset.vitals``), read from
the GM's view, so this module knows no system's numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import emit_json, line

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign
    from rulekeeper.cli.context import Context
    from rulekeeper.core.state import Condition, GameState

__all__ = ["status_command", "status_lines", "vitals"]

View = Mapping[str, Any]


def vitals(system: str, view: View, *, npc: bool = False) -> str:
    """The few numbers a GM glances at for one character, as the system's ruleset words them."""
    from rulekeeper.core import get_ruleset

    try:
        return get_ruleset(system).vitals(view, npc=npc).line
    except (KeyError, TypeError):
        # An older view without these fields: the sheet still has the rest.
        return ""


def _condition(c: Condition, state: GameState[Any]) -> str:
    from rulekeeper.core import format_duration
    from rulekeeper.core.waiting import holding

    if c.until is None:
        return c.name
    held = holding(state, c.until)
    if held is not None:
        return f"{c.name} (ends once #{held.id} is rolled)"
    return f"{c.name} ({format_duration(max(0, c.until - state.clock))} left)"


def _due(state: GameState[Any], label: str, at: int) -> str:
    from rulekeeper.core import format_duration
    from rulekeeper.core.waiting import holding

    held = holding(state, at)
    if held is not None:
        return f"{label} once #{held.id} is rolled"
    return f"{label} in {format_duration(max(0, at - state.clock))}"


def _fit(text: str, columns: int) -> str:
    return text if len(text) <= columns else text[: columns - 1] + "…"


def _turn_order(campaign: Campaign, views: Mapping[str, View]) -> tuple[list[str], str | None]:
    """The fight's order and who acts next, as the rules keep them (``Ruleset.turn_order``)."""
    return campaign.ruleset.turn_order(campaign.state, views)


def status_lines(campaign: Campaign, *, columns: int = 80) -> list[str]:
    """The status board as plain lines no wider than ``columns``."""
    from rulekeeper.core import format_duration
    from rulekeeper.core.citation import SYSTEM_TITLES
    from rulekeeper.core.stakes import describe_pending
    from rulekeeper.core.waiting import what_waits
    from rulekeeper.core.who_rolls import summary as who_rolls_summary

    state = campaign.state
    hidden = campaign.ruleset.bookkeeping_conditions
    title = SYSTEM_TITLES.get(campaign.system, (campaign.ruleset.title,))[0]
    pending = campaign.pending()
    lines = [
        _fit(
            f"{campaign.name} · {title} · game time {format_duration(state.clock)} · "
            f"{len(pending)} pending · #{campaign.version}",
            columns,
        )
    ]
    who = who_rolls_summary(state.settings)
    if who is not None:
        lines.append(_fit(who, columns))
    actors = list(state.characters)
    views = {a: campaign.view(a) for a in actors}
    order, current = _turn_order(campaign, views)
    npcs = campaign.table.npcs
    width = max((len(a) for a in actors), default=4) + 2
    width = min(width, 16)
    for actor in actors:
        mark = ">" if actor == current else " "
        npc = "*" if actor in npcs else " "
        line = f"{mark}{npc}{actor[: width - 1]:<{width}}{vitals(campaign.system, views[actor], npc=actor in npcs)}"
        lines.append(_fit(line, columns))
        conditions = [_condition(c, state) for c in state.conditions_of(actor) if c.name not in hidden]
        if conditions:
            lines.append(_fit(" " * (width + 2) + ", ".join(conditions), columns))
    if not actors:
        lines.append("  no characters yet: rulekeeper char add NAME --set FIELD=VALUE")
    if order:
        lines.append(_fit("turn order: " + " → ".join(f"[{a}]" if a == current else a for a in order), columns))
    if pending:
        lines.append("pending checks:")
        for p in pending[:4]:
            described = p.check.describe()
            who = f"{p.actor}: " if p.actor and not described.startswith(p.actor) else ""
            # The odds in words lead, so a narrow terminal cuts the check's wording, not what the
            # result means for the character ("ana starts dying 12.00%").
            chance = describe_pending(p)["label"]
            lines.append(_fit(f"  #{p.id} {chance} — {who}{described}", columns))
        if len(pending) > 4:
            lines.append(f"  … {len(pending) - 4} more (rulekeeper pending)")
    waits = what_waits(state)
    if waits:
        # The earliest holds time for all the rest: it is said in full, the others counted.
        more = f" (+{len(waits) - 1} more)" if len(waits) > 1 else ""
        lines.append(_fit(waits[0].text() + more, columns))
    # The same timer on several characters (shock on a whole squad) is one entry with a count.
    due: dict[tuple[str, int], int] = {}
    for t in sorted(state.timers, key=lambda t: t.due):
        key = (t.label, t.due)
        due[key] = due.get(key, 0) + 1
    if due:
        shown = [
            _due(state, label, at) + (f" (×{n})" if n > 1 else "")
            for (label, at), n in list(due.items())[:3]
        ]
        more = f" (+{len(due) - 3} more)" if len(due) > 3 else ""
        lines.append(_fit("next: " + "; ".join(shown) + more, columns))
    return lines


def status_json(campaign: Campaign) -> dict[str, Any]:
    from rulekeeper.core.stakes import pending_entry
    from rulekeeper.core.waiting import what_waits
    from rulekeeper.core.who_rolls import summary as who_rolls_summary

    state = campaign.state
    hidden = campaign.ruleset.bookkeeping_conditions
    views = {a: campaign.view(a) for a in state.characters}
    order, current = _turn_order(campaign, views)
    return {
        "campaign": campaign.name,
        "system": campaign.system,
        "version": campaign.version,
        "clock": state.clock,
        "characters": [
            {
                "id": a,
                "npc": a in campaign.table.npcs,
                "vitals": vitals(campaign.system, views[a], npc=a in campaign.table.npcs),
                "conditions": [
                    {"name": c.name, "until": c.until} for c in state.conditions_of(a) if c.name not in hidden
                ],
            }
            for a in state.characters
        ],
        "turn_order": order,
        "current": current,
        "pending": [pending_entry(p) for p in campaign.pending()],
        "waiting": [w.to_json() for w in what_waits(state)],
        "who_rolls": who_rolls_summary(state.settings),
        "timers": [
            {"label": t.label, "due": t.due, "actor": t.actor} for t in sorted(state.timers, key=lambda t: t.due)
        ],
    }


def status_command(context: Context, *, as_json: bool) -> None:
    from rulekeeper.cli.render import width

    campaign = context.open()
    if as_json:
        emit_json(status_json(campaign))
        return
    marks = ((r"^>.*", "bold green"), (r"^pending checks:|^  #\d+", "yellow"))
    for i, text in enumerate(status_lines(campaign, columns=width())):
        line(text, style="bold" if i == 0 else "", highlights=marks)
