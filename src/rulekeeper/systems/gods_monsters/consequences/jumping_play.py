"""The ``jump`` action: an agility roll at +8 with the doubling penalty (see :mod:`.jumping`)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.jumping import (
    JUMP_BONUS,
    JUMP_DIRECTIONS,
    JumpPlan,
    jump_plan,
    jump_reach,
)
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll, refuse_if_unable
from rulekeeper.systems.gods_monsters.consequences.sections import JUMPING, c_rule

__all__ = ["JUMPING_SECTION", "JUMP_ACTIONS", "JUMP_PURPOSE", "distance_json", "on_jump_check"]

JUMP_PURPOSE = "c.jump"


def distance_json(value: Fraction) -> float | int:
    """A distance for results: an int when whole, else a float to 3 places."""
    return int(value) if value.denominator == 1 else round(float(value), 3)


def _plan(data: dict[str, Any]) -> JumpPlan:
    return jump_plan(
        agility=int(data["agility"]),
        distance=Fraction(str(data["distance"])),
        direction=str(data["direction"]),
        size=str(data["size"]),
        bonus=int(data["bonus"]),
        running_movement=int(data["running_movement"]),
    )


def _jump(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "jump")
    character = play.char(actor)
    params = action.params
    data: dict[str, Any] = {
        "agility": character.agility,
        "distance": params.int("distance"),
        "direction": params.str("direction"),
        "size": character.size,
        "bonus": params.int("bonus"),
        "running_movement": params.int("running_movement"),
    }
    plan = _plan(data)
    mods = [Modifier(JUMP_BONUS, "jumping"), Modifier(plan.penalty, f"{plan.base_units} {plan.unit}")]
    if plan.bonus:
        mods.append(Modifier(plan.bonus, "bonuses"))
    if plan.running:
        mods.append(Modifier(plan.running, "running movement"))
    play.explain(
        f"{actor} tries to jump {plan.direction} {data['distance']} {plan.unit}"
        + (f" ({character.size}: x{plan.multiplier} distance)" if plan.multiplier != 1 else ""),
        c_rule(JUMPING),
        actor=actor,
    )
    check = c_roll(play, actor, kind="gm.jump", score="agility", modifiers=mods)
    data["target"] = check.target
    ask(play, actor, check, purpose=JUMP_PURPOSE, rule=c_rule(JUMPING), data=data)


def on_jump_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    data = dict(pending.data)
    plan = _plan(data)
    # The roll's target carries every modifier the character had when asked (injuries, ailments).
    adjusted = replace(plan, target=int(data["target"]))
    reached = plan.tried if result.success else jump_reach(adjusted, result.dice[0])
    verdict = "makes it" if result.success else "falls short"
    play.explain(
        f"{actor} {verdict}: {distance_json(reached)} of {distance_json(plan.tried)} {plan.unit}",
        c_rule(JUMPING, reading="a failed jump reaches the longest whole row the roll would have made"),
        actor=actor,
    )
    play.result["jump"] = {
        "success": result.success,
        "tried": distance_json(plan.tried),
        "reached": distance_json(reached),
        "unit": plan.unit,
    }


JUMP_ACTIONS: dict[str, ActionSpec] = {
    "jump": ActionSpec(
        "jump",
        "Jump up (feet) or leap across (yards): agility +8, doubling penalty per unit (seed 002, Jumping)",
        _jump,
        params=(
            ParamSpec("distance", "int", "feet up or yards across to try", required=True, minimum=1, maximum=64),
            ParamSpec(
                "direction", "choice", "up (feet) or across (yards)", default="up", choices=tuple(JUMP_DIRECTIONS)
            ),
            ParamSpec("bonus", "int", "skill, field or strength-contributor bonus", default=0, minimum=-50, maximum=50),
            ParamSpec(
                "running_movement",
                "int",
                "current running movement (leaps across only)",
                default=0,
                minimum=0,
                maximum=1000,
            ),
        ),
        kind="feat",
    ),
}


#: Jumping (seed 002).
JUMPING_SECTION = Section(
    "jumping",
    actions=JUMP_ACTIONS,
    check_kinds=(CheckKind("gm.jump", "agility roll to jump or leap"),),
    checks=(CheckSpec(JUMP_PURPOSE, on_jump_check),),
)
