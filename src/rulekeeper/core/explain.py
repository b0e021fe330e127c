"""Explanation steps: one line of a consequence, the rule behind it and the dice it used."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekeeper.core.citation import Rule

#: The words of the engine's line naming the timers that wait behind dice as time passes
#: (``core.engine``): the GM's alone, whatever the history's age (``Ruleset.is_secret_step``).
LATE_TIMERS = "timer(s) due by now wait for those dice"

__all__ = ["LATE_TIMERS", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One explained step of an outcome.

    ``dice`` holds the values rolled for this step (empty if none) and ``roll`` a short
    rendering of them (``"3d6 (4, 6, 2) = 12"``), so a reader sees the dice beside the rule.
    """

    text: str
    rule: Rule
    actor: str | None = None
    roll: str | None = None
    dice: tuple[int, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The step as JSON, as every front end shows it; ``data`` keeps its plain values only."""
        return {
            "text": self.text,
            "actor": self.actor,
            "roll": self.roll,
            "dice": list(self.dice),
            "rule": str(self.rule),
            "data": {k: v for k, v in self.data.items() if isinstance(v, (str, int, float, bool, type(None)))},
        }

    def render(self) -> str:
        text = self.text
        if self.roll:
            text = f"{text} [{self.roll}]"
        return f"{text} — {self.rule}"
