"""Swimming: the rolls and their timing, FP loss, drowning, water Move and top-speed rolls.

Seed 004, "Swimming". A Swimming roll on entering water over one's head and every 5 minutes
after, at -2 per encumbrance level and +3 for entering on purpose. A failure costs 1 FP and
brings another roll 5 seconds later; the first success after failures ("recovering") brings
the next roll a minute later, and a success after that returns to every 5 minutes. At 0 FP the
swimmer is drowning: every further FP lost also costs 1 HP ("Lost Fatigue Points", applied by
``lose_fp``), and at -FP unconsciousness follows, after which FP costs come off HP until death
or rescue. Water Move is Basic Move / 5 (round down, minimum 1), halved (round up) below 1/3
FP. Each minute of top-speed swimming calls for a roll against the higher of HT and Swimming;
failure costs 1 FP.

Readings: the +3 for a deliberate entry applies to every roll of that swim; a swimmer who
cannot roll (unconscious) fails automatically every 5 seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.clock import MINUTE
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.character import GurpsCharacter, half_round_up
from rulekeeper.systems.gurps.fatigue import lose_fp
from rulekeeper.systems.gurps.feats.checking import (
    CheckHandler,
    GurpsPlay,
    TimerHandler,
    ask,
    gm_modifier,
    is_incapable,
    noted,
    skill_level,
)
from rulekeeper.systems.gurps.feats.citations import (
    SWIMMING,
    SWIMMING_DROWNING,
    SWIMMING_FATIGUE,
    SWIMMING_MOVE,
)

__all__ = [
    "ROLL_AFTER_FAILURE",
    "ROLL_AFTER_RECOVERY",
    "ROLL_EVERY",
    "SWIMMING_CHECK_HANDLERS",
    "SWIMMING_TIMER_HANDLERS",
    "SWIM_ACTION",
    "SWIM_CALCULATOR",
    "SWIM_SPEED_TIMER",
    "SWIM_TIMER",
    "TOP_SPEED_EVERY",
    "end_swim",
    "swimming_modifiers",
    "water_move",
]

SWIM_TIMER = "gurps.feat.swim"
SWIM_SPEED_TIMER = "gurps.feat.swim-speed"
ROLL_EVERY = 5 * MINUTE
ROLL_AFTER_FAILURE = 5
ROLL_AFTER_RECOVERY = MINUTE
TOP_SPEED_EVERY = MINUTE


def water_move(basic_move: int, very_tired: bool = False) -> int:
    """Yards per second in the water for a land-dweller."""
    if basic_move < 0:
        raise InputError(f"Basic Move {basic_move} is negative", expected="0 or more", where="basic_move")
    move = max(1, basic_move // 5)
    return max(1, half_round_up(move)) if very_tired else move


def swimming_modifiers(encumbrance_level: int, intentional: bool) -> tuple[Modifier, ...]:
    mods = []
    if encumbrance_level:
        mods.append(Modifier(-2 * encumbrance_level, f"twice encumbrance level {encumbrance_level}"))
    if intentional:
        mods.append(Modifier(3, "entered the water on purpose"))
    return tuple(mods)


def _compute(params: Params) -> Calculation:
    basic_move = params.int("basic_move")
    tired = params.bool("very_tired")
    move = water_move(basic_move, tired)
    steps = [
        Step(
            f"water Move: Basic Move {basic_move} / 5, round down, at least 1 = {max(1, basic_move // 5)} yd/s",
            SWIMMING_MOVE,
        )
    ]
    if tired:
        steps.append(Step(f"very tired: water Move halved (round up) to {move} yd/s", SWIMMING_FATIGUE))
    mods = swimming_modifiers(params.int("encumbrance_level"), params.bool("intentional"))
    total = sum(m.value for m in mods)
    steps.append(Step(f"Swimming roll modifier {total:+d} ({', '.join(map(str, mods)) or 'none'})", SWIMMING))
    return Calculation(values={"water_move": move, "roll_modifier": total}, steps=tuple(steps))


SWIM_CALCULATOR = CalculatorSpec(
    name="swim",
    help="Water Move and the Swimming roll's modifier.",
    compute=_compute,
    params=(
        ParamSpec("basic_move", "int", "Basic Move", required=True, minimum=0),
        ParamSpec("very_tired", "bool", "below 1/3 FP: water Move halved", default=False),
        ParamSpec("encumbrance_level", "int", "encumbrance level 0-4", default=0, minimum=0, maximum=4),
        ParamSpec("intentional", "bool", "entered the water on purpose (+3)", default=False),
    ),
    rule=SWIMMING,
)


def _swim_data(play: GurpsPlay, actor: str) -> Mapping[str, Any]:
    cond = play.state.condition(actor, "swimming")
    return cond.data if cond is not None else {}


def _swim_check(play: GurpsPlay, actor: str, char: GurpsCharacter) -> SuccessRoll:
    data = _swim_data(play, actor)
    override = data.get("skill_level")
    base = skill_level(char, ("swimming",), None if override is None else int(override), "Swimming")
    mods = swimming_modifiers(min(char.encumbrance_level, 4), bool(data.get("intentional")))
    return SuccessRoll(
        kind="gurps.swimming",
        label=f"{char.name}'s Swimming",
        base=base,
        modifiers=mods + gm_modifier(data.get("modifier")),
    )


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    override = p.opt_int("skill_level")
    # Refuse before anything changes when the sheet has no Swimming and no level is given.
    skill_level(char, ("swimming",), override, "Swimming")
    _clear_swim(play, actor)
    data = {
        "intentional": p.bool("intentional"),
        "top_speed": p.bool("top_speed"),
        "modifier": p.int("modifier"),
        "skill_level": override,
    }
    how = "dives in" if data["intentional"] else "ends up"
    play.add_condition(actor, "swimming", SWIMMING, data=data, text=f"{char.name} {how} in water over the head")
    move = water_move(char.basic_move, char.very_tired)
    if char.very_tired:
        play.explain(f"{char.name} is below 1/3 FP: water Move halved", SWIMMING_FATIGUE, actor=actor)
    play.explain(f"water Move {move} yd/s (Basic Move {char.basic_move} / 5)", SWIMMING_MOVE, actor=actor)
    play.result["water_move"] = move
    if data["top_speed"]:
        play.schedule(TOP_SPEED_EVERY, SWIM_SPEED_TIMER, "HT roll for a minute of top-speed swimming", actor=actor)
    _roll(play, actor, "enter")


def _roll(play: GurpsPlay, actor: str, last: str) -> None:
    """The next Swimming roll; ``last`` says what came before (enter, ok, fail, recovered)."""
    if is_incapable(play, actor):
        play.explain(
            f"{play.char(actor).name} cannot swim while unconscious: the roll fails", SWIMMING_DROWNING, actor=actor
        )
        _fail(play, actor)
        return
    check = _swim_check(play, actor, play.char(actor))
    ask(play, check, purpose="feat.swim", rule=SWIMMING, actor=actor, data={"last": last})
    if noted(play, check.kind):
        _schedule(play, actor, ROLL_EVERY, "ok")


def _schedule(play: GurpsPlay, actor: str, delay: int, last: str) -> None:
    play.cancel_timers(actor=actor, kind=SWIM_TIMER)
    play.schedule(delay, SWIM_TIMER, f"Swimming roll after {delay}s", actor=actor, data={"last": last})
    play.result["next_roll_in"] = delay


def _fail(play: GurpsPlay, actor: str) -> None:
    char = play.char(actor)
    play.explain(f"{char.name} swallows water: 1 FP lost, another roll in 5 seconds", SWIMMING, actor=actor)
    lose_fp(play, actor, 1, SWIMMING)
    char = play.char(actor)
    if char.dead or play.has(actor, "dead"):
        end_swim(play, actor, f"{char.name} has drowned")
        return
    if char.current_fp <= 0 and not play.has(actor, "drowning"):
        play.add_condition(
            actor,
            "drowning",
            SWIMMING_DROWNING,
            text=f"{char.name} is out of FP and drowning: each further FP lost also costs 1 HP",
        )
    play.result.update({"fp": char.current_fp, "hp": char.current_hp, "drowning": play.has(actor, "drowning")})
    _schedule(play, actor, ROLL_AFTER_FAILURE, "fail")


def _on_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    if not play.has(actor, "swimming"):
        return
    play.result["success"] = result.success
    if not result.success:
        _fail(play, actor)
        return
    name = play.char(actor).name
    if pending.data.get("last") == "fail":
        play.explain(f"{name} recovers; next roll in a minute", SWIMMING, actor=actor)
        _schedule(play, actor, ROLL_AFTER_RECOVERY, "recovered")
    else:
        play.explain(f"{name} keeps afloat; next roll in 5 minutes", SWIMMING, actor=actor)
        _schedule(play, actor, ROLL_EVERY, "ok")


def _on_timer(play: GurpsPlay, timer: Timer) -> None:
    actor = str(timer.actor)
    if actor in play.state.characters and play.has(actor, "swimming"):
        _roll(play, actor, str(timer.data.get("last", "ok")))


def _on_speed_timer(play: GurpsPlay, timer: Timer) -> None:
    actor = str(timer.actor)
    if actor not in play.state.characters or not play.has(actor, "swimming") or is_incapable(play, actor):
        return
    char = play.char(actor)
    data = _swim_data(play, actor)
    override = data.get("skill_level")
    swimming = skill_level(char, ("swimming",), None if override is None else int(override), "Swimming")
    base, what = (char.ht, "HT") if char.ht >= swimming else (swimming, "Swimming")
    check = SuccessRoll(kind="gurps.ht.swimming", label=f"{char.name}'s {what} (top speed)", base=base)
    ask(play, check, purpose="feat.swim.speed", rule=SWIMMING, actor=actor)
    if noted(play, check.kind):
        play.schedule(TOP_SPEED_EVERY, SWIM_SPEED_TIMER, "HT roll for a minute of top-speed swimming", actor=actor)


def _on_speed_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    if not result.success:
        play.explain(f"{play.char(actor).name} tires at top speed: 1 FP lost", SWIMMING, actor=actor)
        lose_fp(play, actor, 1, SWIMMING)
    char = play.char(actor)
    if play.has(actor, "swimming") and not is_incapable(play, actor):
        move = water_move(char.basic_move, char.very_tired)
        if char.very_tired:
            play.explain(f"{char.name} is below 1/3 FP: water Move halved to {move}", SWIMMING_FATIGUE, actor=actor)
        play.result["water_move"] = move
        play.schedule(TOP_SPEED_EVERY, SWIM_SPEED_TIMER, "HT roll for a minute of top-speed swimming", actor=actor)


def _clear_swim(play: GurpsPlay, actor: str) -> None:
    play.cancel_timers(actor=actor, kind=SWIM_TIMER)
    play.cancel_timers(actor=actor, kind=SWIM_SPEED_TIMER)
    play.drop_pending(actor=actor, purpose="feat.swim")
    play.drop_pending(actor=actor, purpose="feat.swim.speed")


def end_swim(play: GurpsPlay, actor: str, text: str) -> None:
    """Out of the water (ashore, rescued, or drowned): no more rolls."""
    _clear_swim(play, actor)
    play.remove_condition(actor, "swimming", quiet=True)
    play.remove_condition(actor, "drowning", quiet=True)
    play.explain(text, SWIMMING, actor=actor)


SWIM_ACTION = ActionSpec(
    name="swim",
    help="Enter water over the head: a Swimming roll now and on the seed's schedule; failures cost FP, then HP.",
    handler=_handle,
    params=(
        ParamSpec("intentional", "bool", "entered the water on purpose (+3)", default=False),
        ParamSpec("top_speed", "bool", "swims at top speed (HT roll each minute)", default=False),
        ParamSpec("modifier", "int", "GM's modifier to Swimming rolls", default=0, overrides_rules=True),
        ParamSpec(
            "skill_level", "int", "Swimming skill to use (the seed gives no default)", minimum=0, overrides_rules=True
        ),
    ),
    kind="feat",
)

SWIMMING_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.swim": _on_check, "feat.swim.speed": _on_speed_check}
SWIMMING_TIMER_HANDLERS: dict[str, TimerHandler] = {SWIM_TIMER: _on_timer, SWIM_SPEED_TIMER: _on_speed_timer}
