"""Wrath & Glory checks: a pool of d6 against a Difficulty Number, with Wrath dice.

Each 4 or 5 is an Icon, each 6 an Exalted Icon worth two; the test passes when Icons reach
the DN. A 1 on a Wrath die is a Complication; a Wrath Critical needs a 6 on every Wrath die
(one die normally, more while Dying). Source: shared/rules/wrath-and-glory.md, "Context" and
"Tests while Dying"; W&G Core, dice-pool tests.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulekeeper.core.check import CheckResult, Critical, Modifier, describe_modifiers, total_modifier
from rulekeeper.dice.source import DiceSource
from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_POOL_DICE

__all__ = ["PoolTest", "check_pool_size", "icon_value", "pool_distribution"]

# Icons per face: 1-3 nothing, 4-5 one Icon, 6 an Exalted Icon worth two.
_FACE_ICONS = (0, 0, 0, 1, 1, 2)


def icon_value(face: int) -> int:
    return _FACE_ICONS[face - 1]


def check_pool_size(dice: int) -> None:
    """Refuse a pool no table rolls (docs/limits.md): its odds and its dice would be unbounded work."""
    if not 0 <= dice <= MAX_POOL_DICE:
        raise InputError(f"a pool of {dice} dice", expected=f"0 to {MAX_POOL_DICE} dice (docs/limits.md)")


def pool_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of Icons on ``dice`` d6 (Exalted Icons counted as two)."""
    check_pool_size(dice)
    return dict(_pool_distribution(dice))


@functools.lru_cache(maxsize=64)
def _pool_distribution(dice: int) -> tuple[tuple[int, Fraction], ...]:
    # Whole numbers of ways out of 6**dice: three faces show no Icon, two one Icon, one two.
    ways = [1]
    for _ in range(dice):
        nxt = [0] * (len(ways) + 2)
        for total, count in enumerate(ways):
            nxt[total] += 3 * count
            nxt[total + 1] += 2 * count
            nxt[total + 2] += count
        ways = nxt
    whole = 6**dice
    return tuple((total, Fraction(count, whole)) for total, count in enumerate(ways) if count)


@dataclass(frozen=True, slots=True)
class PoolTest:
    """A dice pool test. The first ``wrath_dice`` dice typed in are the Wrath dice."""

    kind: str
    label: str
    pool: int
    dn: int = 3
    dn_modifiers: tuple[Modifier, ...] = ()
    pool_modifiers: tuple[Modifier, ...] = ()
    wrath_dice: int = 1
    type: Literal["wg-pool"] = "wg-pool"

    def __post_init__(self) -> None:
        check_pool_size(self.dice_count)
        check_pool_size(self.wrath_dice)

    @property
    def dice_count(self) -> int:
        return max(1, self.pool + total_modifier(self.pool_modifiers))

    @property
    def wrath_count(self) -> int:
        return max(0, min(self.wrath_dice, self.dice_count))

    @property
    def target(self) -> int:
        return max(0, self.dn + total_modifier(self.dn_modifiers))

    @property
    def dice_sides(self) -> tuple[int, ...]:
        return (6,) * self.dice_count

    def probability(self) -> Fraction:
        return sum(
            (p for icons, p in pool_distribution(self.dice_count).items() if icons >= self.target),
            Fraction(0),
        )

    def critical_probability(self) -> Fraction:
        return Fraction(1, 6) ** self.wrath_count if self.wrath_count else Fraction(0)

    def complication_probability(self) -> Fraction:
        return 1 - Fraction(5, 6) ** self.wrath_count

    def describe(self) -> str:
        parts = [f"{self.label}: {self.dice_count} dice"]
        pool_mods = describe_modifiers(self.pool_modifiers)
        if pool_mods:
            parts.append(f"(pool {self.pool}, {pool_mods})")
        dn_mods = describe_modifiers(self.dn_modifiers)
        parts.append(f"against DN {self.target}" + (f" (DN {self.dn}, {dn_mods})" if dn_mods else ""))
        if self.wrath_count != 1:
            parts.append(f"with {self.wrath_count} Wrath dice")
        return " ".join(parts)

    def judge(self, dice: tuple[int, ...]) -> CheckResult:
        wrath = dice[: self.wrath_count]
        icons = sum(icon_value(d) for d in dice)
        exalted = sum(1 for d in dice if d == 6)
        success = icons >= self.target
        complications = sum(1 for d in wrath if d == 1)
        critical_hit = bool(wrath) and all(d == 6 for d in wrath)
        # Only Exalted Icons beyond the DN can be shifted, two Icons at a time.
        shifts = min(exalted, max(0, icons - self.target) // 2) if success else 0
        notes = []
        if complications:
            notes.append(f"{complications} Complication(s)")
        if critical_hit:
            notes.append("Wrath Critical")
        text = (
            f"{self.describe()}: rolled {', '.join(map(str, dice))} -> {icons} Icons, "
            f"{'passes' if success else 'fails'}" + (f"; {'; '.join(notes)}" if notes else "")
        )
        return CheckResult(
            kind=self.kind,
            label=self.label,
            dice=dice,
            total=icons,
            target=self.target,
            success=success,
            margin=icons - self.target,
            text=text,
            critical=Critical.SUCCESS if critical_hit else Critical.NONE,
            details={
                "icons": icons,
                "exalted": exalted,
                "shifts": shifts,
                "complications": complications,
                "wrath_dice": list(wrath),
            },
        )

    def resolve(self, source: DiceSource) -> CheckResult:
        return self.judge(tuple(source.roll(6) for _ in range(self.dice_count)))
