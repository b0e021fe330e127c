"""Rules usable without a campaign: lookups and small computations, sharing the pure functions
the stateful actions use."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import Calculation, CalculatorSpec, ParamSpec
from rulekeeper.core.check import Critical
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.section import Section
from rulekeeper.core.success_roll import THREE_D6, judge_success_roll
from rulekeeper.systems.gurps.character import half_round_up
from rulekeeper.systems.gurps.damage_table import swing, thrust
from rulekeeper.systems.gurps.encumbrance import (
    ENCUMBRANCE_LEVELS,
    OVERLOADED,
    basic_lift,
    encumbered_dodge,
    encumbered_move,
    encumbrance_level,
)
from rulekeeper.systems.gurps.fatigue import fp_loss
from rulekeeper.systems.gurps.ranged import ranged_modifiers
from rulekeeper.systems.gurps.rules import (
    BLOCK,
    DEATH,
    DODGE,
    ENCUMBRANCE,
    FATIGUE,
    MIN_INJURY,
    PARRY,
    RANGED,
    REELING,
    SHOCK,
    SUCCESS_ROLL,
    THRUST_SWING,
    VERY_TIRED,
)
from rulekeeper.systems.gurps.thresholds import dead_at, death_thresholds, shock_penalty
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES, injury_from, penetrating

__all__ = ["CALCULATORS_SECTION", "CORE_CALCULATORS", "success_odds"]


def _encumbrance(p: Params) -> Calculation:
    st = p.int("st")
    given_lift, speed, given_move = p.opt_float("basic_lift"), p.opt_float("basic_speed"), p.opt_int("basic_move")
    bl = given_lift if given_lift is not None else basic_lift(st)
    move = given_move if given_move is not None else (math.floor(speed) if speed is not None else None)
    limits = [row.max_bl * bl for row in ENCUMBRANCE_LEVELS]
    steps = [Step(f"Basic Lift {bl:g} lb; limits " + "/".join(f"{x:g}" for x in limits) + " lb", ENCUMBRANCE)]
    values: dict[str, Any] = {"basic_lift": bl, "limits": limits}
    if move is not None:
        values["moves"] = [encumbered_move(move, row.level) for row in ENCUMBRANCE_LEVELS]
        steps.append(Step("Move by level 0-4: " + "/".join(map(str, values["moves"])), ENCUMBRANCE))
    if speed is not None:
        dodge = math.floor(speed) + 3
        values["dodges"] = [encumbered_dodge(dodge, row.level) for row in ENCUMBRANCE_LEVELS]
        steps.append(Step("Dodge by level 0-4: " + "/".join(map(str, values["dodges"])), DODGE))
    level = encumbrance_level(p.float("carried"), bl)
    values["level"] = level
    values["overloaded"] = level >= OVERLOADED
    name = "over 10 x BL: cannot move" if level >= OVERLOADED else f"level {level} ({ENCUMBRANCE_LEVELS[level].name})"
    steps.append(Step(f"{p.float('carried'):g} lb carried: {name}", ENCUMBRANCE))
    if move is not None:
        values["move"] = encumbered_move(move, level)
    if speed is not None:
        values["dodge"] = 0 if level >= OVERLOADED else encumbered_dodge(math.floor(speed) + 3, level)
    return Calculation(values, tuple(steps))


def _defenses(p: Params) -> Calculation:
    values: dict[str, Any] = {}
    steps: list[Step] = []
    speed, weapon_skill, shield_skill = p.opt_float("basic_speed"), p.opt_int("weapon_skill"), p.opt_int("shield_skill")
    if speed is not None:
        level = p.int("encumbrance_level")
        dodge = encumbered_dodge(math.floor(speed) + 3, level)
        steps.append(Step(f"Dodge = floor({speed:g}) + 3 - {level} (encumbrance) = {dodge}", DODGE))
        for halves, why, rule in (
            (p.bool("reeling"), "reeling (below 1/3 HP)", REELING),
            (p.bool("very_tired"), "very tired (below 1/3 FP)", VERY_TIRED),
        ):
            if halves:
                halved = half_round_up(dodge)
                steps.append(Step(f"{why}: Dodge {dodge} halved, rounded up = {halved}", rule))
                dodge = halved
        values["dodge"] = dodge
    if weapon_skill is not None:
        bonus = p.int("parry_bonus")
        values["parry"] = 3 + weapon_skill // 2 + bonus
        plus = f" + {bonus} (weapon)" if bonus else ""
        steps.append(Step(f"Parry = 3 + {weapon_skill} / 2 (round down){plus} = {values['parry']}", PARRY))
    if shield_skill is not None:
        values["block"] = 3 + shield_skill // 2
        steps.append(Step(f"Block = 3 + {shield_skill} / 2 (round down) = {values['block']}", BLOCK))
    return Calculation(values, tuple(steps))


def _shock(p: Params) -> Calculation:
    penalty = shock_penalty(p.int("hp"), p.int("lost"))
    return Calculation(
        {"shock": penalty}, (Step(f"losing {p.int('lost')} HP of {p.int('hp')}: shock {penalty} next turn", SHOCK),)
    )


def _death_thresholds(p: Params) -> Calculation:
    hp = p.int("hp")
    checks = list(death_thresholds(hp))
    return Calculation(
        {"checks": checks, "dead_at": dead_at(hp), "reeling_below": math.ceil(Fraction(hp, 3))},
        (Step(f"HT rolls against death at {', '.join(map(str, checks))}; dead at {dead_at(hp)}", DEATH),),
    )


def _wounding(p: Params) -> Calculation:
    pen = penetrating(p.int("damage"), p.int("dr"))
    row = DAMAGE_TYPES[p.str("damage_type")]
    injury = injury_from(pen, row.code, min_injury=p.bool("min_injury"))
    steps: tuple[Step, ...] = (
        Step(f"{p.int('damage')} damage - DR {p.int('dr')} = {pen} penetrating", row.rule),
        Step(f"{row.name} x{float(row.multiplier):g}, rounded down = {injury} injury", row.rule),
    )
    if p.bool("min_injury") and pen > 0 and row.times(pen) < injury:
        steps += (Step("at least 1 HP for a penetrating hit", MIN_INJURY),)
    return Calculation({"penetrating": pen, "injury": injury}, steps)


def _thrust_swing(p: Params) -> Calculation:
    st = p.int("st")
    thr, sw = thrust(st), swing(st)
    return Calculation(
        {"thrust": str(thr), "swing": str(sw)}, (Step(f"ST {st}: thrust {thr}, swing {sw}", THRUST_SWING),)
    )


def success_odds(effective: int) -> dict[str, Any]:
    """Exact odds of a 3d6 success roll, with the critical ranges."""
    success = Fraction(sum(n for r, n in THREE_D6.items() if judge_success_roll(r, effective)[0]), 216)
    crit_s = [r for r in THREE_D6 if judge_success_roll(r, effective)[1] is Critical.SUCCESS]
    crit_f = [r for r in THREE_D6 if judge_success_roll(r, effective)[1] is Critical.FAILURE]
    return {
        "effective": effective,
        "probability": float(success),
        "fraction": str(success),
        "critical_success": [min(crit_s), max(crit_s)],
        "critical_failure": [min(crit_f), max(crit_f)],
    }


def _success_odds(p: Params) -> Calculation:
    effective = p.int("skill") + p.int("modifier")
    values = success_odds(effective)
    cs, cf = ("-".join(dict.fromkeys(str(v) for v in values[key])) for key in ("critical_success", "critical_failure"))
    return Calculation(
        values,
        (
            Step(
                f"{effective} or less on 3d6: {values['fraction']} ({values['probability']:.2%}); "
                f"critical success on {cs}, critical failure on {cf}",
                SUCCESS_ROLL,
            ),
        ),
    )


def _ranged(p: Params) -> Calculation:
    mods = ranged_modifiers(
        acc=p.int("acc"),
        aim_turns=p.int("aim_turns"),
        size_modifier=p.int("size_modifier"),
        range_speed=p.int("range_speed"),
        circumstances=p.int("circumstances"),
    )
    total = p.int("skill") + sum(m.value for m in mods)
    steps = [Step(f"step 1: base skill {p.int('skill')}", RANGED)]
    steps += [Step(f"{m.reason}: {m.value:+d}", RANGED) for m in mods]
    steps.append(Step(f"effective skill {total}", RANGED))
    return Calculation({"effective": total}, tuple(steps))


def _fatigue(p: Params) -> Calculation:
    most, current, loss = p.int("fp"), p.int("current_fp"), p.int("loss")
    fp, hp_cost = fp_loss(most, current, loss)
    steps = [Step(f"FP {current} - {loss} -> {fp} (never below -{most}); HP lost {hp_cost}", FATIGUE)]
    return Calculation(
        {
            "current_fp": fp,
            "hp_lost": hp_cost,
            "very_tired": fp * 3 < most,
            "verge_of_collapse": fp <= 0,
            "unconscious": fp <= -most,
        },
        tuple(steps),
    )


CORE_CALCULATORS: dict[str, CalculatorSpec] = {
    spec.name: spec
    for spec in (
        CalculatorSpec(
            "encumbrance",
            "Basic Lift, the five encumbrance limits, and Move and Dodge at each level",
            _encumbrance,
            params=(
                ParamSpec("st", "int", "ST", default=10, minimum=1),
                ParamSpec("basic_lift", "float", "Basic Lift instead of the one from ST", minimum=0),
                ParamSpec("carried", "float", "weight carried, lb", default=0.0, minimum=0),
                ParamSpec("basic_move", "int", "Basic Move", minimum=0),
                ParamSpec("basic_speed", "float", "Basic Speed", minimum=0),
            ),
            rule=ENCUMBRANCE,
        ),
        CalculatorSpec(
            "defenses",
            "Dodge, Parry and Block scores",
            _defenses,
            params=(
                ParamSpec("basic_speed", "float", "Basic Speed", minimum=0),
                ParamSpec("encumbrance_level", "int", "encumbrance level", default=0, minimum=0, maximum=4),
                ParamSpec("reeling", "bool", "below 1/3 HP", default=False),
                ParamSpec("very_tired", "bool", "below 1/3 FP", default=False),
                ParamSpec("weapon_skill", "int", "melee weapon skill, for Parry", minimum=0),
                ParamSpec("parry_bonus", "int", "a balanced weapon's parry bonus", default=0, minimum=0, maximum=2),
                ParamSpec("shield_skill", "int", "Shield or Cloak skill, for Block", minimum=0),
            ),
            rule=DODGE,
        ),
        CalculatorSpec(
            "shock",
            "Shock penalty for HP lost in one go",
            _shock,
            params=(
                ParamSpec("hp", "int", "maximum HP", required=True, minimum=1),
                ParamSpec("lost", "int", "HP lost", required=True, minimum=0),
            ),
            rule=SHOCK,
        ),
        CalculatorSpec(
            "death_thresholds",
            "Where HT rolls against death fall, and where death is automatic",
            _death_thresholds,
            params=(ParamSpec("hp", "int", "maximum HP", required=True, minimum=1),),
            rule=DEATH,
        ),
        CalculatorSpec(
            "wounding",
            "Penetrating damage and injury from basic damage, DR and damage type",
            _wounding,
            params=(
                ParamSpec("damage", "int", "basic damage rolled", required=True, minimum=0),
                ParamSpec("dr", "int", "DR", default=0, minimum=0),
                ParamSpec("damage_type", "choice", "damage type", default="cr", choices=tuple(DAMAGE_TYPES)),
                ParamSpec("min_injury", "bool", "a penetrating hit does at least 1 HP", default=True),
            ),
            rule=DAMAGE_TYPES["cr"].rule,
        ),
        CalculatorSpec(
            "thrust_swing",
            "Thrust and swing damage for ST 1-20",
            _thrust_swing,
            params=(ParamSpec("st", "int", "ST", required=True, minimum=1, maximum=20),),
            rule=THRUST_SWING,
        ),
        CalculatorSpec(
            "success_odds",
            "Exact odds of a 3d6 success roll and its critical ranges",
            _success_odds,
            params=(
                ParamSpec("skill", "int", "effective skill", required=True, minimum=-20, maximum=40),
                ParamSpec("modifier", "int", "modifier", default=0, minimum=-30, maximum=30),
            ),
            rule=SUCCESS_ROLL,
        ),
        CalculatorSpec(
            "ranged",
            "The five steps to a ranged attack's effective skill",
            _ranged,
            params=(
                ParamSpec("skill", "int", "step 1: base skill", required=True, minimum=0),
                ParamSpec("acc", "int", "weapon Accuracy", default=0, minimum=0),
                ParamSpec("aim_turns", "int", "turns of Aim before the attack", default=0, minimum=0),
                ParamSpec("size_modifier", "int", "target's SM", default=0, minimum=-15, maximum=15),
                ParamSpec("range_speed", "int", "range and speed modifier", default=0, maximum=0),
                ParamSpec("circumstances", "int", "circumstance modifiers", default=0),
            ),
            rule=RANGED,
        ),
        CalculatorSpec(
            "fatigue",
            "Where FP end after a loss, and the HP it costs at 0 FP or below",
            _fatigue,
            params=(
                ParamSpec("fp", "int", "maximum FP", required=True, minimum=1),
                ParamSpec("current_fp", "int", "FP now", required=True),
                ParamSpec("loss", "int", "FP lost", required=True, minimum=0),
            ),
            rule=FATIGUE,
        ),
    )
}


#: The core rules' calculators (the feats' come with their section).
CALCULATORS_SECTION = Section("calculators", calculators=CORE_CALCULATORS)
