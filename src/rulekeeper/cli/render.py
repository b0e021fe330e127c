"""Turning outcomes, pending checks and character views into terminal text or JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.dice_commands import percent
from rulekeeper.cli.output import console

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
    text = f"{percent(check.probability())} to succeed"
    crit = check.critical_probability()
    if crit:
        text += f", {percent(crit)} critical success"
    return text


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
