"""What every check has in common: modifiers with reasons, a result with a margin, exact odds.

A check is a roll a rule asks for. It knows its target and its exact probability of success
(and of a critical, where the system has one) before anyone rolls, so a pending check can show
its odds while it waits for dice typed in at the table.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from rulekeeper.dice.source import DiceSource

__all__ = ["Check", "CheckResult", "Critical", "Modifier", "describe_modifiers", "total_modifier"]


class Critical(enum.Enum):
    NONE = "none"
    SUCCESS = "critical success"
    FAILURE = "critical failure"


@dataclass(frozen=True, slots=True)
class Modifier:
    """A bonus or penalty, always with the reason a reader will see."""

    value: int
    reason: str

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason}"


def total_modifier(modifiers: Sequence[Modifier]) -> int:
    return sum(m.value for m in modifiers)


def describe_modifiers(modifiers: Sequence[Modifier]) -> str:
    return ", ".join(str(m) for m in modifiers if m.value)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The result of a check once the dice are known."""

    kind: str
    label: str
    dice: tuple[int, ...]
    total: int
    target: int
    success: bool
    margin: int
    text: str
    critical: Critical = Critical.NONE
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "dice": list(self.dice),
            "total": self.total,
            "target": self.target,
            "success": self.success,
            "margin": self.margin,
            "critical": self.critical.value,
            "text": self.text,
            "details": dict(self.details),
        }


@runtime_checkable
class Check(Protocol):
    """The protocol every system's check follows.

    ``kind`` names the kind of roll for automation settings (``"gurps.ht"``);
    ``dice_sides`` lists the dice a person must type in to resolve it, in order.
    """

    @property
    def kind(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def dice_sides(self) -> tuple[int, ...]: ...

    def probability(self) -> Fraction: ...

    def critical_probability(self) -> Fraction | None: ...

    def describe(self) -> str: ...

    def resolve(self, source: DiceSource) -> CheckResult: ...
