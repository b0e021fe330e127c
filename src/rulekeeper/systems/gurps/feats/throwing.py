"""Throwing: how far (weight ratio table) and how hard (damage by weight on thrust for ST).

Seed 004, "Throwing", "Throwing Distance Table", "Throwing Damage Table". Weight ratio = weight
/ BL; the next row at or above it gives the distance modifier; distance = ST x modifier yards.
Up to 2 x BL is a one-handed throw; over 8 x BL cannot be thrown at all. Damage is thrust for
ST (Lite p. 6) adjusted per die by weight. To hit: DX-3 at a specific target, DX to lob into an
area, plus the GM's modifiers for size, speed and range.

Readings: ST and BL are the character's full values (the fatigue halving of ST leaves
ST-based quantities alone); "-1/2 per die (round down)" drops the fraction of the total
penalty (1 die: 0, 2 dice: -1); a damage roll below 0 counts as 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.damage_table import DamageDice, thrust
from rulekeeper.systems.gurps.encumbrance import basic_lift
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier
from rulekeeper.systems.gurps.feats.citations import THROWING, THROWING_DAMAGE, THROWING_DISTANCE, THRUST_TABLE
from rulekeeper.systems.gurps.feats.throwing_tables import (
    DAMAGE_BY_WEIGHT,
    DISTANCE_BY_RATIO,
    MAX_THROW_BL,
    ONE_HAND_BL,
    DistanceRow,
    WeightDamageRow,
)

__all__ = [
    "THROWING_CHECK_HANDLERS",
    "THROW_ACTION",
    "THROW_CALCULATOR",
    "Throw",
    "throw",
    "throw_damage",
    "throw_distance",
    "weight_ratio",
]


def _exact(value: float | Fraction) -> Fraction:
    return Fraction(value).limit_denominator(10_000)


def weight_ratio(weight: float, bl: float) -> Fraction:
    """Weight / Basic Lift, after checking both and the 8 x BL limit."""
    if weight < 0:
        raise InputError(f"weight {weight:g} lb is negative", expected="a weight above 0 lb", where="weight")
    if weight == 0:
        raise InputError("a weight of 0 lb is nothing to throw", expected="a weight above 0 lb", where="weight")
    if bl <= 0:
        raise InputError(f"Basic Lift {bl:g} lb is not positive", expected="more than 0 lb", where="basic_lift")
    ratio = _exact(weight) / _exact(bl)
    if ratio > MAX_THROW_BL:
        raise RuleRefusal(
            f"{weight:g} lb is more than 8 x BL ({MAX_THROW_BL * bl:g} lb): too heavy to throw ({THROWING})"
        )
    return ratio


def throw_distance(st: int, bl: float, weight: float) -> tuple[Fraction, DistanceRow, Fraction]:
    """(weight ratio, table row used, yards)."""
    if st < 1:
        raise InputError(f"ST {st} is below 1", expected="ST 1 or more", where="st")
    ratio = weight_ratio(weight, bl)
    row = next(r for r in DISTANCE_BY_RATIO if r.ratio >= ratio)
    return ratio, row, st * row.modifier


def throw_damage(st: int, bl: float, weight: float) -> tuple[WeightDamageRow, DamageDice, DamageDice]:
    """(weight row, thrust for ST, damage of the throw)."""
    ratio = weight_ratio(weight, bl)
    base = thrust(st)
    row = next(r for r in DAMAGE_BY_WEIGHT if ratio <= r.max_bl)
    per_die_total = math.trunc(row.per_die * base.dice)
    return row, base, base.plus(per_die_total)


@dataclass(frozen=True)
class Throw:
    st: int
    basic_lift: float
    weight: float
    ratio: Fraction
    distance_row: DistanceRow
    yards: Fraction
    damage_row: WeightDamageRow
    thrust: DamageDice
    damage: DamageDice

    @property
    def hands(self) -> int:
        return 1 if self.ratio <= ONE_HAND_BL else 2

    def steps(self) -> tuple[Step, ...]:
        return (
            Step(
                f"weight ratio {self.weight:g} lb / BL {self.basic_lift:g} lb = {float(self.ratio):.2f}; "
                f"next table row {float(self.distance_row.ratio):g} gives x{float(self.distance_row.modifier):g}",
                THROWING_DISTANCE,
            ),
            Step(
                f"distance: ST {self.st} x {float(self.distance_row.modifier):g} = {float(self.yards):g} yd",
                THROWING_DISTANCE,
            ),
            Step(f"{'one' if self.hands == 1 else 'two'}-handed throw (one hand up to 2 x BL)", THROWING),
            Step(f"thrust for ST {self.st}: {self.thrust}", THRUST_TABLE),
            Step(f"{self.damage_row.label}: {self.damage} crushing", THROWING_DAMAGE),
        )

    def values(self) -> dict[str, Any]:
        return {
            "ratio": round(float(self.ratio), 2),
            "row": float(self.distance_row.ratio),
            "distance_modifier": float(self.distance_row.modifier),
            "yards": float(self.yards),
            "hands": self.hands,
            "thrust": str(self.thrust),
            "damage": str(self.damage),
        }


def throw(st: int, bl: float, weight: float) -> Throw:
    ratio, drow, yards = throw_distance(st, bl, weight)
    wrow, base, damage = throw_damage(st, bl, weight)
    return Throw(st, bl, weight, ratio, drow, yards, wrow, base, damage)


def _compute(params: Params) -> Calculation:
    st = params.int("st")
    given = params.opt_float("basic_lift")
    bl = given if given is not None else basic_lift(st)
    result = throw(st, bl, params.float("weight"))
    return Calculation(values={"basic_lift": bl, **result.values()}, steps=result.steps())


_WEIGHT = ParamSpec("weight", "float", "weight of the object, in lb", required=True, minimum=0)

THROW_CALCULATOR = CalculatorSpec(
    name="throw",
    help="How far an object can be thrown and the damage it does, from ST and its weight.",
    compute=_compute,
    params=(
        ParamSpec("st", "int", "ST (damage table covers 1-20)", required=True, minimum=1),
        _WEIGHT,
        ParamSpec("basic_lift", "float", "Basic Lift in lb, if not derived from ST", minimum=0),
    ),
    rule=THROWING,
)

AIMS = ("area", "specific")


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    result = throw(char.st, char.basic_lift, p.float("weight"))
    for step in result.steps():
        play.explain(step.text, step.rule, actor=actor)
    play.result.update(result.values())
    aim = p.str("aim")
    mods: tuple[Modifier, ...] = (Modifier(-3, "a specific target"),) if aim == "specific" else ()
    check = SuccessRoll(
        kind="gurps.throwing",
        label=f"{char.name}'s DX to throw",
        base=char.dx,
        modifiers=mods + gm_modifier(p.int("modifier"), "size, speed and range"),
    )
    ask(play, check, purpose="feat.throw", rule=THROWING, actor=actor, data={"damage": str(result.damage)})


def _on_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    play.result["hit"] = result.success
    if not result.success:
        play.explain("the throw misses", THROWING, actor=actor)
        return
    dice = str(pending.data["damage"])
    play.roll_check(
        DiceRoll(kind="gurps.throwing.damage", label=f"the throw hits: damage {dice} crushing", notation=dice, floor=0),
        purpose="feat.throw-damage",
        rule=THROWING_DAMAGE,
        actor=actor,
        stakes=Stakes(purpose=f"the crushing damage of {actor}'s throw", on_success="damage to the target"),
    )


def _on_damage(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    damage = result.total
    play.explain(f"{damage} crushing damage to the target (before its defence and DR)", THROWING_DAMAGE, actor=actor)
    play.result["damage_rolled"] = damage


THROW_ACTION = ActionSpec(
    name="throw",
    help="Throw an object: distance and damage from the tables, a DX roll to hit, damage rolled on a hit.",
    handler=_handle,
    params=(
        _WEIGHT,
        ParamSpec(
            "aim", "choice", "lob into an area (DX) or at a specific target (DX-3)", default="area", choices=AIMS
        ),
        ParamSpec("modifier", "int", "GM's modifier for target size, speed and range", default=0, overrides_rules=True),
    ),
    kind="feat",
)

THROWING_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.throw": _on_check, "feat.throw-damage": _on_damage}
