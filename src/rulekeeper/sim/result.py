"""What a simulation returns: estimates with intervals, as JSON and as a plot.

:class:`SimResult` is one encounter; :class:`SweepResult` is a grid of them. Both keep their
integer tallies, so a notebook can compute any other figure from them, and both plot themselves
(``result.plot()`` returns a matplotlib Figure; matplotlib is imported only then).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.sim.stats import Tally
from rulekeeper.sim.status import STATUSES, health_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["SimResult", "SweepResult"]


@dataclass(frozen=True)
class SimResult:
    title: str
    system: str
    sides: tuple[str, ...]
    fighters: tuple[tuple[str, str], ...]  # (id, side) in encounter order
    seed: int
    runs_asked: int
    chunks: int
    chunks_done: int
    tally: Tally

    @property
    def partial(self) -> bool:
        """True when the run was stopped (Ctrl-C) before every chunk was done."""
        return self.chunks_done < self.chunks

    @property
    def runs(self) -> int:
        return self.tally.runs

    def win_probability(self, side: str) -> float:
        return self.tally.win(side).value

    def to_json(self) -> dict[str, Any]:
        t = self.tally
        length = t.length()
        return {
            "title": self.title,
            "system": self.system,
            "seed": self.seed,
            "runs": t.runs,
            "runs_asked": self.runs_asked,
            "chunks": self.chunks,
            "chunks_done": self.chunks_done,
            "partial": self.partial,
            "confidence": 0.95,
            "sides": {side: t.win(side).to_json() for side in (*self.sides, "draw")},
            "characters": {
                fid: {
                    "side": side,
                    **{st: t.status_of(i, st).to_json() for st in STATUSES},
                    "health": {
                        "name": health_name(self.system),
                        "mean": t.health_of(i).to_json(),
                        "distribution": {str(hp): e.to_json() for hp, e in t.health_distribution(i).items()},
                    },
                }
                for i, (fid, side) in enumerate(self.fighters)
            },
            "rounds": {
                "mean": length.to_json(),
                **t.length_quantiles(),
                "max": max(t.rounds, default=0),
                "histogram": {str(r): n for r, n in t.length_histogram().items()},
            },
        }

    def plot(self) -> Figure:
        from rulekeeper.sim.plot import plot_result

        return plot_result(self)


@dataclass(frozen=True)
class SweepResult:
    title: str
    system: str
    sides: tuple[str, ...]
    axes: tuple[tuple[str, tuple[Any, ...]], ...]  # (path, values) per --vary, in order
    cells: tuple[tuple[tuple[Any, ...], SimResult], ...]  # (values, result) in grid order

    @property
    def partial(self) -> bool:
        return any(r.partial for _, r in self.cells)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "system": self.system,
            "partial": self.partial,
            "vary": [{"path": p, "values": list(v)} for p, v in self.axes],
            "cells": [
                {
                    "values": dict(zip((p for p, _ in self.axes), values, strict=True)),
                    "runs": r.runs,
                    "partial": r.partial,
                    "sides": {side: r.tally.win(side).to_json() for side in (*self.sides, "draw")},
                }
                for values, r in self.cells
            ],
        }

    def plot(self) -> Figure:
        from rulekeeper.sim.plot import plot_sweep

        return plot_sweep(self)
