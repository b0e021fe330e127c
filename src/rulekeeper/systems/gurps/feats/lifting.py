"""Lifting and moving things, and carrying a load on the back (seed 004, "Lifting & Moving Things").

Limits are multiples of Basic Lift; helpers may add their BL (not ST) at the GM's word. A load
on the back of up to 15 x BL can be carried, but each second it is over 10 x BL costs 1 FP.
Reading: an unconscious or dead carrier is no longer holding the load up, so the FP loss stops.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.state import Timer
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.encumbrance import basic_lift
from rulekeeper.systems.gurps.fatigue import lose_fp
from rulekeeper.systems.gurps.feats.checking import GurpsPlay, TimerHandler, is_incapable, members
from rulekeeper.systems.gurps.feats.citations import LIFTING, LIFTING_CARRY
from rulekeeper.systems.gurps.feats.lifting_table import CARRY_FATIGUE_MULTIPLE, LIFTS, lift_row

__all__ = [
    "CARRY_ACTION",
    "CARRY_TIMER",
    "LIFTING_TIMER_HANDLERS",
    "LIFT_ACTION",
    "LIFT_CALCULATOR",
    "Lift",
    "lift",
]

CARRY_TIMER = "gurps.feat.carry"


@dataclass(frozen=True)
class Lift:
    how: str
    basic_lift: float
    limit: float
    weight: float | None
    seconds: int | None

    @property
    def possible(self) -> bool | None:
        return None if self.weight is None else self.weight <= self.limit + 1e-9


def lift(how: str, bl: float, weight: float | None = None, running_start: bool = False) -> Lift:
    """The most ``how`` can move with ``bl`` pounds of Basic Lift, and whether ``weight`` is within it."""
    if bl <= 0:
        raise InputError(f"Basic Lift {bl:g} lb is not positive", expected="more than 0 lb", where="basic_lift")
    if weight is not None and weight < 0:
        raise InputError(f"weight {weight:g} lb is negative", expected="0 lb or more", where="weight")
    row = lift_row(how)
    multiple = row.multiple * (row.running_multiple if running_start else 1)
    return Lift(row.key, bl, multiple * bl, weight, row.seconds)


def _steps(result: Lift, running_start: bool) -> tuple[Step, ...]:
    row = LIFTS[result.how]
    doubled = " (doubled for a running start)" if running_start and row.running_multiple > 1 else ""
    text = f"{row.name}: {row.multiple} x BL{doubled} = {result.limit:g} lb"
    if row.seconds:
        text += f", taking {row.seconds} seconds"
    steps = [Step(text, row.rule)]
    if row.key == "carry":
        steps.append(
            Step(f"each second with more than {CARRY_FATIGUE_MULTIPLE} x BL on the back costs 1 FP", LIFTING_CARRY)
        )
    if result.weight is not None:
        verdict = "within" if result.possible else "beyond"
        steps.append(Step(f"{result.weight:g} lb is {verdict} that", row.rule))
    return tuple(steps)


def _compute(params: Params) -> Calculation:
    st = params.int("st")
    bl = basic_lift(st)
    weight = params.opt_float("weight")
    running = params.bool("running_start")
    values: dict[str, Any] = {"basic_lift": bl}
    for key in LIFTS:
        values[key.replace("-", "_")] = lift(key, bl, None, running).limit
    result = lift(params.str("how"), bl, weight, running)
    values["how"] = result.how
    values["limit"] = result.limit
    if result.weight is not None:
        values["possible"] = result.possible
    steps = (Step(f"Basic Lift for ST {st}: {bl:g} lb", LIFTING), *_steps(result, running))
    return Calculation(values=values, steps=steps)


_HOW = ParamSpec("how", "choice", "how the weight is moved", default="two-hand", choices=tuple(LIFTS))
_RUNNING = ParamSpec("running_start", "bool", "a running start (doubles a shove)", default=False)

LIFT_CALCULATOR = CalculatorSpec(
    name="lift",
    help="What a character can lift, shove, carry or shift, as multiples of Basic Lift.",
    compute=_compute,
    params=(
        ParamSpec("st", "int", "ST", required=True, minimum=1),
        _HOW,
        ParamSpec("weight", "float", "weight to move, in lb", minimum=0),
        _RUNNING,
    ),
    rule=LIFTING,
)


def _handle_lift(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    helpers = tuple(h for h in members(play, p.opt_str("helpers"), "helpers") if h != actor)
    bl = char.basic_lift
    if helpers:
        added = [play.char(h).basic_lift for h in helpers]
        play.explain(
            f"{', '.join(play.char(h).name for h in helpers)} add their Basic Lift: "
            f"{bl:g} + {' + '.join(f'{b:g}' for b in added)} lb",
            LIFTING,
            actor=actor,
        )
        bl += sum(added)
    running = p.bool("running_start")
    result = lift(p.str("how"), bl, p.float("weight"), running)
    for step in _steps(result, running):
        play.explain(step.text, step.rule, actor=actor)
    play.result.update({"how": result.how, "limit": result.limit, "weight": result.weight, "possible": result.possible})
    if result.seconds is not None:
        play.result["seconds"] = result.seconds


LIFT_ACTION = ActionSpec(
    name="lift",
    help="Lift, shove or shift a weight: says whether it is within the character's (and helpers') Basic Lift.",
    handler=_handle_lift,
    params=(
        _HOW,
        ParamSpec("weight", "float", "weight to move, in lb", required=True, minimum=0),
        _RUNNING,
        ParamSpec("helpers", "str", "comma-separated ids of characters adding their Basic Lift", names_character=True),
    ),
    kind="feat",
)


def _handle_carry(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    weight = action.params.float("weight")
    bl = char.basic_lift
    most = LIFTS["carry"].multiple * bl
    if weight > most + 1e-9:
        raise RuleRefusal(
            f"{char.name} can carry at most 15 x BL = {most:g} lb on the back, not {weight:g} lb ({LIFTING_CARRY})"
        )
    play.put(actor, replace(char, carried=weight))
    play.explain(f"{char.name} now carries {weight:g} lb (Basic Lift {bl:g} lb)", LIFTING_CARRY, actor=actor)
    play.result.update({"carried": weight, "basic_lift": bl})
    _update_strain(play, actor)


def _over_fatigue_limit(play: GurpsPlay, actor: str) -> bool:
    char = play.char(actor)
    return char.carried > CARRY_FATIGUE_MULTIPLE * char.basic_lift + 1e-9


def _update_strain(play: GurpsPlay, actor: str) -> None:
    """Start or stop the FP loss of a load over 10 x BL."""
    straining = _over_fatigue_limit(play, actor) and not is_incapable(play, actor)
    if straining and not play.has(actor, "overloaded"):
        play.add_condition(
            actor,
            "overloaded",
            LIFTING_CARRY,
            text=f"{play.char(actor).name} carries more than 10 x BL: 1 FP lost every second",
        )
        play.cancel_timers(actor=actor, kind=CARRY_TIMER)
        play.schedule(1, CARRY_TIMER, "1 FP for the heavy load", actor=actor)
    elif not straining and play.has(actor, "overloaded"):
        play.remove_condition(actor, "overloaded", LIFTING_CARRY)
        play.cancel_timers(actor=actor, kind=CARRY_TIMER)
    play.result["overloaded"] = play.has(actor, "overloaded")


def _on_carry_timer(play: GurpsPlay, timer: Timer) -> None:
    actor = str(timer.actor)
    if actor not in play.state.characters:
        return
    if not _over_fatigue_limit(play, actor) or is_incapable(play, actor):
        if play.has(actor, "overloaded"):
            play.remove_condition(actor, "overloaded", LIFTING_CARRY)
        return
    lose_fp(play, actor, 1, LIFTING_CARRY)
    if is_incapable(play, actor):
        play.remove_condition(actor, "overloaded", LIFTING_CARRY)
        play.explain(f"{play.char(actor).name} can no longer hold the load up", LIFTING_CARRY, actor=actor)
        return
    play.schedule(1, CARRY_TIMER, "1 FP for the heavy load", actor=actor)


CARRY_ACTION = ActionSpec(
    name="carry",
    help="Set the load carried on the back (total lb); over 10 x BL costs 1 FP a second, over 15 x BL is refused.",
    handler=_handle_carry,
    params=(ParamSpec("weight", "float", "total weight carried, in lb", required=True, minimum=0),),
    kind="feat",
)

LIFTING_TIMER_HANDLERS: dict[str, TimerHandler] = {CARRY_TIMER: _on_carry_timer}
