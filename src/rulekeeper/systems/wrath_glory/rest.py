"""Resting (seed 003, Resting): the one-hour Regroup with its Medicae healing, and the six-hour Respite.

A rest in progress is stored on the sheet and ends through a timer, so time passing (``advance``)
completes it. Readings:

* Regroup healing is the healer's Medicae (Int) pool size in Wounds (option ``regroup_healing``
  switches to the Icons a Medicae roll scores); the healer treats one character per Regroup.
* An hour or more of strenuous activity restarts a Respite from the moment it is logged; less does not.
* Light activity beyond the allowance (option ``respite_light_hours``, default 2) is not rest,
  so it pushes the end of the Respite back by the excess.
* A Respite during which the character is Dying at any moment fails (no Respite while Dying), even
  if they are healed before it ends: :func:`note_dying` marks the rest whenever Dying begins.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.check import CheckResult
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import HOUR, format_duration
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.wrath_glory import citations, conditions, formulas, options
from rulekeeper.systems.wrath_glory.character import RestInProgress, RestKind
from rulekeeper.systems.wrath_glory.recovery import recover
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.stakes import MEDICAE_STAKES

__all__ = [
    "MEDICAE_KIND",
    "MEDICAE_PURPOSE",
    "REST_SECONDS",
    "REST_SECTION",
    "REST_TIMER",
    "STRENUOUS_INTERRUPTS",
    "end_rest",
    "light_activity",
    "note_dying",
    "on_medicae",
    "on_rest_timer",
    "start_rest",
    "strenuous_activity",
]

REST_SECONDS = {RestKind.REGROUP: 1 * HOUR, RestKind.RESPITE: 6 * HOUR}
STRENUOUS_INTERRUPTS = 1 * HOUR
REST_TIMER = "wg.rest"
MEDICAE_KIND = "wg.medicae"
MEDICAE_PURPOSE = "regroup-medicae"


def _rule(kind: RestKind) -> Rule:
    return citations.REGROUP if kind is RestKind.REGROUP else citations.RESPITE


def start_rest(play: WGPlay, actor: str, kind: RestKind, healer: str | None) -> None:
    character = play.char(actor)
    if character.rest is not None:
        raise RuleRefusal(
            f"{actor} is already in a {character.rest.kind.value} until "
            f"{format_duration(character.rest.ends)}; end it first (seed 003, Resting)"
        )
    if kind is RestKind.RESPITE and character.dying:
        raise RuleRefusal(f"{actor} cannot take a Respite while Dying (seed 003, Resting: Respite)")
    if healer is not None:
        if kind is not RestKind.REGROUP:
            raise RuleRefusal(
                "a healer treats a character during a Regroup, not a Respite (seed 003, Resting: Regroup)"
            )
        _check_healer(play, actor, healer)
    _begin(play, actor, kind, healer)


def _check_healer(play: WGPlay, actor: str, healer: str) -> None:
    medic = play.char(healer)
    if medic.dead:
        raise RuleRefusal(f"{healer} is dead and can heal no one")
    if medic.medicae < 1:
        raise RuleRefusal(
            f"{healer} has no Medicae rating, so cannot heal during a Regroup (seed 003, Resting: Regroup)"
        )
    if medic.dying:
        raise RuleRefusal(
            f"{healer} is Dying and may only crawl, take a basic combat action or fall back "
            "(seed 003, Actions Whilst Dying)"
        )
    for other, sheet in play.state.characters.items():
        if other != actor and sheet.rest is not None and sheet.rest.healer == healer:
            raise RuleRefusal(
                f"{healer} is already treating {other} in this Regroup; one character per Regroup "
                "(seed 003, Resting: Regroup)"
            )


def _begin(play: WGPlay, actor: str, kind: RestKind, healer: str | None, *, ends: int | None = None) -> None:
    clock = play.now
    due = clock + REST_SECONDS[kind] if ends is None else ends
    timer = play.schedule(due - clock, REST_TIMER, f"{actor}'s {kind.value} completes", actor=actor)
    character = play.char(actor)
    previous = character.rest
    rest = RestInProgress(
        kind=kind,
        started=clock if previous is None or ends is None else previous.started,
        ends=due,
        timer=timer.id,
        light_seconds=0 if previous is None or ends is None else previous.light_seconds,
        healer=healer,
        dying_during=character.dying or (previous is not None and ends is not None and previous.dying_during),
    )
    play.put(actor, replace(character, rest=rest))
    if not play.has(actor, conditions.RESTING):
        play.add_condition(actor, conditions.RESTING, _rule(kind), text=f"{actor} begins a {kind.value}")
    if ends is None:
        who = f", treated by {healer}" if healer else ""
        play.explain(
            f"{actor}'s {kind.value} will complete after {format_duration(due - clock)}{who}", _rule(kind), actor=actor
        )
    play.result.update(rest=kind.value, rest_ends=due)


def _stop(play: WGPlay, actor: str) -> None:
    play.cancel_timers(actor=actor, kind=REST_TIMER)
    play.put(actor, replace(play.char(actor), rest=None))
    play.remove_condition(actor, conditions.RESTING, quiet=True)


def end_rest(play: WGPlay, actor: str) -> None:
    rest = play.char(actor).rest
    if rest is None:
        raise RuleRefusal(f"{actor} is not resting")
    _stop(play, actor)
    play.explain(f"{actor} breaks off the {rest.kind.value}; nothing is restored", _rule(rest.kind), actor=actor)
    play.result["rest"] = None


def strenuous_activity(play: WGPlay, actor: str, seconds: int) -> None:
    rest = play.char(actor).rest
    restarts = rest is not None and rest.kind is RestKind.RESPITE and seconds >= STRENUOUS_INTERRUPTS
    play.result["respite_restarted"] = restarts
    if rest is None or rest.kind is not RestKind.RESPITE:
        play.explain(
            f"{actor} is not in a Respite; strenuous activity interrupts nothing", citations.RESPITE, actor=actor
        )
        return
    if not restarts:
        play.explain(
            f"{format_duration(seconds)} of strenuous activity is less than an hour; the Respite goes on",
            citations.RESPITE,
            actor=actor,
        )
        return
    play.explain(
        f"{format_duration(seconds)} of strenuous activity interrupts {actor}'s Respite: it must begin again",
        citations.RESPITE,
        actor=actor,
    )
    play.cancel_timers(actor=actor, kind=REST_TIMER)
    play.put(actor, replace(play.char(actor), rest=None))
    _begin(play, actor, RestKind.RESPITE, None)


def light_activity(play: WGPlay, actor: str, seconds: int) -> None:
    rest = play.char(actor).rest
    if rest is None or rest.kind is not RestKind.RESPITE:
        play.explain(f"{actor} is not in a Respite; light activity changes nothing", citations.RESPITE, actor=actor)
        return
    allowance = options.light_activity_allowance(play)
    before = max(0, rest.light_seconds - allowance)
    used = rest.light_seconds + seconds
    extension = max(0, used - allowance) - before
    play.result.update(light_activity=used, respite_extended=extension)
    if extension == 0:
        play.explain(
            f"{actor} spends {format_duration(seconds)} on light activity ({format_duration(used)} of the "
            f"{format_duration(allowance)} a Respite allows)",
            citations.RESPITE,
            actor=actor,
        )
        play.put(actor, replace(play.char(actor), rest=replace(rest, light_seconds=used)))
        return
    play.explain(
        f"light activity passes the {format_duration(allowance)} a Respite allows; the Respite ends "
        f"{format_duration(extension)} later",
        citations.rule("Resting: Respite", reading="light activity past the allowance is not rest and extends it"),
        actor=actor,
    )
    play.cancel_timers(actor=actor, kind=REST_TIMER)
    play.put(actor, replace(play.char(actor), rest=replace(rest, light_seconds=used)))
    _begin(play, actor, RestKind.RESPITE, None, ends=rest.ends + extension)


def note_dying(play: WGPlay, actor: str) -> None:
    """Remember on a Respite in progress that the character was Dying during it."""
    character = play.char(actor)
    rest = character.rest
    if character.dying and rest is not None and rest.kind is RestKind.RESPITE and not rest.dying_during:
        play.put(actor, replace(character, rest=replace(rest, dying_during=True)))
        play.explain(f"{actor} is Dying: this Respite can no longer restore anything", citations.RESPITE, actor=actor)


def on_rest_timer(play: WGPlay, timer: Timer) -> None:
    actor = timer.actor
    if actor is None or actor not in play.state.characters:
        return
    rest = play.char(actor).rest
    if rest is None or rest.timer != timer.id:
        return  # a stale timer from a rest that was restarted or broken off
    _stop(play, actor)
    play.result["rest_completed"] = rest.kind.value
    if rest.kind is RestKind.RESPITE:
        _complete_respite(play, actor, rest)
    else:
        _complete_regroup(play, actor, rest.healer)


def _complete_respite(play: WGPlay, actor: str, rest: RestInProgress) -> None:
    character = play.char(actor)
    if character.dead:
        return
    if character.dying or rest.dying_during:
        when = "is Dying" if character.dying else "was Dying during it"
        play.explain(
            f"{actor} {when}, so the Respite restores nothing",
            citations.rule("Resting: Respite", reading="no Respite if Dying at any point during the six hours"),
            actor=actor,
        )
        play.result["rest_completed"] = None
        return
    play.put(actor, replace(character, wounds=0, shock=0, wrath=formulas.WRATH_AFTER_RESPITE))
    play.explain(
        f"{actor} completes a Respite: Wounds {character.wounds} -> 0, Shock {character.shock} -> 0, "
        f"Wrath {character.wrath} -> {formulas.WRATH_AFTER_RESPITE}",
        citations.RESPITE,
        actor=actor,
    )
    play.result.update(wounds=0, shock=0, wrath=formulas.WRATH_AFTER_RESPITE)
    conditions.sync_conditions(play, actor)


def _complete_regroup(play: WGPlay, actor: str, healer: str | None) -> None:
    play.explain(f"{actor} completes a Regroup", citations.REGROUP, actor=actor)
    if healer is None or play.char(actor).dead:
        return
    medic = play.char(healer)
    if medic.dead or medic.dying:
        play.explain(f"{healer} can no longer treat {actor}", citations.REGROUP, actor=actor)
        return
    pool = medic.medicae_pool
    if options.regroup_heals_icons(play):
        play.check(
            PoolTest(kind=MEDICAE_KIND, label=f"{healer}'s Medicae (Int) for {actor}", pool=pool, dn=1),
            purpose=MEDICAE_PURPOSE,
            rule=citations.rule("Resting: Regroup", reading="Wounds healed equal the Icons rolled (option)"),
            actor=actor,
            data={"healer": healer},
        )
        return
    play.explain(
        f"{healer}'s Medicae (Int) pool is {pool} (Intellect {medic.intellect} + Medicae {medic.medicae}): "
        f"{actor} regains {pool} Wound(s)",
        citations.rule("Resting: Regroup", reading="pool size, not Icons rolled (option regroup_healing)"),
        actor=actor,
    )
    recover(play, actor, pool, 0, citations.REGROUP)


def on_medicae(play: WGPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or play.char(actor).dead:
        return
    play.explain(f"{result.total} Icon(s): {actor} regains {result.total} Wound(s)", citations.REGROUP, actor=actor)
    recover(play, actor, result.total, 0, citations.REGROUP)


#: Regroup and Respite (seed 003): rests that run their course, and the Regroup Medicae roll.
REST_SECTION = Section(
    "respite",
    check_kinds=(
        CheckKind(MEDICAE_KIND, "Regroup Medicae (Int) roll, used only when option regroup_healing is 'icons'"),
    ),
    checks=(CheckSpec(MEDICAE_PURPOSE, on_medicae, MEDICAE_STAKES),),
    timers=(TimerSpec(REST_TIMER, on_rest_timer),),
)
