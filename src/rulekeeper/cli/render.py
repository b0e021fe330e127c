"""Turning outcomes, pending checks and character views into terminal text or JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.dice_commands import percent
from rulekeeper.cli.output import console
from rulekeeper.core.stakes import describe_pending

if TYPE_CHECKING:
    from rulekeeper.core import PendingCheck, Step

__all__ = ["odds_text", "pending_json", "print_pending", "print_steps", "print_view", "step_json"]


def step_json(step: Step) -> dict[str, Any]:
    return {
        "text": step.text,
        "actor": step.actor,
        "roll": step.roll,
        "dice": list(step.dice),
        "rule": str(step.rule),
        "data": {k: v for k, v in step.data.items() if isinstance(v, (str, int, float, bool, type(None)))},
    }


def odds_text(pending: PendingCheck) -> str:
    check = pending.check
    if check.type == "dice-roll":
        rows = check.distribution()
        return f"no target: totals {rows[0][0]} to {rows[-1][0]}"
    text = f"{percent(check.probability())} to succeed"
    crit = check.critical_probability()
    if crit:
        text += f", {percent(crit)} critical success"
    return text


def stakes_lines(stakes: Mapping[str, Any]) -> list[str]:
    """A pending check's stakes as short lines: purpose, what each result does, die names, the outcome's odds."""
    lines = [f"for: {stakes['for']}"]
    if stakes["on_success"]:
        # a plain roll (damage, a table) has no success: its "success" is simply what follows
        head = "on success" if stakes["odds"] is not None else "then"
        lines.append(f"{head}: {stakes['on_success']}")
    if stakes["on_failure"]:
        lines.append(f"on failure: {stakes['on_failure']}")
    named = [f"{d['name']} ({d['die']})" for d in stakes["dice"] if not d["name"].startswith("die ")]
    if named:
        lines.append("dice, in order: " + ", ".join(named))
    rows = stakes["distribution"]
    if rows:
        shown = ", ".join(f"{r['value']}: {r['text']}" for r in rows[:12])
        more = f", ... ({len(rows) - 12} more)" if len(rows) > 12 else ""
        lines.append(f"{stakes['outcome']}: {shown}{more}")
    return lines


def pending_json(pending: PendingCheck) -> dict[str, Any]:
    check = pending.check
    crit = check.critical_probability()
    return {
        "id": pending.id,
        "actor": pending.actor,
        "kind": check.kind,
        "purpose": pending.purpose,
        "check": check.describe(),
        "dice": [f"d{s}" for s in check.dice_sides],
        "probability": float(check.probability()),
        "probability_exact": str(check.probability()),
        "critical_probability": None if crit is None else float(crit),
        "created": pending.created,
        "stakes": describe_pending(pending),
    }


def print_steps(steps: Iterable[Step]) -> None:
    from rich.text import Text

    out = console()
    for step in steps:
        line = Text("  • ")
        if step.actor:
            line.append(f"{step.actor}: ", style="bold")
        line.append(step.text)
        if step.roll:
            line.append(f"  [{step.roll}]", style="cyan")
        line.append(f"  ({step.rule})", style="dim")
        out.print(line)


def print_pending(pending: Sequence[PendingCheck], *, heading: str = "Waiting for dice:") -> None:
    if not pending:
        return
    from rich.text import Text

    out = console()
    out.print(Text(heading, style="bold yellow"))
    for p in pending:
        sides = ",".join(f"d{s}" for s in p.check.dice_sides)
        line = Text(f"  #{p.id} ", style="bold yellow")
        if p.actor:
            line.append(f"{p.actor}: ", style="bold")
        line.append(f"{p.check.describe()} — {odds_text(p)}")
        line.append(f"  (resolve {p.id} --dice {sides} | --auto)", style="dim")
        out.print(line)
        for text in stakes_lines(describe_pending(p)):
            out.print(Text(f"      {text}"))


def _flat(prefix: str, value: Any) -> Iterable[tuple[str, str]]:
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _flat(f"{prefix}.{k}" if prefix else str(k), v)
    elif isinstance(value, (list, tuple)):
        yield prefix, ", ".join(str(v) for v in value) if value else "—"
    else:
        yield prefix, str(value)


def print_view(actor: str, view: Mapping[str, Any]) -> None:
    from rich.table import Table

    table = Table(title=actor, show_header=False, title_style="bold", box=None, pad_edge=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in _flat("", view):
        table.add_row(key, value)
    console().print(table)
