"""Running: sprinting, paced running, the HT rolls that cost FP, and half Move when very tired.

Seed 004, "Running": ground Move is Basic Move after encumbrance. Sprinting adds 20% after one
second of running; paced running averages half the sprint. A sprinter rolls HT each 15 s, a
paced runner each minute; a failure costs 1 FP. Below 1/3 FP (the brief reads
the seed's "1/3 or less" as the Fatigue table's "less than 1/3") Move is halved, round up --
the character's ``move`` already includes that halving (and the one for reeling).
"""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.character import half_round_up
from rulekeeper.systems.gurps.fatigue import lose_fp
from rulekeeper.systems.gurps.feats.checking import (
    CheckHandler,
    GurpsPlay,
    TimerHandler,
    ask,
    is_incapable,
    noted,
)
from rulekeeper.systems.gurps.feats.citations import RUNNING, RUNNING_FATIGUE

__all__ = [
    "PACES",
    "RUNNING_CHECK_HANDLERS",
    "RUNNING_TIMER_HANDLERS",
    "RUN_ACTION",
    "RUN_CALCULATOR",
    "RUN_ROLL_EVERY",
    "RUN_TIMER",
    "paced_speed",
    "running_move",
    "sprint_speed",
]

RUN_TIMER = "gurps.feat.run"
PACES = ("sprint", "paced")
#: Seconds of running between HT rolls, by pace.
RUN_ROLL_EVERY: dict[str, int] = {"sprint": 15, "paced": 60}
SPRINT_BONUS = Fraction(6, 5)


def running_move(move: int, very_tired: bool = False) -> int:
    """Ground Move for running: halved (round up) when below 1/3 FP."""
    if move < 0:
        raise InputError(f"Move {move} is negative", expected="0 or more", where="move")
    return half_round_up(move) if very_tired and move else move


def sprint_speed(move: int) -> Fraction:
    """Yards per second once sprinting (after the first second at ``move``)."""
    if move < 0:
        raise InputError(f"Move {move} is negative", expected="0 or more", where="move")
    return move * SPRINT_BONUS


def paced_speed(move: int) -> Fraction:
    """Yards per second averaged over a long paced run: half the sprint."""
    return sprint_speed(move) / 2


def _speed(pace: str, move: int) -> Fraction:
    return sprint_speed(move) if pace == "sprint" else paced_speed(move)


def _compute(params: Params) -> Calculation:
    base = params.int("move")
    tired = params.bool("very_tired")
    move = running_move(base, tired)
    steps = []
    if tired:
        steps.append(Step(f"very tired: Move {base} halved (round up) to {move} for running", RUNNING_FATIGUE))
    sprint, paced = sprint_speed(move), paced_speed(move)
    steps.append(Step(f"sprinting: Move {move} + 20% after one second = {float(sprint):g} yd/s", RUNNING))
    steps.append(Step(f"paced running: half the sprint = {float(paced):g} yd/s", RUNNING))
    return Calculation(
        values={"move": move, "sprint": float(sprint), "paced": float(paced)},
        steps=tuple(steps),
    )


RUN_CALCULATOR = CalculatorSpec(
    name="run",
    help="Sprinting and paced running speeds for a Move.",
    compute=_compute,
    params=(
        ParamSpec("move", "int", "ground Move (Basic Move after encumbrance)", required=True, minimum=0),
        ParamSpec("very_tired", "bool", "below 1/3 FP: Move halved for running", default=False),
    ),
    rule=RUNNING,
)


def _explain_speed(play: GurpsPlay, actor: str, pace: str) -> None:
    char = play.char(actor)
    if char.very_tired:
        play.explain(f"{char.name} is below 1/3 FP: Move halved for running", RUNNING_FATIGUE, actor=actor)
    speed = _speed(pace, char.move)
    if pace == "sprint":
        text = f"{char.name} sprints: Move {char.move} for the first second, then {float(speed):g} yd/s"
    else:
        text = f"{char.name} runs at a steady pace averaging {float(speed):g} yd/s"
    play.explain(text, RUNNING, actor=actor)
    play.result.update({"pace": pace, "move": char.move, "speed": float(speed)})


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    pace = action.params.str("pace")
    if is_incapable(play, actor):
        raise RuleRefusal(f"{char.name} cannot run while unconscious or dead ({RUNNING})")
    if char.move <= 0:
        raise RuleRefusal(f"{char.name} cannot move under a load over 10 x BL ({RUNNING})")
    play.cancel_timers(actor=actor, kind=RUN_TIMER)
    play.drop_pending(actor=actor, purpose="feat.run")
    play.add_condition(actor, "running", RUNNING, data={"pace": pace}, text=f"{char.name} starts running ({pace})")
    _explain_speed(play, actor, pace)
    _schedule(play, actor, pace)


def _schedule(play: GurpsPlay, actor: str, pace: str) -> None:
    every = RUN_ROLL_EVERY[pace]
    play.schedule(every, RUN_TIMER, f"HT roll after {every}s of {pace} running", actor=actor, data={"pace": pace})


def _on_timer(play: GurpsPlay, timer: Timer) -> None:
    actor = str(timer.actor)
    if actor not in play.state.characters or not play.has(actor, "running"):
        return
    if is_incapable(play, actor):
        play.remove_condition(actor, "running", RUNNING)
        return
    pace = str(timer.data.get("pace", "sprint"))
    char = play.char(actor)
    check = SuccessRoll(kind="gurps.ht.running", label=f"{char.name}'s HT", base=char.ht)
    ask(play, check, purpose="feat.run", rule=RUNNING, actor=actor, data={"pace": pace})
    if noted(play, check.kind):
        _schedule(play, actor, pace)


def _on_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    pace = str(pending.data.get("pace", "sprint"))
    if not result.success:
        play.explain(f"{play.char(actor).name} tires: 1 FP lost to running", RUNNING, actor=actor)
        lose_fp(play, actor, 1, RUNNING)
    if not play.has(actor, "running"):
        return
    if is_incapable(play, actor):
        play.remove_condition(actor, "running", RUNNING)
        return
    _explain_speed(play, actor, pace)
    _schedule(play, actor, pace)


RUN_ACTION = ActionSpec(
    name="run",
    help="Start (or change pace of) running: sprint or paced; HT rolls every 15 s / 1 min cost FP on failure.",
    handler=_handle,
    params=(ParamSpec("pace", "choice", "sprint (all-out) or paced", default="sprint", choices=PACES),),
    kind="feat",
)

RUNNING_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.run": _on_check}
RUNNING_TIMER_HANDLERS: dict[str, TimerHandler] = {RUN_TIMER: _on_timer}
