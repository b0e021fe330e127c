"""Dice pool tests for a character, their exact odds, and what a test made while Dying costs.

The core :class:`~rulekeeper.core.dice_pool.PoolTest` rolls and judges the pool; this module adds
what seed 003 changes about it: Wounded +1 DN, Torso trauma on Toughness tests, a lost eye on
tests needing sight, the Intimidation bonus die of a revealed Memorable Injury, and the Dying
rule that turns extra dice into Wrath dice (one per Traumatic Injury) whose Complications maim.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.dice_pool import PoolTest, pool_distribution
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.wrath_glory import citations, formulas, options
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter
from rulekeeper.systems.wrath_glory.injuries import suffer_traumatic_injury
from rulekeeper.systems.wrath_glory.memorable_injuries import INTIMIDATION_BONUS_DICE
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.stakes import TEST_STAKES
from rulekeeper.systems.wrath_glory.traumatic_injuries import lost_eyes, torso_injuries

__all__ = [
    "ATTRIBUTES",
    "TEST_KIND",
    "TEST_PURPOSE",
    "TEST_SECTION",
    "PoolOdds",
    "PoolRequest",
    "build_test",
    "on_test",
    "pool_odds",
]

TEST_KIND = "wg.test"
TEST_PURPOSE = "test"
ATTRIBUTES = ("strength", "toughness", "agility", "initiative", "willpower", "intellect", "fellowship")


@dataclass(frozen=True, slots=True)
class PoolRequest:
    """What the table asks for: the pool and DN before the character's own modifiers."""

    pool: int
    dn: int = 3
    attribute: str | None = None
    bonus_dice: int = 0
    dn_modifier: int = 0
    intimidation: bool = False
    sight: bool = False
    label: str = "test"


def build_test(
    character: WrathGloryCharacter,
    request: PoolRequest,
    *,
    torso_dn: int = 1,
    eye_dn: int = 2,
    blinded_dn: int = 2,
    count_replaced: bool = True,
) -> PoolTest:
    """The pool test ``character`` makes, with every modifier seed 003 puts on it."""
    dn_mods: list[Modifier] = []
    if character.wounded:
        dn_mods.append(Modifier(1, "Wounded"))
    if request.attribute == "toughness":
        torsos = torso_injuries(character.traumatic_injuries)
        if torsos:
            dn_mods.append(Modifier(torsos * torso_dn, "Torso Traumatic Injury on a Toughness test"))
    eyes = lost_eyes(character.traumatic_injuries) if request.sight else 0
    if eyes == 1:
        dn_mods.append(Modifier(eye_dn, "one eye lost, on a test needing sight"))
    elif eyes > 1:
        dn_mods.append(Modifier(max(blinded_dn, eye_dn), "Blinded (both eyes lost), on a test needing sight"))
    if request.dn_modifier:
        dn_mods.append(Modifier(request.dn_modifier, "circumstances"))
    pool_mods: list[Modifier] = []
    if request.bonus_dice:
        pool_mods.append(Modifier(request.bonus_dice, "bonus dice"))
    if request.intimidation and character.memorable_injuries:
        pool_mods.append(Modifier(INTIMIDATION_BONUS_DICE, "revealed Memorable Injury on Intimidation"))
    dice = max(1, request.pool + sum(m.value for m in pool_mods))
    wrath = 1
    if character.dying:
        wrath = formulas.dying_wrath_dice(character.traumatic_count(count_replaced=count_replaced), dice)
    return PoolTest(
        kind=TEST_KIND,
        label=request.label,
        pool=request.pool,
        dn=request.dn,
        dn_modifiers=tuple(dn_mods),
        pool_modifiers=tuple(pool_mods),
        wrath_dice=wrath,
    )


@dataclass(frozen=True, slots=True)
class PoolOdds:
    """Exact odds of a pool test before it is rolled."""

    dice: int
    dn: int
    wrath_dice: int
    success: Fraction
    wrath_critical: Fraction
    complication: Fraction
    mean_icons: Fraction

    def to_values(self) -> dict[str, Any]:
        return {
            "pool": self.dice,
            "dn": self.dn,
            "wrath_dice": self.wrath_dice,
            "p_success": str(self.success),
            "p_failure": str(1 - self.success),
            "p_wrath_critical": str(self.wrath_critical),
            "p_complication": str(self.complication),
            "mean_icons": str(self.mean_icons),
            "success_percent": round(float(self.success) * 100, 4),
        }


def pool_odds(test: PoolTest) -> PoolOdds:
    """Exact odds for ``test``: any pool, any DN, any number of Wrath dice (as while Dying)."""
    dist = pool_distribution(test.dice_count)
    return PoolOdds(
        dice=test.dice_count,
        dn=test.target,
        wrath_dice=test.wrath_count,
        success=test.probability(),
        wrath_critical=test.critical_probability(),
        complication=test.complication_probability(),
        mean_icons=sum((icons * p for icons, p in dist.items()), Fraction(0)),
    )


def on_test(play: WGPlay, pending: PendingCheck, result: CheckResult) -> None:
    """Report a test; one made while Dying maims on a Complication (seed 003, Dying)."""
    actor = pending.actor
    complications = int(result.details.get("complications", 0))
    play.result.update(
        icons=result.total,
        dn=result.target,
        success=result.success,
        complications=complications,
        wrath_critical=result.critical.value == "critical success",
        shifts=int(result.details.get("shifts", 0)),
        exalted=int(result.details.get("exalted", 0)),
    )
    if actor is None or not pending.data.get("dying") or not complications:
        return
    if play.char(actor).dead:
        return
    injuries = complications if options.dying_complication_each(play) else 1
    play.explain(
        f"{complications} Complication(s) on {actor}'s Wrath dice while Dying: {injuries} Traumatic Injury(ies)",
        citations.DYING_TESTS,
        actor=actor,
    )
    for _ in range(injuries):
        if play.char(actor).dead:
            break
        suffer_traumatic_injury(play, actor, "Complication on a Wrath die while Dying")


#: Tests (seed 003): a dice pool against a DN.
TEST_SECTION = Section(
    "tests",
    check_kinds=(
        CheckKind(TEST_KIND, "a dice pool test against a DN (Wrath dice, Complications, Criticals; Dying rules)"),
    ),
    checks=(CheckSpec(TEST_PURPOSE, on_test, TEST_STAKES),),
)
