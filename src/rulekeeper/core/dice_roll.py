"""A plain roll the rules need (damage, an injury table, a duration) made into a check.

Nothing succeeds or fails, but the roll has a kind and an automation level like every check, so
a table that rolls its own dice gets each one as a pending check at the moment the rules need it
(attack, then defence, then damage, then what the damage causes) instead of the engine rolling it
behind their backs. Its "odds" are the exact distribution of the total.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulekeeper.core.check import CheckResult
from rulekeeper.dice.source import DiceSource

__all__ = ["DiceRoll"]


class _Lowest:
    """A source that shows 1 on every die: enough to learn which dice a roll throws at least."""

    __slots__ = ("sides",)

    def __init__(self) -> None:
        self.sides: list[int] = []

    def roll(self, sides: int) -> int:
        self.sides.append(sides)
        return 1


@dataclass(frozen=True, slots=True)
class DiceRoll:
    """Roll ``notation`` (total never below ``floor`` when one is set).

    ``style`` picks how the roll is explained: ``tree`` is the dice module's own rendering
    (``2d6 (3, 4) + 7 = 14``), ``sum`` the GURPS damage line (``1d+4 (1) = 5``) whose total
    already respects the floor.
    """

    kind: str
    label: str
    notation: str
    floor: int | None = None
    style: Literal["tree", "sum"] = "tree"
    type: Literal["dice-roll"] = "dice-roll"

    @property
    def dice_sides(self) -> tuple[int, ...]:
        from rulekeeper.dice import roll

        probe = _Lowest()
        roll(self.notation, probe)
        return tuple(probe.sides)

    def probability(self) -> Fraction:
        return Fraction(1)  # a plain roll has no failure

    def critical_probability(self) -> None:
        return None

    def distribution(self) -> tuple[tuple[int, Fraction], ...]:
        """Each total (after the floor) with its exact probability."""
        from rulekeeper.dice import distribution

        merged: dict[int, Fraction] = {}
        for total, p in distribution(self.notation).outcomes():
            kept = total if self.floor is None else max(self.floor, total)
            merged[kept] = merged.get(kept, Fraction(0)) + p
        return tuple(sorted(merged.items()))

    def describe(self) -> str:
        return f"{self.label}: roll {self.notation}"

    def judge_total(self, total: int) -> CheckResult:
        """A total typed in at the table instead of the dice (a GM who rolled behind a screen)."""
        low, high = self.distribution()[0][0], self.distribution()[-1][0]
        if not low <= total <= high:
            from rulekeeper.errors import InputError

            raise InputError(
                f"{total} cannot be rolled on {self.notation}",
                expected=f"{len(self.dice_sides)} dice, or a total from {low} to {high}",
            )
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=(),
            total=total,
            target=0,
            success=True,
            margin=0,
            text=f"{self.label}: total {total} typed at the table",
            details={"roll": f"{self.notation} = {total}"},
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        from rulekeeper.dice import roll

        rolled = roll(self.notation, source)
        values = tuple(d.value for d in rolled.dice)
        total = rolled.total if self.floor is None else max(self.floor, rolled.total)
        if self.style == "sum":
            shown = (
                f"{self.notation} ({', '.join(map(str, values))}) = {total}" if values else f"{self.notation} = {total}"
            )
            text = f"{self.label}: {total}"
        else:
            shown = str(rolled) if total == rolled.total else f"{rolled} (at least {self.floor}: {total})"
            text = f"{self.label}: {total}"
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=values,
            total=total,
            target=0,
            success=True,
            margin=0,
            text=text,
            details={"roll": shown},
        )
