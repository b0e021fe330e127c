"""Jumping: high and broad jumps, standing and running (seed 004, "Jumping Distance").

High jump (6 x Basic Move) - 10 inches; broad jump (2 x Basic Move) - 3 feet. A running jump
adds the yards run to Basic Move in the formula, but goes no farther than twice the standing
jump. The seed gives no roll for a jump, so the action only says whether the obstacle is
cleared. Readings: a jump is never less than 0 (tiny Basic Move); the running cap is twice the
*standing* jump even when that is 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.checking import GurpsPlay
from rulekeeper.systems.gurps.feats.citations import JUMPING

__all__ = ["JUMP_ACTION", "JUMP_CALCULATOR", "JUMP_KINDS", "Jump", "broad_jump", "high_jump", "jump"]

JUMP_KINDS = ("high", "broad")


@dataclass(frozen=True)
class Jump:
    """A jump's reach: ``distance`` in ``unit`` (inches high, feet broad)."""

    kind: str
    unit: str
    standing: int
    uncapped: int
    maximum: int
    distance: int
    running_yards: int

    @property
    def capped(self) -> bool:
        return self.uncapped > self.maximum


def _jump(kind: str, basic_move: int, running_yards: int) -> Jump:
    if basic_move < 0:
        raise InputError(f"Basic Move {basic_move} is negative", expected="0 or more", where="basic_move")
    if running_yards < 0:
        raise InputError(f"running start {running_yards} yd is negative", expected="0 or more", where="running_yards")
    if kind == "high":
        scale, less, unit = 6, 10, "in"
    elif kind == "broad":
        scale, less, unit = 2, 3, "ft"
    else:
        raise InputError(f"unknown jump {kind!r}", expected="high or broad", where="kind")
    standing = max(0, scale * basic_move - less)
    uncapped = max(0, scale * (basic_move + running_yards) - less)
    maximum = 2 * standing
    distance = uncapped if running_yards == 0 else min(uncapped, maximum)
    return Jump(kind, unit, standing, uncapped, maximum, distance, running_yards)


def high_jump(basic_move: int, running_yards: int = 0) -> Jump:
    """High jump in inches."""
    return _jump("high", basic_move, running_yards)


def broad_jump(basic_move: int, running_yards: int = 0) -> Jump:
    """Broad jump in feet."""
    return _jump("broad", basic_move, running_yards)


def jump(kind: str, basic_move: int, running_yards: int = 0) -> Jump:
    return _jump(kind, basic_move, running_yards)


def _steps(j: Jump, basic_move: int) -> tuple[Step, ...]:
    formula = "6 x Basic Move - 10 in" if j.kind == "high" else "2 x Basic Move - 3 ft"
    steps = [Step(f"standing {j.kind} jump: {formula} with Basic Move {basic_move} = {j.standing} {j.unit}", JUMPING)]
    if j.running_yards:
        steps.append(
            Step(
                f"running start of {j.running_yards} yd counts as Basic Move {basic_move + j.running_yards}: "
                f"{j.uncapped} {j.unit}",
                JUMPING,
            )
        )
        if j.capped:
            steps.append(Step(f"a running jump reaches at most twice the standing jump: {j.maximum} {j.unit}", JUMPING))
    return tuple(steps)


def _compute(params: Params) -> Calculation:
    basic_move = params.int("basic_move")
    j = jump(params.str("kind"), basic_move, params.int("running_yards"))
    values = {
        "kind": j.kind,
        "distance": j.distance,
        "unit": j.unit,
        "standing": j.standing,
        "maximum": j.maximum,
        "capped": j.capped,
    }
    return Calculation(values=values, steps=_steps(j, basic_move))


_KIND = ParamSpec("kind", "choice", "high or broad jump", default="high", choices=JUMP_KINDS)
_RUN = ParamSpec("running_yards", "int", "yards of running start (0 = standing jump)", default=0, minimum=0)

JUMP_CALCULATOR = CalculatorSpec(
    name="jump",
    help="How high or how far a jump reaches, standing or running.",
    compute=_compute,
    params=(
        ParamSpec("basic_move", "int", "Basic Move", required=True, minimum=0),
        _KIND,
        _RUN,
    ),
    rule=JUMPING,
)


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    j = jump(p.str("kind"), char.basic_move, p.int("running_yards"))
    for step in _steps(j, char.basic_move):
        play.explain(step.text, step.rule, actor=actor)
    play.result.update(
        {"kind": j.kind, "distance": j.distance, "unit": j.unit, "standing": j.standing, "maximum": j.maximum}
    )
    obstacle = p.opt_float("obstacle")
    if obstacle is not None:
        clears = obstacle <= j.distance
        verdict = "clears" if clears else "falls short of"
        play.explain(f"{char.name} {verdict} the {obstacle:g} {j.unit} obstacle", JUMPING, actor=actor)
        play.result["clears"] = clears


JUMP_ACTION = ActionSpec(
    name="jump",
    help="Jump high or broad, standing or with a running start; says whether an obstacle is cleared.",
    handler=_handle,
    params=(
        _KIND,
        _RUN,
        ParamSpec("obstacle", "float", "height (in) or width (ft) to clear, if any", minimum=0),
    ),
    kind="feat",
)
