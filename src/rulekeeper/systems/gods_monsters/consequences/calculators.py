"""Seed 002 rules usable without a campaign (``rulekeeper feat gm fall --feet 30``).

Each calculator runs the same pure functions the stateful actions use.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekeeper.core.action import Calculation, CalculatorSpec, ParamSpec
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.section import Section
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.aging import aging_injuries_by, aging_starts_at
from rulekeeper.systems.gods_monsters.consequences.ailments import AILMENTS, EXPOSURES, find_ailment, resist_reaction
from rulekeeper.systems.gods_monsters.consequences.chases import chase_movement_bonus
from rulekeeper.systems.gods_monsters.consequences.concentration import concentration_limits
from rulekeeper.systems.gods_monsters.consequences.falling import fall_band, fall_damage, fall_seconds
from rulekeeper.systems.gods_monsters.consequences.group_effort import group_effort_bonus
from rulekeeper.systems.gods_monsters.consequences.illusions import phantasmal_regain
from rulekeeper.systems.gods_monsters.consequences.item_play import ITEM_PARAMS, item_check
from rulekeeper.systems.gods_monsters.consequences.jumping import (
    JUMP_DIRECTIONS,
    SIZE_MULTIPLIERS,
    jump_plan,
    jump_reach,
)
from rulekeeper.systems.gods_monsters.consequences.jumping_play import distance_json
from rulekeeper.systems.gods_monsters.consequences.movement import (
    LIGHT_LEVELS,
    SPEEDS,
    casting_movement,
    daily_movement,
    speed_numbers,
)
from rulekeeper.systems.gods_monsters.consequences.searching import search_minutes, tracking_modifier
from rulekeeper.systems.gods_monsters.consequences.sections import (
    AGING,
    AILMENT_STRENGTH,
    AILMENT_TABLE,
    CHASES,
    CONCENTRATION,
    DAILY_MOVEMENT,
    FALLING,
    ILLUSIONS,
    ITEM_REACTIONS,
    JUMPING,
    MOVEMENT,
    MOVEMENT_FLYING,
    SEARCHING,
    SPELLS_AND_SPIRITS,
    SUFFOCATION,
    TRACKING,
    UPKEEP,
    c_rule,
    group_effort_rule,
)
from rulekeeper.systems.gods_monsters.consequences.suffocation import (
    suffocation_buffer_rounds,
    suffocation_interval,
    suffocation_modifier,
)
from rulekeeper.systems.gods_monsters.consequences.upkeep_play import UPKEEP_PARAMS, upkeep_values

__all__ = ["CONSEQUENCE_CALCULATORS", "CONSEQUENCE_CALCULATORS_SECTION"]


def _num(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _fall(p: Params) -> Calculation:
    feet = p.int("feet")
    band = fall_band(feet)
    seconds = fall_seconds(feet)
    values: dict[str, Any] = {
        "feet": feet,
        "damage_dice": f"{band.dice}d6",
        "injuries": band.dice,
        "seconds": seconds,
        "evasion": band.evasion.value,
    }
    cite = c_rule(FALLING, reading="injuries are part of the damage; +1 s per full 150 ft beyond 450 ft")
    steps = [
        Step(
            f"{feet} ft: {band.dice}d6 damage, {band.dice} of the points as injuries; evasion {band.evasion.value}",
            cite,
        ),
        Step(f"{seconds} s aloft", cite),
    ]
    dice = p.opt_ints("dice")
    if dice:
        outcome = fall_damage(feet, tuple(dice), evaded=p.bool("evaded"))
        values.update(rolled=outcome.rolled, damage=outcome.damage, injuries=outcome.injuries)
        steps.append(Step(f"rolled {outcome.rolled}: {outcome.damage} damage, {outcome.injuries} injuries", cite))
    return Calculation(values, tuple(steps))


def _jump(p: Params) -> Calculation:
    plan = jump_plan(
        agility=p.int("agility"),
        distance=p.int("distance"),
        direction=p.str("direction"),
        size=p.str("size"),
        bonus=p.int("bonus"),
        running_movement=p.int("running_movement"),
    )
    cite = c_rule(JUMPING)
    values: dict[str, Any] = {
        "unit": plan.unit,
        "penalty": plan.penalty,
        "target": plan.target,
        "unpenalized_target": plan.target - plan.penalty,
        "size_multiplier": _num(plan.multiplier),
    }
    steps = [
        Step(
            f"agility {plan.score} +8{plan.bonus:+d} bonus{plan.running:+d} running {plan.penalty:+d} for "
            f"{plan.base_units} {plan.unit} = {plan.target} or less on d20",
            cite,
        )
    ]
    roll = p.opt_int("roll")
    if roll is not None:
        reached = jump_reach(plan, roll)
        values.update(roll=roll, success=roll <= plan.target, reached=distance_json(reached))
        steps.append(
            Step(
                f"rolled {roll}: reaches {distance_json(reached)} {plan.unit}",
                c_rule(JUMPING, reading="a failed jump reaches the longest whole row the roll makes"),
            )
        )
    return Calculation(values, tuple(steps))


def _chase(p: Params) -> Calculation:
    mine, theirs = p.int("movement"), p.int("other_movement")
    size, other = p.int("group_size"), p.int("other_group_size")
    values = {
        "bonus": chase_movement_bonus(mine, theirs) + group_effort_bonus(size),
        "other_bonus": chase_movement_bonus(theirs, mine) + group_effort_bonus(other),
        "movement_bonus": chase_movement_bonus(mine, theirs),
        "other_movement_bonus": chase_movement_bonus(theirs, mine),
    }
    steps = [
        Step(
            f"Movement {mine} vs {theirs}: +{values['movement_bonus']} / +{values['other_movement_bonus']} "
            "(+1 per full 3 points of difference to the faster side)",
            c_rule(CHASES),
        )
    ]
    if size > 1 or other > 1:
        steps.append(
            Step(
                f"group effort: {size} → +{group_effort_bonus(size)}, {other} → +{group_effort_bonus(other)}",
                group_effort_rule(),
            )
        )
    return Calculation(values, tuple(steps))


def _speed(p: Params) -> Calculation:
    numbers = speed_numbers(
        p.str("speed"),
        p.int("movement"),
        p.int("endurance"),
        outdoors=p.bool("outdoors"),
        light=p.str("light"),
        can_see=p.bool("can_see"),
    )
    values: dict[str, Any] = {
        "movement": numbers.movement,
        "feet_per_round": _num(numbers.feet_per_round),
        "yards_per_minute": _num(numbers.yards_per_minute),
        "time_base_seconds": numbers.time_base_seconds,
        "reaction": numbers.reaction,
        "attack": numbers.attack,
        "unconfirmed": numbers.unconfirmed or None,
    }
    steps = [
        Step(
            f"{numbers.speed}: {values['feet_per_round']} ft/round, {values['yards_per_minute']} yd/minute, "
            f"reactions {numbers.reaction:+d}, attackers {numbers.attack:+d}",
            c_rule(MOVEMENT),
        )
    ]
    casting = p.opt_int("casting_time")
    if casting is not None:
        values["movement_while_casting"] = casting_movement(numbers.movement, casting)
        steps.append(
            Step(
                f"casting {casting} s: movement {values['movement_while_casting']}",
                c_rule(SPELLS_AND_SPIRITS, reading="casting time in seconds"),
            )
        )
    return Calculation(values, tuple(steps))


def _daily(p: Params) -> Calculation:
    daily = daily_movement(p.int("movement"), p.int("endurance"))
    values: dict[str, Any] = {
        **{f"{terrain}_miles": miles for terrain, miles in daily.by_terrain.items()},
        **{f"{terrain}_forced_miles": miles for terrain, miles in daily.forced.items()},
        "walking_mph": _num(daily.walking_mph),
        "flying_mph": daily.flying_mph,
        "flying_miles_per_day": daily.flying_miles_per_day,
        # Whole days, rounded down as the travel action counts them (half of endurance 13 is
        # a rest after 6 days' walking, not 6.5: an independent review found the two apart).
        "rest_day_after_days": int(daily.rest_day_after_days),
    }
    steps = (
        Step(
            f"Movement {daily.movement}: {daily.by_terrain['ideal']} mi a day ideal, {daily.by_terrain['forest']} in "
            f"forest or hills, {daily.by_terrain['bog']} in bog or undergrowth (rounded down)",
            c_rule(DAILY_MOVEMENT),
        ),
        Step(
            f"a day's rest after {int(daily.rest_day_after_days)} days' walking (half of endurance, rounded down)",
            c_rule(DAILY_MOVEMENT, reading="whole days, rounded down"),
        ),
        Step(
            f"flying: {daily.flying_mph} mph, {daily.flying_miles_per_day} mi a day",
            c_rule(MOVEMENT_FLYING, reading="a flier's day is eight ideal walking days"),
        ),
    )
    return Calculation(values, steps)


def _item(p: Params) -> Calculation:
    check, info = item_check(p)
    info["odds"] = round(float(check.probability()), 4)
    return Calculation(
        info, (Step(check.describe(), c_rule(ITEM_REACTIONS, reading="unconfirmed material modifiers")),)
    )


def _aging(p: Params) -> Calculation:
    age, endurance = p.int("age"), p.int("endurance")
    start = aging_starts_at(endurance)
    points = aging_injuries_by(age, endurance)
    return Calculation(
        {"starts_at": start, "points_so_far": points},
        (Step(f"aging starts at {start}; by {age}: {points} aging point(s)", c_rule(AGING)),),
    )


def _phantasmal(p: Params) -> Calculation:
    regain = phantasmal_regain(p.int("damage"))
    return Calculation(
        {"kept": regain.kept, "regained": regain.regained},
        (
            Step(
                f"{regain.total} phantasmal: {regain.regained} regained after a round, {regain.kept} kept",
                c_rule(ILLUSIONS),
            ),
        ),
    )


def _suffocation(p: Params) -> Calculation:
    prepared = p.bool("prepared")
    d4 = p.opt_int("d4")
    if not prepared and d4 is None:
        raise InputError("an unprepared character's buffer needs the d4 roll", expected="d4 from 1 to 4", where="d4")
    at_rest = p.bool("at_rest")
    rounds = suffocation_buffer_rounds(
        endurance=p.int("endurance"), prepared=prepared, d4=d4, contributor=p.int("contributor"), at_rest=at_rest
    )
    interval = suffocation_interval(at_rest=at_rest)
    mods = [suffocation_modifier(n) for n in range(5)]
    return Calculation(
        {"buffer_rounds": rounds, "interval_seconds": interval, "first_modifiers": mods},
        (
            Step(
                f"{rounds} rounds of buffer, then a health roll every {interval} s at {mods[:3]} ...",
                c_rule(SUFFOCATION),
            ),
        ),
    )


def _track(p: Params) -> Calculation:
    modifier = tracking_modifier(days=p.int("days"), group_size=p.int("group_size"), covered=p.int("covered"))
    target = p.int("perception") + modifier
    return Calculation(
        {"modifier": modifier, "target": target, "group_bonus": group_effort_bonus(p.int("group_size"))},
        (Step(f"perception {p.int('perception')} {modifier:+d} = {target}", c_rule(TRACKING)),),
    )


def _search(p: Params) -> Calculation:
    minutes = search_minutes(p.int("area"))
    return Calculation({"minutes": minutes}, (Step(f"{p.int('area')} sq ft: {minutes} minutes", c_rule(SEARCHING)),))


def _upkeep(p: Params) -> Calculation:
    values = upkeep_values(p)
    cite = c_rule(UPKEEP, reading="a month is 30 days, a year 360")
    return Calculation(values, (Step(f"{values['days']} days: {values['total']} silver in all", cite),))


def _ailment(p: Params) -> Calculation:
    row = find_ailment(p.str("name"))
    if row is None:
        raise InputError(
            f"{p.str('name')!r} is not in the example table", expected=", ".join(a.name for a in AILMENTS), where="name"
        )
    reaction, extra = resist_reaction(p.str("exposure"))
    values: dict[str, Any] = {
        "type": row.type_text,
        "strength": row.strength,
        "action_time_seconds": row.action_time,
        "action_rounds": row.action_rounds or None,
        "effect": row.effect.describe(),
        "reaction": reaction,
        "modifier": extra - row.strength,
    }
    steps = [
        Step(
            f"{row.name}: {row.type_text}, strength {row.strength}, effect {row.effect.describe()}",
            c_rule(AILMENT_TABLE, reading=row.reading or None),
        )
    ]
    score = p.opt_int("score")
    if score is not None:
        values["target"] = score + extra - row.strength
        steps.append(
            Step(f"{reaction} {score} {extra - row.strength:+d} = {values['target']}", c_rule(AILMENT_STRENGTH))
        )
    return Calculation(values, tuple(steps))


def _concentration(p: Params) -> Calculation:
    limits = concentration_limits(p.int("movement"))
    return Calculation(
        {
            "max_movement": limits.max_movement,
            "may_attack": limits.may_attack,
            "may_start_actions": limits.may_start_actions,
            "defense_modifier": limits.defense_modifier,
        },
        (Step("half movement, no attacks or new actions, defence -1", c_rule(CONCENTRATION)),),
    )


def _p(name: str, kind: Any = "int", help: str = "", **kw: Any) -> ParamSpec:
    return ParamSpec(name, kind, help, **kw)


CONSEQUENCE_CALCULATORS: dict[str, CalculatorSpec] = {
    "fall": CalculatorSpec(
        "fall",
        "Falling damage dice, injuries, evasion and time aloft (seed 002, Falling)",
        _fall,
        (
            _p("feet", help="height fallen in feet", required=True, minimum=0, maximum=1_000_000),
            _p("dice", "ints", "the d6 values rolled, to work out the damage"),
            _p("evaded", "bool", "the evasion roll succeeded", default=False),
        ),
        c_rule(FALLING),
    ),
    "jump": CalculatorSpec(
        "jump",
        "Jump target and, with a roll, the distance reached (seed 002, Jumping)",
        _jump,
        (
            _p("agility", help="agility score", required=True, minimum=0, maximum=99),
            _p("distance", help="feet up or yards across tried", required=True, minimum=1, maximum=64),
            _p("direction", "choice", "up or across", default="up", choices=tuple(JUMP_DIRECTIONS)),
            _p("size", "choice", "creature size", default="medium", choices=tuple(SIZE_MULTIPLIERS)),
            _p("bonus", help="other bonuses (skills, injuries as negative)", default=0, minimum=-50, maximum=50),
            _p("running_movement", help="running movement (across only)", default=0, minimum=0, maximum=1000),
            _p("roll", help="the d20 rolled", minimum=1, maximum=20),
        ),
        c_rule(JUMPING),
    ),
    "chase": CalculatorSpec(
        "chase",
        "Chase bonuses from Movement and group size (seed 002, Chases)",
        _chase,
        (
            _p("movement", help="this side's Movement", required=True, minimum=0, maximum=10_000),
            _p("other_movement", help="the other side's Movement", required=True, minimum=0, maximum=10_000),
            _p("group_size", help="this side's group size", default=1, minimum=1, maximum=1_000_000),
            _p("other_group_size", help="the other side's group size", default=1, minimum=1, maximum=1_000_000),
        ),
        c_rule(CHASES),
    ),
    "speed": CalculatorSpec(
        "speed",
        "A speed of the speeds table for a mover (seed 002, Movement)",
        _speed,
        (
            _p("speed", "choice", "speed", required=True, choices=tuple(s.name for s in SPEEDS)),
            _p("movement", help="Movement", required=True, minimum=0, maximum=10_000),
            _p("endurance", help="endurance (time base)", default=10, minimum=0, maximum=99),
            _p("outdoors", "bool", "outdoors: reaction penalties shift up one", default=False),
            _p("light", "choice", "light level", default="light", choices=LIGHT_LEVELS),
            _p("can_see", "bool", "special vision or a light", default=False),
            _p("casting_time", help="casting or calling time in seconds", minimum=0, maximum=100_000),
        ),
        c_rule(MOVEMENT),
    ),
    "daily_movement": CalculatorSpec(
        "daily_movement",
        "Miles a day by terrain, and flying (seed 002, Daily movement)",
        _daily,
        (
            _p("movement", help="Movement", required=True, minimum=0, maximum=10_000),
            _p("endurance", help="endurance (rest day interval)", default=10, minimum=0, maximum=99),
        ),
        c_rule(DAILY_MOVEMENT),
    ),
    "item_reaction": CalculatorSpec(
        "item_reaction",
        "An item's reaction target and survival (seed 002, Item reactions)",
        _item,
        ITEM_PARAMS,
        c_rule(ITEM_REACTIONS),
    ),
    "aging": CalculatorSpec(
        "aging",
        "When aging starts and how many aging points by an age (seed 002, Aging)",
        _aging,
        (
            _p("age", help="age in years", required=True, minimum=0, maximum=100_000),
            _p("endurance", help="endurance", required=True, minimum=0, maximum=99),
        ),
        c_rule(AGING),
    ),
    "phantasmal": CalculatorSpec(
        "phantasmal",
        "Phantasmal damage regained and kept (seed 002, Illusions)",
        _phantasmal,
        (_p("damage", help="phantasmal damage taken", required=True, minimum=0, maximum=1_000_000),),
        c_rule(ILLUSIONS),
    ),
    "suffocation": CalculatorSpec(
        "suffocation",
        "Suffocation buffer and roll schedule (seed 002, suffocation)",
        _suffocation,
        (
            _p("endurance", help="endurance", required=True, minimum=0, maximum=99),
            _p("prepared", "bool", "took a deep breath", default=True),
            _p("d4", help="the d4 rolled when unprepared", minimum=1, maximum=4),
            _p(
                "contributor",
                help="endurance's minor-contributor modifier (unconfirmed)",
                default=0,
                minimum=-10,
                maximum=10,
            ),
            _p("at_rest", "bool", "inactive and at rest: times doubled", default=False),
        ),
        c_rule(SUFFOCATION),
    ),
    "tracking": CalculatorSpec(
        "tracking",
        "A tracker's perception target (seed 002, Tracking)",
        _track,
        (
            _p("perception", help="the tracker's perception", required=True, minimum=0, maximum=99),
            _p("days", help="days since the quarry passed", default=0, minimum=0, maximum=100_000),
            _p("group_size", help="size of the group tracked", default=1, minimum=1, maximum=1_000_000),
            _p("covered", help="covering penalty", default=0, minimum=0, maximum=50),
        ),
        c_rule(TRACKING),
    ),
    "search": CalculatorSpec(
        "search",
        "Time to search an area (seed 002, Searching)",
        _search,
        (_p("area", help="square feet", required=True, minimum=0, maximum=100_000_000),),
        c_rule(SEARCHING),
    ),
    "upkeep": CalculatorSpec(
        "upkeep",
        "Living expenses and upkeep in silver over some days (seed 002, Upkeep)",
        _upkeep,
        UPKEEP_PARAMS,
        c_rule(UPKEEP),
    ),
    "ailment": CalculatorSpec(
        "ailment",
        "An example ailment and the roll to resist it (seed 002, Example ailments)",
        _ailment,
        (
            _p("name", "choice", "the ailment", required=True, choices=tuple(a.name for a in AILMENTS)),
            _p("exposure", "choice", "accepted, avoidable or forced", default="forced", choices=tuple(EXPOSURES)),
            _p("score", help="the reaction score, to get the target", minimum=0, maximum=99),
        ),
        c_rule(AILMENT_TABLE),
    ),
    "concentration": CalculatorSpec(
        "concentration",
        "Limits while concentrating (seed 002, concentration)",
        _concentration,
        (_p("movement", help="Movement", required=True, minimum=0, maximum=10_000),),
        c_rule(CONCENTRATION),
    ),
}


#: Seed 002's calculators.
CONSEQUENCE_CALCULATORS_SECTION = Section("consequence calculators", calculators=CONSEQUENCE_CALCULATORS)
