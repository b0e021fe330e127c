"""Turning outcomes, pending checks and character views into terminal text or JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.dice_commands import percent
from rulekeeper.cli.output import line, terminal_width
from rulekeeper.core.stakes import describe_pending

if TYPE_CHECKING:
    from rulekeeper.core import PendingCheck, Step

__all__ = [
    "STEP_MARKS",
    "odds_text",
    "print_pending",
    "print_steps",
    "print_view",
    "sheet_lines",
    "step_json",
    "step_lines",
    "width",
    "wrap",
]


def step_json(step: Step) -> dict[str, Any]:
    return step.to_json()


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


def _distribution_text(stakes: Mapping[str, Any]) -> str:
    rows = stakes.get("distribution") or []
    shown = ", ".join(f"{r['value']}: {r['text']}" for r in rows[:12])
    more = f", ... ({len(rows) - 12} more)" if len(rows) > 12 else ""
    return f"{stakes['outcome']}: {shown}{more}"


def stakes_lines(stakes: Mapping[str, Any], *, with_distribution: bool = True) -> list[str]:
    """A pending check's stakes as short lines: purpose, what each result does, die names, the outcome's odds."""
    lines = [f"for: {stakes['for']}"]
    if stakes["on_success"]:
        # a plain roll (damage, a table) has no success: its "success" is simply what follows
        head = "then" if stakes.get("plain") else "on success"
        lines.append(f"{head}: {stakes['on_success']}")
    if stakes["on_failure"]:
        lines.append(f"on failure: {stakes['on_failure']}")
    named = [f"{d['name']} ({d['die']})" for d in stakes.get("dice", ()) if not d["name"].startswith("die ")]
    if named:
        lines.append("dice, in order: " + ", ".join(named))
    if with_distribution and stakes.get("distribution"):
        lines.append(_distribution_text(stakes))
    return lines


def width() -> int:
    """The terminal's width; 80 when output is not a terminal (``COLUMNS`` overrides)."""
    return max(40, terminal_width())


def wrap(text: str, *, indent: str = "  ", hanging: str = "    ", columns: int | None = None) -> list[str]:
    """``text`` broken at word boundaries to fit the terminal (a word longer than a line is split)."""
    columns = columns or width()
    # Most lines already fit. For a line that fits, holds no whitespace but single-width spaces
    # and does not end in one, textwrap's answer is the line itself; skipping it makes a long log
    # several times faster to print.
    if len(indent) + len(text) <= columns and text.isprintable() and text.strip() and not text.endswith(" "):
        return [indent + text]
    import textwrap

    return textwrap.wrap(
        text,
        width=columns,
        initial_indent=indent,
        subsequent_indent=hanging,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def step_lines(step: Step, *, explain: bool = False, columns: int | None = None) -> list[str]:
    """One consequence as lines that fit: its text, the dice and the rule's short tag.

    With ``explain`` the full citation (source, section, page and the reading we chose)
    follows on lines of its own.
    """
    text = f"{step.actor}: {step.text}" if step.actor and not step.text.startswith(step.actor) else step.text
    if step.roll:
        text += f" [{step.roll}]"
    if not explain:
        return wrap(f"{text} {step.rule.tag}", indent="  • ", columns=columns)
    return wrap(text, indent="  • ", columns=columns) + wrap(
        f"— {step.rule}", indent="      ", hanging="        ", columns=columns
    )


#: What to highlight in a step's lines: the rule's tag and citation dim, the bullet bold.
STEP_MARKS = ((r"\[[^\[\]]+: [^\[\]]+\]$|^ +— .*|^ {8}.*", "dim"), (r"^  • ", "bold"))


def print_steps(steps: Iterable[Step], *, explain: bool = False) -> None:
    columns = width()
    for step in steps:
        for text in step_lines(step, explain=explain, columns=columns):
            line(text, highlights=STEP_MARKS)


def print_pending(pending: Sequence[PendingCheck], *, heading: str = "Waiting for dice:") -> None:
    if not pending:
        return
    line(heading, style="bold yellow")
    columns = width()
    marks = ((r"^  #\d+", "bold yellow"), (r"\(resolve [^)]*\)?$", "dim"))
    for p in pending:
        sides = ",".join(f"d{s}" for s in p.check.dice_sides)
        who = f"{p.actor}: " if p.actor else ""
        stakes = describe_pending(p)
        lead = stakes["headline"] == "distribution" and not stakes["plain"]
        # Where the distribution is what matters (Determination's Wounds into Shock), it leads.
        odds = _distribution_text(stakes) if lead else odds_text(p)
        odds = f"{odds}; {stakes['label']}"  # ... and what the result means for the character
        text = f"#{p.id} {who}{p.check.describe()} — {odds} (resolve {p.id} --dice {sides} | --auto)"
        for part in wrap(text, indent="  ", hanging="      ", columns=columns):
            line(part, highlights=marks)
        for said in stakes_lines(stakes, with_distribution=not lead):
            for part in wrap(said, indent="      ", hanging="        ", columns=columns):
                line(part)


def _short(value: Any) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_short(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_short(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is True:
        return "yes"
    return str(value)


def sheet_lines(actor: str, view: Mapping[str, Any], *, columns: int = 80, headline: str = "") -> list[str]:
    """A character's view as a sheet: numbers in aligned columns, lists and tables below them.

    Empty fields (None, false, nothing in a list) are left out: a sheet shows what the
    character has. ``--json`` keeps the full record.
    """
    name = view.get("name")
    title = f"{actor} ({name})" if isinstance(name, str) and name and name != actor else actor
    lines = [title + (f"  {headline}" if headline else "")]
    cells: list[str] = []
    longer: list[tuple[str, str]] = []
    for key, value in view.items():
        if key in ("name", "actor") or value is None or value is False or value in ("", [], {}, ()):
            continue
        label = key.replace("_", " ")
        if isinstance(value, (Mapping, list, tuple)):
            longer.append((label, _short(value)))
            continue
        text = f"{label} {_short(value)}"
        if len(text) > 24:
            longer.append((label, _short(value)))
        else:
            cells.append(text)
    per_line = max(1, columns // 26)
    for start in range(0, len(cells), per_line):
        lines.append("  " + "".join(f"{c:<26}" for c in cells[start : start + per_line]).rstrip())
    for label, text in longer:
        lines.extend(wrap(f"{label}: {text}", indent="  ", hanging="      ", columns=columns))
    return lines


def print_view(actor: str, view: Mapping[str, Any], *, headline: str = "") -> None:
    for i, text in enumerate(sheet_lines(actor, view, columns=width(), headline=headline)):
        line(text, style="bold" if i == 0 else "")
