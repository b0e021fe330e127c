"""Rolls each turn: recovering from stun, and staying conscious at 0 HP or below.

Seed 004, "Stunning" (Lite p. 30) and "Do Nothing": a stunned character rolls HT (IQ for mental
stun) at the end of each turn and recovers on a success. "General Damage": at 0 HP or below, an
HT roll each turn to stay conscious. A turn is one second; each roll is a timer that the
result of the last roll schedules again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.section import CheckSpec, Section, TimerSpec
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.injury import ask_consciousness_roll, shock_modifier
from rulekeeper.systems.gurps.rules import STUN
from rulekeeper.systems.gurps.stakes import check_stakes

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import Condition, PendingCheck, Timer
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["STUN_SECTION", "on_stun_check", "on_stun_timer", "on_turn_timer"]


def on_stun_timer(play: Play[GurpsCharacter], timer: Timer) -> None:
    actor = timer.actor
    assert actor is not None
    cond = play.state.condition(actor, "stunned")
    if cond is None or play.char(actor).dead:
        return
    char = play.char(actor)
    mental = cond.data.get("kind") == "mental"
    # Recovering from mental stun is an IQ roll, so shock applies to it (seed 004, Shock); HT does not.
    shock = shock_modifier(play, actor) if mental else None
    ask_success_roll(
        play,
        kind="gurps.stun",
        label=f"{actor} {'IQ' if mental else 'HT'} to recover from stun",
        base=char.iq if mental else char.ht,
        modifiers=() if shock is None else (shock,),
        purpose="stun-recovery",
        rule=STUN,
        actor=actor,
    )


def on_stun_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    if not play.has(actor, "stunned"):
        return
    if result.success:
        play.remove_condition(actor, "stunned", STUN)
        play.cancel_timers(actor=actor, kind="gurps.stun")
    else:
        play.explain(f"{actor} is still stunned and must Do Nothing another turn", STUN, actor=actor)
        play.schedule(1, "gurps.stun", f"{actor}: roll to recover from stun", actor=actor)


def on_turn_timer(play: Play[GurpsCharacter], timer: Timer) -> None:
    actor = timer.actor
    assert actor is not None
    if play.has(actor, "fading") and not play.char(actor).dead:
        ask_consciousness_roll(play, actor)


def on_stun_end(play: Play[GurpsCharacter], condition: Condition) -> None:
    """A timed stun ran out: its recovery rolls stop."""
    play.cancel_timers(actor=condition.actor, kind="gurps.stun")


#: Stun and the turn-by-turn rolls of a character at 0 HP or below (seed 004, "Injuries").
STUN_SECTION = Section(
    "stun",
    checks=(CheckSpec("stun-recovery", on_stun_check, check_stakes),),
    timers=(TimerSpec("gurps.stun", on_stun_timer), TimerSpec("gurps.consciousness", on_turn_timer)),
    condition_end={"stunned": on_stun_end},
    skip_orphans=True,
)
