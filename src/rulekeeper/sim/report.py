"""Simulation results as Rich tables for the terminal."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from rulekeeper.sim.result import SimResult, SweepResult
from rulekeeper.sim.stats import Estimate
from rulekeeper.sim.status import STATUSES, health_name

__all__ = ["result_table", "sweep_table"]


def _pct(e: Estimate) -> str:
    return f"{e.value:.1%} ({e.low * 100:.0f}–{e.high * 100:.0f})"


def _short(e: Estimate) -> str:
    # Percent without the sign and bounds in whole percent keep five outcomes within 80 columns.
    return f"{e.value * 100:.1f} ({e.low * 100:.0f}–{e.high * 100:.0f})"


def _partial_note(partial: bool, runs: int, asked: int) -> Text | None:
    if not partial:
        return None
    return Text(f"PARTIAL: stopped after {runs} of {asked} fights", style="bold yellow")


def result_table(result: SimResult) -> Group:
    t = result.tally
    sides = Table(title=f"{result.title}: {t.runs} fights, seed {result.seed} (95% intervals)")
    sides.add_column("side")
    sides.add_column("P(wins)", justify="right")
    for side in (*result.sides, "draw"):
        sides.add_row(side, _pct(t.win(side)))
    chars = Table(caption="how each character ends, % (95% interval); health left: mean (interval)")
    chars.add_column("character", no_wrap=True)
    for st in STATUSES:
        chars.add_column(st, justify="right", no_wrap=True)
    chars.add_column(f"{health_name(result.system)} left", justify="right", no_wrap=True)
    for i, (fid, _side) in enumerate(result.fighters):
        h = t.health_of(i)
        chars.add_row(
            fid, *(_short(t.status_of(i, st)) for st in STATUSES), f"{h.value:.1f} ({h.low:.1f}–{h.high:.1f})"
        )
    length = t.length()
    q = t.length_quantiles()
    summary = Text(
        f"fight length: mean {length.value:.2f} rounds ({length.low:.2f}–{length.high:.2f}), "
        f"median {q.get('p50', 0)}, 90% within {q.get('p90', 0)}, longest {max(t.rounds, default=0)}"
    )
    parts: list[Table | Text] = [sides, chars, summary]
    note = _partial_note(result.partial, t.runs, result.runs_asked)
    if note is not None:
        parts.append(note)
    return Group(*parts)


def sweep_table(result: SweepResult) -> Group:
    side = result.sides[0]
    table = Table(title=f"{result.title}: P({side} wins) per cell (95% intervals)")
    paths = [p for p, _ in result.axes]
    if len(result.axes) == 2:
        (py, ys), (px, xs) = result.axes
        table.add_column(f"{py} \\ {px}")
        for x in xs:
            table.add_column(str(x), justify="right")
        by_cell = {values: r for values, r in result.cells}
        for y in ys:
            table.add_row(str(y), *(_pct(by_cell[(y, x)].tally.win(side)) for x in xs))
    else:
        for p in paths:
            table.add_column(p)
        for s in (*result.sides, "draw"):
            table.add_column(f"P({s})", justify="right")
        for values, r in result.cells:
            table.add_row(*(str(v) for v in values), *(_pct(r.tally.win(s)) for s in (*result.sides, "draw")))
    parts: list[Table | Text] = [table]
    if result.partial:
        parts.append(Text("PARTIAL: stopped before every cell was done", style="bold yellow"))
    return Group(*parts)
