"""Recovery over time: waking up, regaining FP by rest, and the daily HP roll.

* Waking (seed 004, "Recovering from Unconsciousness"): 1+ HP wakes after 15 minutes; 0 HP to
  above -HP rolls HT every hour; -HP or below rolls once after 12 hours, and on a failure cannot
  wake without medical treatment and rolls HT every 12 hours, dying on a failure.
* FP (seed 004, "Recovering from Fatigue"): 1 FP per 10 minutes of rest, 1 more for a meal; a
  character knocked out by fatigue recovers at the same rate.
* HP (seed 004, "Natural Recovery"): at the end of each day of rest, HT for 1 HP.

Every recurring roll is a timer; a failed roll schedules the next one from its result, so a
table that types in its dice never has a pile of rolls waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekeeper.core.check import Modifier
from rulekeeper.core.clock import DAY, HOUR, MINUTE, WEEK
from rulekeeper.core.section import CheckSpec, Section, TimerSpec
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.rules import DEATH, FATIGUE_RECOVERY, NATURAL_RECOVERY, UNCONSCIOUS_RECOVERY
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.status import die, is_unconscious_from, living_actor, wake_from
from rulekeeper.systems.gurps.thresholds import wake_band
from rulekeeper.systems.gurps.waking import WAKE_DELAYS, schedule_fp_recovery, schedule_wake

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck, Timer
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = [
    "RECOVERY_SECTION",
    "REST_KINDS",
    "WAKE_DELAYS",
    "interrupt_rest",
    "schedule_fp_recovery",
    "schedule_wake",
    "start_rest",
]

REST_KINDS: dict[str, int] = {"short": 10 * MINUTE, "hour": HOUR, "night": 8 * HOUR, "day": DAY, "week": WEEK}


def start_rest(play: Play[GurpsCharacter], actor: str, kind: str, *, meal: bool, modifier: int) -> None:
    """Rest quietly for a while: FP come back every 10 minutes, HP by a daily HT roll."""
    seconds = REST_KINDS[kind]
    char = play.char(actor)
    interrupt_rest(play, actor, quiet=True)
    until = play.now + seconds
    play.add_condition(
        actor,
        "resting",
        FATIGUE_RECOVERY,
        data={"until": until, "meal": meal, "modifier": modifier, "kind": kind},
        text=f"{actor} rests ({kind}, {seconds // 60} minutes){' with a decent meal' if meal else ''}",
    )
    play.schedule(seconds, "gurps.rest-end", f"{actor} stops resting", actor=actor)
    schedule_fp_recovery(play, actor)
    if seconds >= DAY and char.current_hp < char.hp and not play.state.timers_of(actor, "gurps.natural-recovery"):
        play.schedule(DAY, "gurps.natural-recovery", f"{actor}: daily HT roll to regain 1 HP", actor=actor)
    play.result["resting_until"] = until


def interrupt_rest(play: Play[GurpsCharacter], actor: str, *, quiet: bool = False) -> None:
    """Anything more strenuous than talking or reading ends a rest (seed 004, "Recovering from Fatigue")."""
    if not play.has(actor, "resting"):
        return
    play.remove_condition(actor, "resting", None if quiet else FATIGUE_RECOVERY, quiet=quiet)
    play.cancel_timers(actor=actor, kind="gurps.rest-end")
    play.cancel_timers(actor=actor, kind="gurps.natural-recovery")
    if not is_unconscious_from(play, actor, "fatigue"):
        play.cancel_timers(actor=actor, kind="gurps.fp-recovery")


def _fp_tick(play: Play[GurpsCharacter], actor: str) -> None:
    from rulekeeper.systems.gurps.fatigue import recover_fp

    resting = play.state.condition(actor, "resting")
    if resting is None and not is_unconscious_from(play, actor, "fatigue"):
        return
    amount = 1
    if resting is not None and resting.data.get("meal"):
        amount += 1
        data = dict(resting.data)
        data["meal"] = False
        play.add_condition(actor, "resting", FATIGUE_RECOVERY, data=data, text=f"{actor}'s meal gives back 1 extra FP")
    recover_fp(play, actor, amount, FATIGUE_RECOVERY)
    schedule_fp_recovery(play, actor)


def _alive(
    step: Callable[[Play[GurpsCharacter], str, GurpsCharacter, Timer], None],
) -> Callable[[Play[GurpsCharacter], Timer], None]:
    """A recovery timer of a character's, with the character: nothing recovers a dead one."""

    def run(play: Play[GurpsCharacter], timer: Timer) -> None:
        actor = timer.actor
        assert actor is not None
        char = play.char(actor)
        if not char.dead:
            step(play, actor, char, timer)

    return run


# -- timers ---------------------------------------------------------------------------------
@_alive
def _fp_recovery_due(play: Play[GurpsCharacter], actor: str, char: GurpsCharacter, timer: Timer) -> None:
    _fp_tick(play, actor)


@_alive
def _rest_ends(play: Play[GurpsCharacter], actor: str, char: GurpsCharacter, timer: Timer) -> None:
    # A tick due this very second belongs to the rest that is ending.
    ticks = {"gurps.fp-recovery": _fp_recovery_due, "gurps.natural-recovery": _natural_recovery_due}
    for due in play.state.timers_of(actor):
        if due.due <= play.now and due.kind in ticks:
            play.cancel_timers(actor=actor, kind=due.kind)
            ticks[due.kind](play, due)
    interrupt_rest(play, actor)


@_alive
def _natural_recovery_due(play: Play[GurpsCharacter], actor: str, char: GurpsCharacter, timer: Timer) -> None:
    resting = play.state.condition(actor, "resting")
    if resting is None:
        return
    ask_success_roll(
        play,
        kind="gurps.natural-recovery",
        label=f"{actor} HT to regain 1 HP after a day of rest",
        base=char.ht,
        modifiers=(Modifier(int(resting.data.get("modifier", 0)), "conditions of rest"),),
        purpose="natural-recovery",
        rule=NATURAL_RECOVERY,
        actor=actor,
    )
    char = play.char(actor)
    if int(resting.data.get("until", 0)) >= play.now + DAY and char.current_hp < char.hp:
        play.schedule(DAY, "gurps.natural-recovery", f"{actor}: daily HT roll to regain 1 HP", actor=actor)


@_alive
def _wake_due(play: Play[GurpsCharacter], actor: str, char: GurpsCharacter, timer: Timer) -> None:
    if not is_unconscious_from(play, actor, "injury"):
        return
    band = wake_band(char.hp, char.current_hp)
    if band == "15 minutes":
        wake_from(play, actor, "injury", UNCONSCIOUS_RECOVERY, f"{actor} has {char.current_hp} HP and wakes up")
    elif band == "12 hours" and timer.data.get("band") != "12 hours":
        # Hurt further while out: the slow band's single roll comes 12 hours from now.
        schedule_wake(play, actor)
    else:
        ask_success_roll(
            play,
            kind="gurps.wake",
            label=f"{actor} HT to wake ({band})",
            base=char.ht,
            purpose="wake",
            rule=UNCONSCIOUS_RECOVERY,
            actor=actor,
            data={"band": band},
        )


@_alive
def _untreated_due(play: Play[GurpsCharacter], actor: str, char: GurpsCharacter, timer: Timer) -> None:
    ask_success_roll(
        play,
        kind="gurps.death",
        label=f"{actor} HT to survive another 12 hours untreated",
        base=char.ht,
        purpose="untreated",
        rule=UNCONSCIOUS_RECOVERY,
        actor=actor,
    )


# -- checks ---------------------------------------------------------------------------------
def _natural_recovery_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    from rulekeeper.systems.gurps.injury import heal

    actor = living_actor(play, pending)
    if actor is None:
        return
    if result.success:
        heal(play, actor, 1, NATURAL_RECOVERY)
    else:
        play.explain(f"{actor} regains no HP today", NATURAL_RECOVERY, actor=actor)


def _wake_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is None or not is_unconscious_from(play, actor, "injury"):
        return
    if result.success:
        wake_from(play, actor, "injury", UNCONSCIOUS_RECOVERY, f"{actor} wakes up at {play.char(actor).current_hp} HP")
    elif pending.data.get("band") == "12 hours":
        play.add_condition(
            actor,
            "needs treatment",
            UNCONSCIOUS_RECOVERY,
            text=f"{actor} cannot wake without medical treatment and must roll HT every 12 hours or die",
        )
        schedule_wake(play, actor)
    else:
        play.explain(f"{actor} stays unconscious for another hour", UNCONSCIOUS_RECOVERY, actor=actor)
        schedule_wake(play, actor)


def _untreated_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is None or not play.has(actor, "needs treatment"):
        return
    if result.success:
        play.explain(f"{actor} survives another 12 hours untreated", UNCONSCIOUS_RECOVERY, actor=actor)
        schedule_wake(play, actor)
    else:
        die(play, actor, DEATH, "failed the 12-hourly HT roll while untreated")


#: Recovery over time (seed 004, "Recovery"): waking, FP by rest, the daily HP roll.
RECOVERY_SECTION = Section(
    "recovery",
    checks=(
        CheckSpec("natural-recovery", _natural_recovery_rolled, check_stakes),
        CheckSpec("wake", _wake_rolled, check_stakes),
        CheckSpec("untreated", _untreated_rolled, check_stakes),
    ),
    timers=(
        TimerSpec("gurps.fp-recovery", _fp_recovery_due),
        TimerSpec("gurps.rest-end", _rest_ends),
        TimerSpec("gurps.natural-recovery", _natural_recovery_due),
        TimerSpec("gurps.wake", _wake_due),
        TimerSpec("gurps.untreated", _untreated_due),
    ),
    skip_orphans=True,
)
