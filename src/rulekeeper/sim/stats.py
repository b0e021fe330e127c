"""Counting fights and turning the counts into estimates with 95% confidence intervals.

A :class:`Tally` holds only integer counts, so adding chunk tallies gives the same totals in any
order: that is what makes a result identical for any number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rulekeeper.sim.fight import FightResult
from rulekeeper.sim.status import STATUSES

__all__ = ["Estimate", "Tally", "mean_interval", "wilson"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% confidence interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float]:
        return {"value": round(self.value, 6), "low": round(self.low, 6), "high": round(self.high, 6)}


def wilson(successes: int, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a proportion: honest near 0 and 1, where the normal one is not."""
    if n == 0:
        return Estimate(0.0, 0.0, 1.0)
    p = successes / n
    denom = 1 + z**2 / n
    centre = (p + z**2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z**2 / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: int, squares: int, n: int) -> Estimate:
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = total / n
    var = max(0.0, squares / n - mean * mean) * (n / (n - 1) if n > 1 else 0.0)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


@dataclass
class Tally:
    """Integer counts over some fights of one encounter (fighters in encounter order)."""

    fighters: int
    runs: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # side -> wins; "draw" for no single side left
    status: list[dict[str, int]] = field(default_factory=list)
    rounds: dict[int, int] = field(default_factory=dict)
    health_sum: list[int] = field(default_factory=list)
    health_squares: list[int] = field(default_factory=list)
    health_counts: list[dict[int, int]] = field(default_factory=list)  # health left -> fights

    def __post_init__(self) -> None:
        if not self.status:
            self.status = [dict.fromkeys(STATUSES, 0) for _ in range(self.fighters)]
            self.health_sum = [0] * self.fighters
            self.health_squares = [0] * self.fighters
            self.health_counts = [{} for _ in range(self.fighters)]

    def add(self, result: FightResult) -> None:
        self.runs += 1
        key = result.winner or "draw"
        self.wins[key] = self.wins.get(key, 0) + 1
        self.rounds[result.rounds] = self.rounds.get(result.rounds, 0) + 1
        for i, (st, hp) in enumerate(zip(result.status, result.health, strict=True)):
            self.status[i][st] += 1
            self.health_sum[i] += hp
            self.health_squares[i] += hp * hp
            self.health_counts[i][hp] = self.health_counts[i].get(hp, 0) + 1

    def merge(self, other: Tally) -> Tally:
        out = Tally(self.fighters)
        out.runs = self.runs + other.runs
        for src in (self.wins, other.wins):
            for k, v in src.items():
                out.wins[k] = out.wins.get(k, 0) + v
        for src_r in (self.rounds, other.rounds):
            for r, v in src_r.items():
                out.rounds[r] = out.rounds.get(r, 0) + v
        for i in range(self.fighters):
            out.status[i] = {s: self.status[i][s] + other.status[i][s] for s in STATUSES}
            out.health_sum[i] = self.health_sum[i] + other.health_sum[i]
            out.health_squares[i] = self.health_squares[i] + other.health_squares[i]
            counts = dict(self.health_counts[i])
            for hp, n in other.health_counts[i].items():
                counts[hp] = counts.get(hp, 0) + n
            out.health_counts[i] = counts
        return out

    @staticmethod
    def total(fighters: int, tallies: Iterable[Tally]) -> Tally:
        out = Tally(fighters)
        for t in tallies:
            out = out.merge(t)
        return out

    # -- estimates ---------------------------------------------------------------------------
    def win(self, side: str) -> Estimate:
        return wilson(self.wins.get(side, 0), self.runs)

    def status_of(self, index: int, name: str) -> Estimate:
        return wilson(self.status[index][name], self.runs)

    def health_of(self, index: int) -> Estimate:
        return mean_interval(self.health_sum[index], self.health_squares[index], self.runs)

    def health_distribution(self, index: int) -> dict[int, Estimate]:
        """P(ending with each amount of health left), lowest first."""
        return {hp: wilson(n, self.runs) for hp, n in sorted(self.health_counts[index].items())}

    def length(self) -> Estimate:
        total = sum(r * n for r, n in self.rounds.items())
        squares = sum(r * r * n for r, n in self.rounds.items())
        return mean_interval(total, squares, self.runs)

    def length_quantiles(self, qs: Sequence[float] = (0.5, 0.9)) -> dict[str, int]:
        out: dict[str, int] = {}
        seen = 0
        ordered = sorted(self.rounds.items())
        for q in qs:
            need = q * self.runs
            seen = 0
            for r, n in ordered:
                seen += n
                if seen >= need:
                    out[f"p{round(q * 100)}"] = r
                    break
        return out

    def length_histogram(self) -> Mapping[int, int]:
        return dict(sorted(self.rounds.items()))
