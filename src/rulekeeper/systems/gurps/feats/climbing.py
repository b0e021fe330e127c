"""Climbing: the roll to start and every 5 minutes, falls, ropes, and FP at combat speed.

Seed 004, "Climbing": roll against Climbing (default DX-5) with the table's modifier for the
kind of climb, less the encumbrance level. One roll starts the climb and another comes every
five minutes; any failure is a fall. A climber secured by a rope falls only to the end of the
rope, unless the roll was a critical failure. At combat speed each roll costs 1 FP. Ladders
need no roll.

Falling damage is the Falling rule (Lite p. 32), which seed 004 does not contain: a fall is
reported with the height the climber had reached, and the GM applies the damage with the
``damage`` action. Reading: a climber who cannot roll (unconscious) fails and falls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Critical, Modifier
from rulekeeper.core.clock import MINUTE, format_duration
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.fatigue import lose_fp
from rulekeeper.systems.gurps.feats.checking import (
    CheckHandler,
    GurpsPlay,
    TimerHandler,
    ask,
    gm_modifier,
    is_incapable,
    noted,
)
from rulekeeper.systems.gurps.feats.citations import CLIMBING, CLIMBING_FALL, CLIMBING_ROPE, ENCUMBRANCE
from rulekeeper.systems.gurps.feats.climbing_table import CLIMB_SPEEDS, CLIMBS, ClimbRow, climb_row

__all__ = [
    "CLIMBING_CHECK_HANDLERS",
    "CLIMBING_TIMER_HANDLERS",
    "CLIMB_ACTION",
    "CLIMB_CALCULATOR",
    "CLIMB_ROLL_EVERY",
    "CLIMB_TIMER",
    "climb_modifiers",
    "climb_time",
    "end_climb",
]

CLIMB_TIMER = "gurps.feat.climb"
CLIMB_ROLL_EVERY = 5 * MINUTE


def climb_time(row: ClimbRow, speed: str, distance: float) -> int:
    """Seconds to climb ``distance`` (feet, or rungs on a ladder) at ``speed``."""
    if distance < 0:
        raise InputError(f"distance {distance:g} is negative", expected="0 or more", where="distance")
    if speed not in CLIMB_SPEEDS:
        raise InputError(f"unknown climbing speed {speed!r}", expected="regular or combat", where="speed")
    return row.speed(speed).time_for(distance)


def climb_modifiers(row: ClimbRow, encumbrance_level: int) -> tuple[Modifier, ...]:
    mods = [Modifier(row.modifier or 0, row.name)]
    if encumbrance_level:
        mods.append(Modifier(-encumbrance_level, f"encumbrance level {encumbrance_level}"))
    return tuple(m for m in mods if m.value)


def _rolls_for(seconds: int) -> int:
    """Rolls a climb of ``seconds`` needs: one to start, one at each full five minutes still climbing."""
    return 1 + max(0, (seconds - 1) // CLIMB_ROLL_EVERY)


def _compute(params: Params) -> Calculation:
    row = climb_row(params.str("climb"))
    speed = params.str("speed")
    pace = row.speed(speed)
    steps = []
    if row.needs_roll:
        steps.append(Step(f"{row.name}: Climbing {row.modifier:+d}, less encumbrance", row.rule))
    else:
        steps.append(Step(f"{row.name}: no roll needed", row.rule))
    steps.append(Step(f"{speed} speed: {pace}", row.rule))
    values: dict[str, Any] = {
        "climb": row.key,
        "modifier": row.modifier,
        "needs_roll": row.needs_roll,
        "speed": str(pace),
        "per_second": float(pace.per_second),
    }
    distance = params.opt_float("distance")
    if distance is not None:
        seconds = climb_time(row, speed, distance)
        rolls = _rolls_for(seconds) if row.needs_roll else 0
        values.update({"seconds": seconds, "rolls": rolls})
        steps.append(Step(f"{distance:g} {pace.unit} takes {format_duration(seconds)}", row.rule))
        if row.needs_roll:
            fp = f"; at combat speed {rolls} FP" if speed == "combat" else ""
            steps.append(Step(f"{rolls} Climbing roll(s): one to start, one every 5 minutes{fp}", CLIMBING))
            if speed == "combat":
                values["fp"] = rolls
    return Calculation(values=values, steps=tuple(steps))


_CLIMB = ParamSpec("climb", "choice", "kind of climb", default="mountain", choices=tuple(CLIMBS))
_SPEED = ParamSpec(
    "speed", "choice", "regular or combat speed (1 FP per roll)", default="regular", choices=CLIMB_SPEEDS
)
_DISTANCE = ParamSpec("distance", "float", "height to climb, in feet (rungs on a ladder)", minimum=0)

CLIMB_CALCULATOR = CalculatorSpec(
    name="climb",
    help="The climbing table: modifier, speed, time and rolls for a climb.",
    compute=_compute,
    params=(_CLIMB, _SPEED, _DISTANCE),
    rule=CLIMBING,
)


def _check(play: GurpsPlay, actor: str, data: Mapping[str, Any]) -> SuccessRoll:
    char = play.char(actor)
    row = CLIMBS[str(data["climb"])]
    override = data.get("skill_level")
    sheet = char.skill("climbing")  # the sheet's level, or the seed's DX-5 default
    base = int(override) if override is not None else (sheet if sheet is not None else char.dx - 5)
    mods = climb_modifiers(row, min(char.encumbrance_level, 4)) + gm_modifier(data.get("modifier"))
    return SuccessRoll(kind="gurps.climbing", label=f"{char.name}'s Climbing", base=base, modifiers=mods)


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    row = climb_row(p.str("climb"))
    speed = p.str("speed")
    distance = p.opt_float("distance")
    pace = row.speed(speed)
    if is_incapable(play, actor):
        raise RuleRefusal(f"{char.name} cannot climb while unconscious or dead ({CLIMBING})")
    if char.encumbered_move <= 0:
        raise RuleRefusal(f"{char.name} cannot move under a load over 10 x BL ({ENCUMBRANCE})")
    play.result.update({"climb": row.key, "speed": str(pace)})
    if distance is not None:
        seconds = climb_time(row, speed, distance)
        play.result["seconds"] = seconds
    if not row.needs_roll:
        text = f"{char.name} climbs the {row.name} at {pace}: no roll needed"
        if distance is not None:
            text += f"; {distance:g} {pace.unit} take {format_duration(play.result['seconds'])}"
        play.explain(text, row.rule, actor=actor)
        return
    end_climb(play, actor)
    data = {
        "climb": row.key,
        "speed": speed,
        "roped": p.bool("roped"),
        "distance": distance,
        "climbed": 0.0,
        "modifier": p.int("modifier"),
        "skill_level": p.opt_int("skill_level"),
        "start": True,
    }
    rope = ", secured by a rope" if data["roped"] else ""
    play.explain(f"{char.name} starts up the {row.name} at {speed} speed ({pace}){rope}", row.rule, actor=actor)
    _roll(play, actor, data)


def _roll(play: GurpsPlay, actor: str, data: Mapping[str, Any]) -> None:
    if is_incapable(play, actor):
        play.explain(f"{play.char(actor).name} cannot hold on while unconscious", CLIMBING, actor=actor)
        _fall(play, actor, data, critical=False)
        return
    check = _check(play, actor, data)
    ask(play, check, purpose="feat.climb", rule=CLIMBING, actor=actor, data=data)
    if noted(play, check.kind):
        # The table applies the roll by hand; keep the climb's clock going as if it held.
        _continue(play, actor, data)


def _on_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    data = dict(pending.data)
    name = play.char(actor).name
    if data["speed"] == "combat":
        play.explain(f"{name} climbs at combat speed: 1 FP for this roll", CLIMBING, actor=actor)
        lose_fp(play, actor, 1, CLIMBING)
    play.result["success"] = result.success
    if result.success:
        _continue(play, actor, data)
        return
    _fall(play, actor, data, critical=result.critical is Critical.FAILURE)


def _continue(play: GurpsPlay, actor: str, data: dict[str, Any] | Mapping[str, Any]) -> None:
    if is_incapable(play, actor):
        _fall(play, actor, data, critical=False)
        return
    row = CLIMBS[str(data["climb"])]
    pace = row.speed(str(data["speed"]))
    climbed = float(data["climbed"])
    if data.get("start"):
        play.remove_condition(actor, "hanging", quiet=True)
        play.add_condition(
            actor,
            "climbing",
            CLIMBING,
            data={"climb": row.key, "speed": data["speed"], "roped": data["roped"]},
            text=f"{play.char(actor).name} is climbing the {row.name}",
        )
    distance = data.get("distance")
    delay = CLIMB_ROLL_EVERY
    finish = False
    if distance is not None:
        left = climb_time(row, str(data["speed"]), max(0.0, float(distance) - climbed))
        if left <= CLIMB_ROLL_EVERY:
            delay, finish = left, True
    reached = float(distance) if finish and distance is not None else climbed + float(pace.per_second * delay)
    nxt = {**data, "climbed": round(reached, 3), "start": False, "finish": finish}
    label = "reaches the top" if finish else "next Climbing roll"
    play.cancel_timers(actor=actor, kind=CLIMB_TIMER)
    play.schedule(delay, CLIMB_TIMER, f"{label} in {format_duration(delay)}", actor=actor, data=nxt)
    play.result["climbed"] = climbed


def _fall(play: GurpsPlay, actor: str, data: Mapping[str, Any], *, critical: bool) -> None:
    name = play.char(actor).name
    height = float(data.get("climbed") or 0)
    end_climb(play, actor)
    roped = bool(data.get("roped"))
    if roped and not critical:
        play.explain(f"{name} slips, but the rope holds: the fall stops at the rope's end", CLIMBING_ROPE, actor=actor)
        play.add_condition(actor, "hanging", CLIMBING_ROPE, text=f"{name} hangs on the rope; climb again to go on")
        play.result.update({"fell": True, "rope_held": True, "fall_feet": 0.0})
        return
    if roped:
        play.explain(f"critical failure: {name}'s rope does not stop the fall", CLIMBING_ROPE, actor=actor)
    play.explain(
        f"{name} falls from {height:g} ft; falling damage is the Falling rule (Lite p. 32), not in seed 004 -- "
        "the GM applies it with the damage action",
        CLIMBING_FALL,
        actor=actor,
    )
    play.result.update({"fell": True, "rope_held": False, "fall_feet": height})


def _on_timer(play: GurpsPlay, timer: Timer) -> None:
    actor = str(timer.actor)
    if actor not in play.state.characters or not play.has(actor, "climbing"):
        return
    data = dict(timer.data)
    if data.get("finish"):
        row = CLIMBS[str(data["climb"])]
        end_climb(play, actor)
        play.explain(
            f"{play.char(actor).name} finishes the climb ({float(data['climbed']):g} ft)", row.rule, actor=actor
        )
        play.result.update({"climbed": float(data["climbed"]), "finished": True})
        return
    _roll(play, actor, data)


def end_climb(play: GurpsPlay, actor: str) -> None:
    """No longer on the climb: its roll timer and any waiting roll go."""
    play.cancel_timers(actor=actor, kind=CLIMB_TIMER)
    play.drop_pending(actor=actor, purpose="feat.climb")
    play.remove_condition(actor, "climbing", quiet=True)
    play.remove_condition(actor, "hanging", quiet=True)


CLIMB_ACTION = ActionSpec(
    name="climb",
    help="Start a climb: a Climbing roll now and every 5 minutes until the top; a failure is a fall.",
    handler=_handle,
    params=(
        _CLIMB,
        _SPEED,
        _DISTANCE,
        ParamSpec("roped", "bool", "secured by a rope (stops a fall unless critical failure)", default=False),
        ParamSpec("modifier", "int", "GM's modifier to the Climbing rolls", default=0, overrides_rules=True),
        ParamSpec(
            "skill_level", "int", "Climbing skill to use instead of the sheet's", minimum=0, overrides_rules=True
        ),
    ),
    kind="feat",
)

CLIMBING_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.climb": _on_check}
CLIMBING_TIMER_HANDLERS: dict[str, TimerHandler] = {CLIMB_TIMER: _on_timer}
