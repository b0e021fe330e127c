"""Death: the end-of-round death check, the contested death roll, the dying timer, doom and death.

Seed 000, "A time to die" (readings in the rules brief and docs/systems/gods-and-monsters.md):

* At the end of a round in which a character gained injuries, if the injury total exceeds
  current survival (plus current verve when the latest injuries were archetypal), a death roll
  is made: a contest in which the injuries act (d20 at most the injury total) and endurance
  resists (endurance, minus the injury penalty, +2 while unconscious or semi-conscious, plus
  any relevant field bonus). The injuries prevail only if their roll succeeds and endurance fails.
* Prevailing injuries start the dying timer: endurance minus injuries minutes, which become
  hours once the character is unconscious. Reaching 0 injuries cancels it. When it runs out the
  character is doomed: they die at the end of the scene, and may make one heroic last effort.

The round ends at the next multiple of the round length (10 s, seed 002 "Suffocation": six
rounds make a minute). One timer per character and round carries everything due then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.clock import HOUR, MINUTE, format_duration
from rulekeeper.core.play import Play
from rulekeeper.core.roll_under import ActingContest, RollUnder
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import stakes
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.checks import NATURAL_EXTREMES_OPTION, gm_roll
from rulekeeper.systems.gods_monsters.rules import TIME_TO_DIE, rule

__all__ = [
    "DEATH_TIMER",
    "DYING_SECTION",
    "ROUND_END_TIMER",
    "cancel_dying",
    "death_check_needed",
    "die",
    "dying_minutes",
    "on_death_roll",
    "on_death_timer",
    "round_seconds",
    "schedule_round_end",
    "slow_dying",
    "start_dying",
]

ROUND_END_TIMER = "gm.round-end"
DEATH_TIMER = "gm.death"
UNCONSCIOUS_DEATH_BONUS = 2  # seed 000, "A time to die"


def round_seconds(play: Play[Any]) -> int:
    return int(play.option("round_seconds", 10))


def dying_minutes(endurance: int, injuries: int) -> int:
    """How long the dying timer runs: endurance minus injuries (minutes, or hours if unconscious)."""
    return endurance - injuries


def death_check_needed(character: GmCharacter, *, archetypal: bool) -> bool:
    """Injuries above survival, plus verve when the latest injuries were archetypal."""
    cushion = character.survival + (character.verve if archetypal else 0)
    return character.injuries > cushion


# -- the end of the round -------------------------------------------------------------------
def schedule_round_end(
    play: Play[GmCharacter],
    actor: str,
    *,
    death_check: bool = False,
    archetypal: bool = False,
    fall_unconscious: bool = False,
    fields: Iterable[str] = (),
    phantasmal: bool = False,
    closing: bool = False,
) -> Timer:
    """Note something due at the end of the current round, merging with what is already due.

    ``archetypal`` and ``phantasmal`` follow the latest injuries; field names accumulate.
    ``closing``: the caller acts as a round ends (a one-round poison), so on a round boundary
    the round meant is the one ending now, not the one beginning.
    """
    length = round_seconds(play)
    delay = 0 if closing and play.now % length == 0 else length - play.now % length
    existing = next((t for t in play.state.timers if t.kind == ROUND_END_TIMER and t.actor == actor), None)
    data: dict[str, Any] = dict(existing.data) if existing is not None else {}
    data["death_check"] = bool(data.get("death_check")) or death_check
    data["fall_unconscious"] = bool(data.get("fall_unconscious")) or fall_unconscious
    if death_check:
        data["archetypal"] = archetypal
        data["phantasmal"] = phantasmal
    data["fields"] = sorted({*data.get("fields", ()), *fields})
    label = _round_end_label(actor, data)
    if existing is None:
        return play.schedule(delay, ROUND_END_TIMER, label, actor=actor, data=data)
    updated = replace(existing, data=data, label=label)
    play.state = replace(play.state, timers=tuple(updated if t.id == existing.id else t for t in play.state.timers))
    return updated


def _round_end_label(actor: str, data: dict[str, Any]) -> str:
    parts = []
    if data.get("fall_unconscious"):
        parts.append(f"{actor} falls unconscious")
    if data.get("death_check"):
        parts.append(f"death check for {actor}")
    return "end of round: " + " and ".join(parts)


def falls_unconscious_this_round(play: Play[GmCharacter], actor: str) -> bool:
    return any(
        t.kind == ROUND_END_TIMER and t.actor == actor and t.data.get("fall_unconscious") for t in play.state.timers
    )


# -- the death roll --------------------------------------------------------------------------
def ask_death_roll(
    play: Play[GmCharacter],
    actor: str,
    *,
    archetypal: bool,
    fields: Iterable[str] = (),
    phantasmal: bool = False,
) -> None:
    """The death check at the end of a round in which ``actor`` gained injuries."""
    cite = rule(TIME_TO_DIE)
    character = play.char(actor)
    if play.has(actor, cond.DYING) or play.has(actor, cond.DOOMED):
        play.explain(
            f"{actor} is already dying; no further death roll",
            rule(TIME_TO_DIE, reading="no second death roll while already dying"),
            actor=actor,
        )
        return
    if not death_check_needed(character, archetypal=archetypal):
        cushion = character.survival + (character.verve if archetypal else 0)
        play.explain(
            f"{actor}'s {character.injuries} injuries do not exceed survival"
            + (" and verve" if archetypal else "")
            + f" ({cushion}): no risk of death",
            cite,
            actor=actor,
        )
        return
    play.check(
        death_contest(play, character, actor, fields=fields),
        purpose="death",
        rule=cite,
        actor=actor,
        data={"phantasmal": phantasmal, "fields": list(fields)},
    )


def death_contest(
    play: Play[GmCharacter], character: GmCharacter, actor: str, *, fields: Iterable[str] = ()
) -> ActingContest:
    """The contest: the injuries act, endurance (with its penalties and bonuses) resists."""
    bonuses: list[Modifier] = []
    if cond.counts_as_unconscious(play, actor):
        bonuses.append(Modifier(UNCONSCIOUS_DEATH_BONUS, "unconscious"))
    for name in fields:
        if character.field_bonus(name):
            bonuses.append(Modifier(character.field_bonus(name), f"{name} field"))
    injuries = RollUnder(
        kind="gm.death",
        label="injuries",
        score=character.injuries,
        natural_extremes=bool(play.option(NATURAL_EXTREMES_OPTION, False)),
    )
    endurance = gm_roll(
        play, character, kind="gm.death", label="endurance", score="endurance", modifiers=bonuses, actor=actor
    )
    return ActingContest(kind="gm.death", label=f"death roll for {actor}", acting=injuries, resisting=endurance)


def on_death_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor):
        return
    cite = rule(TIME_TO_DIE)
    play.result["death_roll"] = "lost" if result.success else "survived"
    if not result.success:
        play.explain(f"{actor} overcomes the injuries: no death this time", cite, actor=actor)
        return
    if pending.data.get("phantasmal"):
        _shock(play, actor)
        return
    start_dying(play, actor)


def _shock(play: Play[GmCharacter], actor: str) -> None:
    cite = rule("Actions and consequences: Illusions", seed="002")
    play.remove_condition(actor, cond.UNCONSCIOUS, quiet=True)
    play.remove_condition(actor, cond.SEMI_CONSCIOUS, quiet=True)
    shock = play.add_condition(
        actor,
        cond.SHOCK,
        cite,
        text=f"{actor} is in shock, 'killed' by an illusion: deeply unconscious until a full night's rest "
        "or magical healing",
    )
    # Shock is unconsciousness too: seed 002 rules that react to passing out (phantasmal damage
    # letting go) hook on its start.
    play.ruleset.on_condition_start(play, shock)


def start_dying(play: Play[GmCharacter], actor: str) -> None:
    """Start the dying timer (endurance minus injuries; hours if the character is unconscious)."""
    character = play.char(actor)
    cite = rule(TIME_TO_DIE)
    count = dying_minutes(character.endurance, character.injuries)
    if count <= 0:
        play.explain(
            f"{actor}'s endurance {character.endurance} minus {character.injuries} injuries leaves no time",
            rule(TIME_TO_DIE, reading="a dying timer of 0 or less means time has already run out"),
            actor=actor,
        )
        become_doomed(play, actor)
        return
    unit = "hours" if cond.counts_as_unconscious(play, actor) else "minutes"
    seconds = count * (HOUR if unit == "hours" else MINUTE)
    play.add_condition(
        actor,
        cond.DYING,
        cite,
        data={"unit": unit},
        text=f"{actor} is dying: death in {count} {unit} (endurance {character.endurance} − "
        f"{character.injuries} injuries) unless the injuries are healed",
    )
    play.schedule(seconds, DEATH_TIMER, f"death of {actor}: the dying timer runs out", actor=actor)
    play.result["dying"] = {"unit": unit, "count": count, "seconds": seconds}


def slow_dying(play: Play[GmCharacter], actor: str) -> None:
    """Going unconscious turns the remaining minutes into as many hours (once)."""
    condition = play.state.condition(actor, cond.DYING)
    if condition is None or condition.data.get("unit") == "hours":
        return
    timers = play.state.timers_of(actor, DEATH_TIMER)
    if not timers:
        return
    timer = timers[0]
    remaining = max(0, timer.due - play.now)
    slowed = remaining * (HOUR // MINUTE)
    new_timer = replace(timer, due=play.now + slowed)
    new_condition = replace(condition, data={**condition.data, "unit": "hours"})
    play.state = replace(
        play.state,
        timers=tuple(new_timer if t.id == timer.id else t for t in play.state.timers),
        conditions=tuple(new_condition if c.id == condition.id else c for c in play.state.conditions),
    )
    play.explain(
        f"{actor} is unconscious: the remaining {format_duration(remaining)} of dying become {format_duration(slowed)}",
        rule(TIME_TO_DIE),
        actor=actor,
    )


def cancel_dying(play: Play[GmCharacter], actor: str) -> None:
    """No injuries left: death is cancelled (a doomed character stays doomed)."""
    if not play.has(actor, cond.DYING):
        return
    play.cancel_timers(actor=actor, kind=DEATH_TIMER)
    play.remove_condition(actor, cond.DYING, quiet=True)
    play.explain(f"{actor}'s injuries are gone: death is cancelled", rule(TIME_TO_DIE), actor=actor)


def on_death_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    if actor is None or not play.has(actor, cond.DYING):
        return
    play.remove_condition(actor, cond.DYING, quiet=True)
    become_doomed(play, actor)


def become_doomed(play: Play[GmCharacter], actor: str) -> None:
    play.add_condition(
        actor,
        cond.DOOMED,
        rule(TIME_TO_DIE),
        text=f"{actor}'s time has run out: they die at the end of the scene, beyond any healing; "
        "one heroic last effort remains",
    )


def die(play: Play[GmCharacter], actor: str, text: str) -> None:
    """The character dies: every other state ends with them."""
    for name in (cond.DYING, cond.DOOMED, cond.UNCONSCIOUS, cond.SEMI_CONSCIOUS, cond.SHOCK, cond.ASLEEP, cond.RESTING):
        play.remove_condition(actor, name, quiet=True)
    play.cancel_timers(actor=actor, kind=DEATH_TIMER)
    play.cancel_timers(actor=actor, kind=ROUND_END_TIMER)
    play.drop_pending(actor=actor)
    play.add_condition(actor, cond.DEAD, rule(TIME_TO_DIE), text=text)


#: A time to die (seed 000): the death contest, the round's end and the dying timer.
DYING_SECTION = Section(
    "dying",
    check_kinds=(CheckKind("gm.death", "the death contest: injuries acting against endurance (seed 000)"),),
    checks=(CheckSpec("death", on_death_roll, stakes.check_stakes),),
    timers=(TimerSpec(DEATH_TIMER, on_death_timer),),
)
