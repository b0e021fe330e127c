"""The ``chase`` action: an agility contest between pursuer and quarry (see :mod:`.chases`)."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.roll_under import ActingContest
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.chases import chase_movement_bonus
from rulekeeper.systems.gods_monsters.consequences.group_effort import group_effort_bonus
from rulekeeper.systems.gods_monsters.consequences.playing import c_roll, refuse_if_unable
from rulekeeper.systems.gods_monsters.consequences.sections import CHASES, c_rule, group_effort_rule

__all__ = ["CHASE_ACTIONS", "CHASE_PURPOSE", "CHASE_SECTION", "on_chase_check"]

CHASE_PURPOSE = "c.chase"
ROLES = ("pursuer", "quarry")


def _side_mods(
    play: Play[GmCharacter], actor: str, other: str, *, bonus: int, group: int
) -> tuple[list[Modifier], int]:
    me, them = play.char(actor), play.char(other)
    speed = chase_movement_bonus(me.movement, them.movement)
    mods = []
    if speed:
        mods.append(Modifier(speed, f"Movement {me.movement} vs {them.movement}"))
    if bonus:
        mods.append(Modifier(bonus, "skills"))
    group_bonus = group_effort_bonus(group)
    if group_bonus:
        mods.append(Modifier(group_bonus, f"group of {group}"))
    return mods, speed


def _chase(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    params = action.params
    other = params.str("other")
    if other == actor:
        raise InputError("a character cannot chase themselves", expected="another character id", where="other")
    play.char(other)
    refuse_if_unable(play, actor, "take part in a chase", movement=True)
    refuse_if_unable(play, other, "take part in a chase", movement=True)
    role = params.str("role")
    mine, my_speed = _side_mods(play, actor, other, bonus=params.int("bonus"), group=params.int("group_size"))
    theirs, their_speed = _side_mods(
        play, other, actor, bonus=params.int("other_bonus"), group=params.int("other_group_size")
    )
    cite = c_rule(CHASES, reading="+1 per full 3 points of Movement difference")
    faster = actor if my_speed else other if their_speed else None
    if faster is not None:
        play.explain(f"{faster} is faster: +{max(my_speed, their_speed)} to the chase roll", cite, actor=actor)
    if params.int("group_size") > 1 or params.int("other_group_size") > 1:
        play.explain("groups roll as one with the group effort bonus", group_effort_rule(), actor=actor)
    play.result["chase"] = {"bonus": my_speed, "other_bonus": their_speed}
    contest = ActingContest(
        kind="gm.chase",
        label=f"chase: {actor} ({role}) against {other}",
        acting=c_roll(play, actor, kind="gm.chase", score="agility", label=f"{actor} agility", modifiers=mine),
        resisting=c_roll(play, other, kind="gm.chase", score="agility", label=f"{other} agility", modifiers=theirs),
    )
    play.check(
        contest,
        purpose=CHASE_PURPOSE,
        rule=c_rule(CHASES),
        actor=actor,
        data={"other": other, "role": role},
    )


def on_chase_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    other = str(pending.data["other"])
    role = str(pending.data["role"])
    details: dict[str, Any] = dict(result.details)
    mine = bool(details["acting"]["success"])
    theirs = bool(details["resisting"]["success"])
    cite = c_rule(CHASES)
    pursuer, quarry = (actor, other) if role == "pursuer" else (other, actor)
    if mine == theirs:
        play.explain("both sides succeed or both fail: the chase goes on", cite, actor=actor)
        play.result["chase"] = {
            **play.result.get("chase", {}),
            "concluded": False,
            "winner": None,
            "outcome": "continues",
        }
        return
    winner = actor if mine else other
    outcome = "caught" if winner == pursuer else "escaped"
    text = f"{pursuer} catches {quarry}" if outcome == "caught" else f"{quarry} escapes {pursuer}"
    play.explain(f"one side succeeds and the other fails: {text}", cite, actor=actor)
    play.result["chase"] = {**play.result.get("chase", {}), "concluded": True, "winner": winner, "outcome": outcome}


CHASE_ACTIONS: dict[str, ActionSpec] = {
    "chase": ActionSpec(
        "chase",
        "Chase or flee: an agility contest, +1 per 3 points of Movement difference (seed 002, Chases)",
        _chase,
        params=(
            ParamSpec("other", "character", "the other side of the chase", required=True),
            ParamSpec(
                "role", "choice", "the acting character is the pursuer or the quarry", default="pursuer", choices=ROLES
            ),
            ParamSpec("bonus", "int", "the acting side's skill bonuses", default=0, minimum=-50, maximum=50),
            ParamSpec("other_bonus", "int", "the other side's skill bonuses", default=0, minimum=-50, maximum=50),
            ParamSpec(
                "group_size",
                "int",
                "how many chase together on the acting side",
                default=1,
                minimum=1,
                maximum=1_000_000,
            ),
            ParamSpec(
                "other_group_size", "int", "how many are on the other side", default=1, minimum=1, maximum=1_000_000
            ),
        ),
        kind="maneuver",
    ),
}


#: Chases (seed 002).
CHASE_SECTION = Section(
    "chases",
    actions=CHASE_ACTIONS,
    check_kinds=(CheckKind("gm.chase", "agility contest of a chase"),),
    checks=(CheckSpec(CHASE_PURPOSE, on_chase_check),),
)
