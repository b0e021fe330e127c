"""Concentrating: starting, being hit, stopping (see :mod:`.concentration`)."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.concentration import concentration_limits, hit_can_break
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll, refuse_if_unable, to_round_end
from rulekeeper.systems.gods_monsters.consequences.sections import CONCENTRATION, c_rule

__all__ = [
    "CONCENTRATING",
    "CONCENTRATION_ACTIONS",
    "CONCENTRATION_PURPOSE",
    "CONCENTRATION_SECTION",
    "on_concentration_check",
]

CONCENTRATING = "concentrating"
CONCENTRATION_PURPOSE = "c.concentration"


def _concentrate(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "concentrate")
    rounds = action.params.int("rounds")
    activity = action.params.str("activity")
    limits = concentration_limits(play.char(actor).movement)
    # The activity needs `rounds` rounds, this one included: concentration ends with the last of them.
    play.add_condition(
        actor,
        CONCENTRATING,
        c_rule(CONCENTRATION),
        duration=to_round_end(play, rounds),
        data={"activity": activity, "rounds": rounds},
        text=f"{actor} concentrates on {activity} ({rounds} round{'s' if rounds != 1 else ''}): moves at most "
        f"{limits.max_movement}, no attacks or other actions, defense {limits.defense_modifier:+d}",
    )
    play.result["concentration"] = {
        "activity": activity,
        "rounds": rounds,
        "max_movement": limits.max_movement,
        "defense_modifier": limits.defense_modifier,
        "may_attack": limits.may_attack,
    }


def _hit(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    condition = play.state.condition(actor, CONCENTRATING)
    if condition is None:
        raise RuleRefusal(f"{actor} is not concentrating (seed 002, {CONCENTRATION})")
    rounds = int(condition.data.get("rounds", 1))
    cite = c_rule(CONCENTRATION)
    if not hit_can_break(rounds):
        play.explain(
            f"{actor}'s {condition.data.get('activity')} takes no more than a round: the hit does not break it",
            cite,
            actor=actor,
        )
        play.result["concentration"] = {"broken": False, "roll": False}
        return
    check = c_roll(play, actor, kind="gm.concentration", score="evasion")
    ask(play, actor, check, purpose=CONCENTRATION_PURPOSE, rule=cite)


def on_concentration_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    cite = c_rule(CONCENTRATION)
    if result.success:
        play.explain(f"{actor} keeps concentrating", cite, actor=actor)
    else:
        play.remove_condition(actor, CONCENTRATING, cite)
        play.explain(f"{actor}'s concentration is broken", cite, actor=actor)
    play.result["concentration"] = {"broken": not result.success, "roll": True}


def _stop(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    if not play.remove_condition(actor, CONCENTRATING, c_rule(CONCENTRATION)):
        raise RuleRefusal(f"{actor} is not concentrating")


CONCENTRATION_ACTIONS: dict[str, ActionSpec] = {
    "concentrate": ActionSpec(
        "concentrate",
        "Start an activity that needs concentration: half movement, no attacks, defense -1 (seed 002)",
        _concentrate,
        params=(
            ParamSpec("activity", "str", "what the character concentrates on", default="a spell"),
            ParamSpec("rounds", "int", "how many rounds the activity needs", default=2, minimum=1, maximum=100_000),
        ),
        kind="feat",
    ),
    "concentration_hit": ActionSpec(
        "concentration_hit",
        "A concentrating character is successfully attacked: evasion roll or concentration breaks (seed 002)",
        _hit,
        kind="condition",
    ),
    "stop_concentrating": ActionSpec(
        "stop_concentrating",
        "End concentration",
        _stop,
        kind="condition",
    ),
}


#: Concentration (seed 002).
CONCENTRATION_SECTION = Section(
    "concentration",
    actions=CONCENTRATION_ACTIONS,
    check_kinds=(CheckKind("gm.concentration", "evasion roll to keep concentrating when hit"),),
    checks=(CheckSpec(CONCENTRATION_PURPOSE, on_concentration_check),),
)
