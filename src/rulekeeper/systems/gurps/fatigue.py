"""Fatigue: losing and regaining FP (seed 004, "Lost Fatigue Points", "Recovering from Fatigue").

Thresholds, all cumulative: below 1/3 FP very tired (half Move, Dodge and ST); at 0 FP or less
each further FP lost also costs 1 HP, and acting takes a Will roll (failure: collapse until FP
is positive again); at -FP unconscious, FP never falls further and any further cost comes off HP.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.action import Call, validate_params
from rulekeeper.core.citation import Rule
from rulekeeper.core.frozen import evolve
from rulekeeper.core.params import Params
from rulekeeper.core.section import CheckSpec, Section
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.rules import FATIGUE, FATIGUE_COLLAPSE, FATIGUE_RECOVERY, FATIGUE_UNCONSCIOUS
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.status import fall_unconscious, is_unconscious_from, sync_thresholds, wake_from

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = [
    "FATIGUE_SECTION",
    "ask_will_to_act",
    "collapse",
    "fp_loss",
    "lose_fp",
    "needs_will_to_act",
    "on_fatigue_check",
    "recover_fp",
]


def fp_loss(max_fp: int, current: int, amount: int) -> tuple[int, int]:
    """Where FP ends and how many HP the loss costs: (new FP, HP lost).

    Each FP lost at 0 FP or below costs 1 HP as well; at -FP the FP stop and the whole cost
    comes off HP.
    """
    fp = current
    hp_cost = 0
    for _ in range(max(0, amount)):
        if fp <= -max_fp:
            hp_cost += 1
            continue
        if fp <= 0:
            hp_cost += 1
        fp -= 1
    return fp, hp_cost


def lose_fp(play: Play[GurpsCharacter], actor: str, amount: int, rule: Rule) -> None:
    """Take ``amount`` FP from ``actor`` because of ``rule`` and apply every fatigue threshold."""
    from rulekeeper.systems.gurps.injury import take_injury

    if amount <= 0:
        return
    char = play.char(actor)
    if char.dead:
        return
    if char.fp == 0:
        # FP 0: a being that never tires (a flaming skull); fatigue cannot be lost, nor spent for
        # HP instead (docs/systems/gurps.md, "Attributes of 0")
        play.explain(f"{actor} has FP 0: fatigue does not touch it", rule, actor=actor)
        return
    fp, hp_cost = fp_loss(char.fp, char.current_fp, amount)
    play.put(actor, evolve(char, current_fp=fp))
    play.explain(
        f"{actor} loses {char.current_fp - fp} FP ({char.current_fp} -> {fp} of {char.fp})",
        rule,
        actor=actor,
    )
    play.result["fp"] = fp
    play.result["fp_lost"] = play.result.get("fp_lost", 0) + (char.current_fp - fp)
    sync_thresholds(play, actor)
    if fp <= -char.fp and not is_unconscious_from(play, actor, "fatigue"):
        fall_unconscious(
            play,
            actor,
            FATIGUE_UNCONSCIOUS,
            "fatigue",
            f"{actor} reaches -{char.fp} FP (-1 x FP) and falls unconscious; FP go no lower",
        )
    if hp_cost:
        play.explain(
            f"{actor} is at 0 FP or below: the fatigue also costs {hp_cost} HP",
            FATIGUE,
            actor=actor,
        )
        take_injury(play, actor, hp_cost, FATIGUE, wound=False)


def recover_fp(play: Play[GurpsCharacter], actor: str, amount: int, rule: Rule = FATIGUE_RECOVERY) -> None:
    """Give back FP (never above the maximum); positive FP ends a collapse and wakes a fatigued sleeper."""
    char = play.char(actor)
    if char.dead or amount <= 0:
        return
    fp = min(char.fp, char.current_fp + amount)
    play.put(actor, evolve(char, current_fp=fp))
    play.explain(
        f"{actor} regains {fp - char.current_fp} FP ({char.current_fp} -> {fp} of {char.fp})", rule, actor=actor
    )
    play.result["fp"] = fp
    sync_thresholds(play, actor)
    if fp > 0:
        if play.has(actor, "collapsed"):
            play.remove_condition(actor, "collapsed", FATIGUE_COLLAPSE)
        if is_unconscious_from(play, actor, "fatigue"):
            wake_from(play, actor, "fatigue", FATIGUE_UNCONSCIOUS, f"{actor} is back to positive FP and wakes")


def needs_will_to_act(char: GurpsCharacter) -> bool:
    """At 0 FP or less, anything but talking or resting takes a Will roll."""
    return char.fp > 0 and char.current_fp <= 0 and not char.dead


def ask_will_to_act(play: Play[GurpsCharacter], actor: str, doing: str) -> None:
    """Will roll to act at 0 FP or less; failure means collapse (applied in :func:`on_fatigue_check`)."""
    char = play.char(actor)
    ask_success_roll(
        play,
        kind="gurps.will.collapse",
        label=f"{actor} Will to {doing} at {char.current_fp} FP",
        base=char.will,
        purpose="collapse",
        rule=FATIGUE_COLLAPSE,
        actor=actor,
        data={"doing": doing},
    )


def wait_for_will(play: Play[GurpsCharacter], pending: PendingCheck, action: str, params: Params) -> None:
    """``action`` (an attack) given while its character's Will roll to act is left for the table
    waits for that roll: it goes ahead when the roll succeeds, and never if the character
    collapses -- as it would have, had the engine rolled the Will roll at once."""
    actor = str(pending.actor)
    then = [*pending.data.get("then", ()), {"action": action, "params": params.as_json()}]
    held = evolve(pending, data={**pending.data, "then": then})
    play.state = evolve(play.state, pending=tuple(held if p.id == pending.id else p for p in play.state.pending))
    play.explain(
        f"{actor}'s {action} waits for the Will roll to act (pending check #{pending.id})",
        FATIGUE_COLLAPSE,
        actor=actor,
        pending=pending.id,
    )


def will_to_act_waiting(play: Play[GurpsCharacter], actor: str) -> PendingCheck | None:
    """``actor``'s Will roll to act at 0 FP or less, if one is left for the table."""
    return next((p for p in play.state.pending if p.purpose == "collapse" and p.actor == actor), None)


_DOING = {"attack": "attacking"}


def on_fatigue_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    char = play.char(actor)
    if pending.purpose != "collapse" or char.dead:
        return
    then = pending.data.get("then", ())
    if result.success:
        play.explain(f"{actor} pushes on and may {pending.data.get('doing', 'act')}", FATIGUE_COLLAPSE, actor=actor)
        for step in then:  # what waited for the roll goes ahead now, in the order it was given
            spec = play.ruleset.actions()[str(step["action"])]
            params = validate_params(spec.params, dict(step["params"]), f"action {spec.name}")
            spec.handler(play, Call(spec.name, actor, params))
        return
    if char.current_fp > 0:
        return  # rested back above 0 FP before the dice were in
    collapse(play, actor)
    for step in then:  # worded as when the engine rolled the Will roll before the attack
        doing = _DOING.get(str(step["action"]), f"the {step['action']}")
        play.explain(f"{actor} collapses instead of {doing}", FATIGUE_COLLAPSE, actor=actor)


def collapse(play: Play[GurpsCharacter], actor: str) -> None:
    """A failed Will roll at 0 FP or less: the character collapses (seed 004, Lost Fatigue Points)."""
    char = play.char(actor)
    play.put(actor, evolve(char, turn=evolve(char.turn, maneuver="do-nothing", attacks_allowed=0, option=None)))
    play.add_condition(
        actor,
        "collapsed",
        FATIGUE_COLLAPSE,
        text=f"{actor} collapses, incapacitated, and can do nothing until FP are positive again",
    )
    play.result["collapsed"] = True


#: Fatigue (seed 004, "Fatigue"): the Will roll at 0 FP or less.
FATIGUE_SECTION = Section("fatigue", checks=(CheckSpec("collapse", on_fatigue_check, check_stakes),), skip_orphans=True)
