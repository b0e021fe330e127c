"""What the rules tell a front end to show: a character's vitals and standing.

A ruleset answers these (``Ruleset.vitals``, ``Ruleset.standing``) so no front end -- the CLI's
status line, a page's character card, the simulation's report -- keeps its own per-system list
of numbers. The values here are plain frozen data; the front ends only lay them out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["LEVELS", "OUT_LEVELS", "Bar", "Level", "Standing", "Stat", "Vitals", "number"]

#: How a character stands, worst first (the simulation's report keeps this order). ``unhurt`` is
#: fine, ``wounded`` hurt but standing, ``unconscious`` down.
Level = Literal["dead", "dying", "unconscious", "wounded", "unhurt"]
LEVELS: tuple[Level, ...] = ("dead", "dying", "unconscious", "wounded", "unhurt")
#: The levels that take a character out of a fight whatever else holds.
OUT_LEVELS: frozenset[str] = frozenset({"dead", "dying", "unconscious"})


@dataclass(frozen=True)
class Bar:
    """A counted-down (or, with ``harm``, counted-up) resource drawn as a bar."""

    label: str
    current: int
    maximum: int
    #: Marks drawn on the bar: (value, label), e.g. death checks at multiples of −HP.
    marks: tuple[tuple[int, str], ...] = ()
    #: A bar that fills as harm accumulates rather than as health remains.
    harm: bool = False

    @property
    def percent(self) -> int:
        if self.maximum <= 0:
            return 0
        return max(0, min(100, round(100 * self.current / self.maximum)))

    @property
    def text(self) -> str:
        return f"{self.label} {self.current}/{self.maximum}"


@dataclass(frozen=True)
class Stat:
    label: str
    value: str
    #: Shown as a warning (an injured stat, trauma, a death check due).
    alert: bool = False
    #: A GM's secret (only the GM's view carries it; kept for styling).
    secret: bool = False


@dataclass(frozen=True)
class Vitals:
    """What a card shows of one character, and the one line a status board gives it."""

    bars: tuple[Bar, ...] = ()
    stats: tuple[Stat, ...] = ()
    marks: tuple[str, ...] = ()
    #: The few numbers a GM glances at, on one line (``rulekeeper status``, ``char list``).
    line: str = ""


@dataclass(frozen=True)
class Standing:
    """How a character stands, read from the state the rules left."""

    level: Level
    #: Out of a fight: any level in :data:`OUT_LEVELS`, or a condition that stops acting
    #: (collapsed from fatigue, paralysed) while the level still reads ``wounded``.
    out: bool
    #: The figure the system counts down (HP, Wounds left, Survival ...): who is "weakest".
    health: int


def number(view: Any, key: str) -> int | None:
    """``view[key]`` as a whole number, or ``None`` when it is absent or not a number."""
    value = view.get(key)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
