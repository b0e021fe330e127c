"""Suffocating over game time: the buffer, then health rolls each minute (see :mod:`.suffocation`).

The ``suffocating`` condition holds the count of rolls made so far; the ``gm.c.suffocation``
timer brings each roll (``gm.suffocation`` checks). ``breathe`` ends it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.clock import format_duration
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.playing import (
    ask,
    c_roll,
    drop_pending_where,
    refuse_if_dead,
    round_length,
    set_condition_data,
)
from rulekeeper.systems.gods_monsters.consequences.sections import SUFFOCATION, c_rule
from rulekeeper.systems.gods_monsters.consequences.suffocation import (
    suffocation_buffer_rounds,
    suffocation_interval,
    suffocation_modifier,
)
from rulekeeper.systems.gods_monsters.damage import add_injuries

__all__ = [
    "BREATH_KIND",
    "BREATH_PURPOSE",
    "SUFFOCATING",
    "SUFFOCATION_ACTIONS",
    "SUFFOCATION_PURPOSE",
    "SUFFOCATION_SECTION",
    "SUFFOCATION_TIMER",
    "on_breath_roll",
    "on_suffocation_check",
    "on_suffocation_timer",
]

SUFFOCATING = "suffocating"
SUFFOCATION_TIMER = "gm.c.suffocation"
SUFFOCATION_PURPOSE = "c.suffocation"
BREATH_PURPOSE = "c.suffocation.breath"
BREATH_KIND = "gm.suffocation.breath"


def _suffocate(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_dead(play, actor, "suffocate")
    if play.has(actor, SUFFOCATING):
        raise RuleRefusal(f"{actor} is already without air")
    params = action.params
    prepared = params.bool("prepared")
    at_rest = params.bool("at_rest")
    contributor = params.int("contributor")
    cite = c_rule(SUFFOCATION)
    data = {"prepared": prepared, "at_rest": at_rest, "contributor": contributor}
    if prepared:
        _hold_breath(play, actor, data, None)
        return
    play.roll_check(
        DiceRoll(kind=BREATH_KIND, label=f"{actor}'s breath, caught unprepared (rounds)", notation="1d4"),
        purpose=BREATH_PURPOSE,
        rule=cite,
        actor=actor,
        data=data,
        stakes=Stakes(
            purpose=f"how long {actor}, caught without a breath, can go before suffocating",
            on_success=f"{actor} has that many rounds{contributor:+d} of buffer"
            + (", doubled at rest" if at_rest else "")
            + " before the health rolls begin",
        ),
    )


def on_breath_roll(play: Play[GmCharacter], pending: PendingCheck, rolled: CheckResult) -> None:
    """The unprepared d4 is in: the buffer starts."""
    actor = str(pending.actor)
    if cond.is_dead(play, actor) or play.has(actor, SUFFOCATING):
        return
    _hold_breath(play, actor, pending.data, rolled.total)


def _hold_breath(play: Play[GmCharacter], actor: str, data: Mapping[str, Any], d4: int | None) -> None:
    # ``data`` is the check's stored JSON (or the handler's typed values), not an action's params.
    prepared, at_rest, contributor = bool(data["prepared"]), bool(data["at_rest"]), int(data["contributor"])
    character = play.char(actor)
    rounds = suffocation_buffer_rounds(
        endurance=character.endurance, prepared=prepared, d4=d4, contributor=contributor, at_rest=at_rest
    )
    how = f"endurance {character.endurance}" if prepared else f"d4 {d4}{contributor:+d}"
    rest = ", doubled at rest" if at_rest else ""
    play.add_condition(
        actor,
        SUFFOCATING,
        c_rule(SUFFOCATION, reading="the unprepared buffer's endurance contributor is a table-supplied modifier"),
        data={"rolls": 0, "at_rest": at_rest, "buffer_rounds": rounds},
        text=f"{actor} has no air: {rounds} rounds of buffer ({how}{rest}), acting normally meanwhile",
    )
    play.schedule(
        rounds * round_length(play),
        SUFFOCATION_TIMER,
        f"{actor} suffocates: health roll",
        actor=actor,
    )
    play.result["suffocation"] = {"buffer_rounds": rounds, "at_rest": at_rest}


def on_suffocation_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    if actor is None or actor not in play.state.characters or cond.is_dead(play, actor):
        return
    condition = play.state.condition(actor, SUFFOCATING)
    if condition is None:
        return
    rolls = int(condition.data.get("rolls", 0))
    at_rest = bool(condition.data.get("at_rest", False))
    data = dict(condition.data)
    data["rolls"] = rolls + 1
    set_condition_data(play, actor, SUFFOCATING, data)
    interval = suffocation_interval(at_rest=at_rest)
    play.schedule(interval, SUFFOCATION_TIMER, f"{actor} suffocates: health roll", actor=actor)
    modifier = suffocation_modifier(rolls)
    mods = [Modifier(modifier, f"{rolls} earlier roll{'s' if rolls != 1 else ''}")] if modifier else []
    cite = c_rule(SUFFOCATION)
    play.explain(
        f"{actor} is out of breath: health roll now, the next in {format_duration(interval)}", cite, actor=actor
    )
    check = c_roll(play, actor, kind="gm.suffocation", score="health", modifiers=mods)
    ask(play, actor, check, purpose=SUFFOCATION_PURPOSE, rule=cite, data={"roll": rolls + 1})


def on_suffocation_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    if cond.is_dead(play, actor):
        return
    cite = c_rule(SUFFOCATION)
    play.result["suffocation"] = {"roll": pending.data.get("roll"), "success": result.success}
    if result.success:
        play.explain(f"{actor} holds on", cite, actor=actor)
        return
    play.explain(f"{actor} suffocates: one injury", cite, actor=actor)
    add_injuries(play, actor, 1, cite)


def _breathe(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    if not play.remove_condition(actor, SUFFOCATING, c_rule(SUFFOCATION)):
        if not any(p.actor == actor and p.purpose == BREATH_PURPOSE for p in play.state.pending):
            raise RuleRefusal(f"{actor} is not suffocating")
        # air before the unprepared d4 was even typed: the buffer it would size never starts
        drop_pending_where(play, actor, BREATH_PURPOSE)
    play.cancel_timers(actor=actor, kind=SUFFOCATION_TIMER)
    drop_pending_where(play, actor, SUFFOCATION_PURPOSE)
    play.result["suffocation"] = {"ended": True}


SUFFOCATION_ACTIONS: dict[str, ActionSpec] = {
    "suffocate": ActionSpec(
        "suffocate",
        "Lose the air supply: a buffer, then a health roll each minute at growing penalties (seed 002, suffocation)",
        _suffocate,
        params=(
            ParamSpec("prepared", "bool", "took a deep breath: endurance rounds of buffer (else d4)", default=True),
            ParamSpec("at_rest", "bool", "completely inactive and at rest: times doubled", default=False),
            ParamSpec(
                "contributor",
                "int",
                "endurance's minor-contributor modifier to an unprepared buffer "
                "(unconfirmed formula; the table supplies it)",
                default=0,
                minimum=-10,
                maximum=10,
            ),
        ),
        kind="condition",
    ),
    "breathe": ActionSpec("breathe", "Air again: suffocation ends", _breathe, kind="heal"),
}


#: Suffocation (seed 002).
SUFFOCATION_SECTION = Section(
    "suffocation",
    actions=SUFFOCATION_ACTIONS,
    check_kinds=(
        CheckKind("gm.suffocation", "health roll while suffocating"),
        CheckKind(BREATH_KIND, "the d4 rounds of breath of a character caught unprepared without air"),
    ),
    checks=(CheckSpec(SUFFOCATION_PURPOSE, on_suffocation_check), CheckSpec(BREATH_PURPOSE, on_breath_roll)),
    timers=(TimerSpec(SUFFOCATION_TIMER, on_suffocation_timer),),
)
