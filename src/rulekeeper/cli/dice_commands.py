"""``roll``, ``odds`` and ``check``: dice and exact odds, with or without a campaign."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["bar_chart", "odds_command", "percent", "roll_command"]


def percent(p: Fraction | float) -> str:
    value = float(p) * 100
    if 0 < value < 0.01:
        return "<0.01%"
    return f"{value:.2f}%"


def bar_chart(rows: list[tuple[str, Fraction]], width: int = 40) -> list[str]:
    """An ASCII bar per row, scaled so the likeliest row fills ``width`` characters."""
    top = max((p for _, p in rows), default=0) or 1
    label_width = max((len(label) for label, _ in rows), default=0)
    lines = []
    for label, p in rows:
        bar = "#" * round(float(p / top) * width)
        lines.append(f"{label:>{label_width}} {percent(p):>8} {bar}")
    return lines


def roll_command(expr: str, *, seed: int | None, as_json: bool) -> None:
    from rulekeeper.dice import SeededSource, roll

    result = roll(expr, SeededSource(seed))
    if as_json:
        import json

        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        return
    from rulekeeper.cli.output import use_colour

    if use_colour():
        from rulekeeper.cli.output import console

        console().print(result.to_rich())
    else:
        sys.stdout.write(f"{result}\n")


def odds_command(expr: str, *, at_least: int | None, at_most: int | None, as_json: bool) -> None:
    from rulekeeper.dice import parse

    parsed = parse(expr)
    if as_json:
        from rulekeeper.cli.output import emit_json
        from rulekeeper.dice.exact_odds import odds_json

        emit_json(odds_json(parsed, at_least, at_most))
        return
    dist = parsed.distribution()
    lines = [f"{parsed}: mean {float(dist.mean):.3f}, range {dist.min_value} to {dist.max_value}"]
    if at_least is not None:
        p = dist.p_ge(at_least)
        lines.append(f"P(>= {at_least}) = {p} = {percent(p)}")
    if at_most is not None:
        p = dist.p_le(at_most)
        lines.append(f"P(<= {at_most}) = {p} = {percent(p)}")
    outcomes = dist.outcomes()
    if len(outcomes) <= 60:
        lines.extend(bar_chart([(str(v), p) for v, p in outcomes]))
    else:
        lines.append(f"({len(outcomes)} distinct results; use --json for all of them)")
    sys.stdout.write("\n".join(lines) + "\n")
