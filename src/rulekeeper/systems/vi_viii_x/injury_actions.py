"""Actions on hurt and healing: damage, magical and other healing, healing potions, and rest (VIII.1, VIII.2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.action import Call
from rulekeeper.core.check import CheckResult
from rulekeeper.core.clock import DAY
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.params import Params
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.vi_viii_x.character import Character, Regimen
from rulekeeper.systems.vi_viii_x.damage import DAMAGE_KINDS, choose_us
from rulekeeper.systems.vi_viii_x.effects import (
    damage_pair,
    ensure_recovery,
    heal_points,
    permanent_ks,
    refuse_unless_able,
    sync_states,
    tell,
    timer_kind,
    turn_seconds,
)
from rulekeeper.systems.vi_viii_x.recovery import worst_pair
from rulekeeper.systems.vi_viii_x.rules import INJURIES, POTION, PROLONGED, RECOVERY
from rulekeeper.systems.vi_viii_x.stakes import check_stakes

__all__ = [
    "INJURY_SECTION",
    "POTION_PURPOSE",
    "RECOVERY_KIND",
    "RECOVERY_PURPOSE",
    "damage",
    "fatigue_rest_turn",
    "heal",
    "potion",
    "potion_day",
    "potion_portions",
    "potion_rolled",
    "recovery_day",
    "recovery_rolled",
    "rest",
]

RECOVERY_KIND = "vi-viii-x.recovery"
POTION_PURPOSE = "potion"
RECOVERY_PURPOSE = "natural-recovery"

MAGIC_WEEKS_PER_POINT = 1  # VIII.2: magical healing ages the character a week per point healed


def _pair(play: Play[Character], actor: str, params: Params) -> tuple[str | None, str | None]:
    """The pair a heal is aimed at, if any: ``ks`` (and optionally ``us``), or a ``us`` alone."""
    character = play.char(actor)
    us, ks = params.opt_str("us"), params.opt_str("ks")
    if ks is None and us:
        name = us.strip().upper()
        if name not in character.us:
            known = ", ".join(character.us) or "none"
            raise InputError(f"no unknown stat {name} on the sheet", expected=f"one of: {known}", where="us")
        ks = character.us[name].ks
    if ks is None:
        return None, None
    ks = ks.upper()
    return ks, (choose_us(character, ks, us) if us else None)


def _after(play: Play[Character], actor: str) -> dict[str, int]:
    character = play.char(actor)
    stats = {k.lower(): s.current for k, s in character.ks.items()}
    stats.update({u.lower(): s.current for u, s in character.us.items()})
    return stats


def damage(play: Play[Character], action: Call) -> None:
    """Physical damage lands on BU or CO, mental on IN or EM, other damage where it says; US first (VIII.1)."""
    actor = action.character
    p = action.params
    kind, ks = p.str("kind"), p.str("ks").upper()
    if ks not in DAMAGE_KINDS[kind]:
        allowed = " or ".join(DAMAGE_KINDS[kind])
        raise RuleRefusal(f"{kind} damage lands on {allowed}, not {ks} ({INJURIES})")
    refuse_unless_able(play, actor, "take further damage")
    us = choose_us(play.char(actor), ks, p.opt_str("us"))
    damage_pair(play, actor, ks, us, p.int("amount"), what=f"{kind} damage", rule=INJURIES)
    play.result.update({"damage": p.int("amount"), "ks": ks, "us": us, **_after(play, actor)})


def heal(play: Play[Character], action: Call) -> None:
    """Immediate healing: magic ages the character a week per point healed; other means as they say (VIII.2)."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "be healed")
    ks, us = _pair(play, actor, p)
    magical = p.str("source") == "magic"
    per_point = MAGIC_WEEKS_PER_POINT if magical else p.int("weeks_per_point")
    what = "magical healing" if magical else "healing"
    changes = heal_points(play, actor, p.int("amount"), ks=ks, us=us, what=what, rule=RECOVERY)
    healed = sum(c.after - c.before for c in changes)
    weeks = healed * per_point
    if weeks:
        character = play.char(actor)
        play.put(actor, replace(character, magic_weeks=character.magic_weeks + weeks))
        tell(
            play,
            f"{actor} ages {weeks} week(s) for {healed} point(s) healed ({per_point} a point); "
            f"{character.magic_weeks + weeks} week(s) added in all",
            RECOVERY,
            actor,
        )
    play.result.update(
        {"healed": healed, "aged_weeks": weeks, "magic_weeks": play.char(actor).magic_weeks, **_after(play, actor)}
    )


def potion_portions(total: int, days: int) -> list[int]:
    """Split a potion's points evenly over ``days`` days; any remainder falls on the later days."""
    return [total * (i + 1) // days - total * i // days for i in range(days)]


def potion(play: Play[Character], action: Call) -> None:
    """A healing potion doubles natural recovery: 2d3 points over the next day, or spread over more (VIII.2).

    Reading: the 2d3 replaces the day's natural 1d3 rather than adding to it; the seed's note that a
    potion stretched over more days makes recovery *slower* only fits that reading.
    """
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "drink a potion", {"death", "coma", "vegetative"})
    ks, us = _pair(play, actor, p)
    until = play.now + p.int("days") * DAY
    character = play.char(actor)
    play.put(actor, replace(character, potion_until=max(until, character.potion_until or 0)))
    play.roll_check(
        DiceRoll(kind=RECOVERY_KIND, label=f"{actor} drinks a healing potion", notation="2d3"),
        purpose=POTION_PURPOSE,
        rule=RECOVERY,
        actor=actor,
        data={"days": p.int("days"), "ks": ks, "us": us},
        stakes=Stakes(purpose=f"the points {actor}'s healing potion will heal", on_success="healed over the days"),
    )


def potion_rolled(play: Play[Character], actor: str, points: int, data: dict[str, Any]) -> None:
    """The potion's 2d3 are in: its points are spread over the days."""
    days = int(data["days"])
    portions = potion_portions(points, days)
    play.schedule(
        DAY,
        timer_kind("potion"),
        f"{actor}: healing potion, day 1 of {days}",
        actor=actor,
        data={"portions": portions, "day": 0, "ks": data["ks"], "us": data["us"]},
    )
    tell(
        play,
        f"the potion will heal {points} point(s) over {days} day(s): {portions}",
        RECOVERY,
        actor,
        player=f"{actor} drinks a healing potion; it works over {days} day(s)",
    )
    play.result.update({"potion_points": points, "days": days, "portions": portions})


def potion_day(play: Play[Character], actor: str, data: dict[str, Any]) -> None:
    """One day of a potion's effect: heal that day's portion, then wait for the next day if any."""
    portions = list(data["portions"])
    day = int(data["day"])
    if play.char(actor).permanently_dead:
        return
    heal_points(
        play,
        actor,
        portions[day],
        ks=data.get("ks"),
        us=data.get("us"),
        what=f"healing potion, day {day + 1}",
        rule=RECOVERY,
    )
    if day + 1 < len(portions):
        play.schedule(
            DAY,
            timer_kind("potion"),
            f"{actor}: healing potion, day {day + 2} of {len(portions)}",
            actor=actor,
            data={**data, "day": day + 1},
        )


def rest(play: Play[Character], action: Call) -> None:
    """Set how the character spends its days: total rest heals, basic actions suspend it, acting hurts.

    Any rest also ends a prolonged action and lets fatigue fade, one level per turn (VIII.3).
    """
    actor = action.character
    refuse_unless_able(play, actor, "rest")
    regimen = Regimen(action.params.str("kind"))
    character = play.char(actor)
    play.put(
        actor, replace(character, regimen=regimen, effort=None if regimen is not Regimen.ACTIVE else character.effort)
    )
    text = {
        Regimen.TOTAL: "total rest: natural recovery of 1d3 a day",
        Regimen.BASIC: "basic actions only: natural recovery is suspended",
        Regimen.ACTIVE: "acting normally: while hurt, 1 more damage a day",
    }[regimen]
    tell(play, f"{actor} goes on {text}", RECOVERY, actor, player=f"{actor}: {text}")
    if regimen is Regimen.ACTIVE:
        play.cancel_timers(actor=actor, kind=timer_kind("fatigue-rest"))
    else:
        if character.effort is not None:
            play.cancel_timers(actor=actor, kind=timer_kind("effort"))
            tell(play, f"{actor} stops the prolonged action", PROLONGED, actor, player=f"{actor} stops the effort")
        if character.fatigue and not play.state.timers_of(actor, timer_kind("fatigue-rest")):
            play.schedule(
                turn_seconds(play), timer_kind("fatigue-rest"), f"{actor}: a turn of rest against fatigue", actor=actor
            )
    ensure_recovery(play, actor)
    play.result.update({"regimen": regimen.value})


def fatigue_rest_turn(play: Play[Character], actor: str) -> None:
    """A turn of rest takes one fatigue level off (VIII.3 "Prolonged action")."""
    character = play.char(actor)
    if character.fatigue <= 0 or character.effort is not None:
        return
    play.put(actor, replace(character, fatigue=character.fatigue - 1))
    sync_states(play, actor)
    tell(
        play,
        f"a turn of rest: {actor}'s fatigue falls to {character.fatigue - 1}",
        PROLONGED,
        actor,
        player=f"{actor}'s fatigue falls to {character.fatigue - 1}",
    )
    if character.fatigue - 1 > 0:
        play.schedule(
            turn_seconds(play), timer_kind("fatigue-rest"), f"{actor}: a turn of rest against fatigue", actor=actor
        )


def recovery_rolled(play: Play[Character], actor: str, points: int) -> None:
    heal_points(play, actor, points, ks=None, us=None, what="a day of total rest", rule=RECOVERY)
    ensure_recovery(play, actor)


def recovery_day(play: Play[Character], actor: str) -> None:
    """A day of natural recovery: 1d3 at total rest, nothing on basic actions, 1 damage when acting (VIII.2).

    Reading: while the character goes without food or water the day brings neither recovery nor
    the extra damage; starvation and dehydration take its place (VIII.3).
    """
    character = play.char(actor)
    if character.permanently_dead or not character.is_injured:
        return
    if character.days_without_food is not None or character.days_without_water is not None:
        tell(play, f"{actor} goes without food or water: no natural recovery today", RECOVERY, actor)
    elif character.regimen is Regimen.TOTAL and (character.potion_until or -1) >= play.now:
        # The potion doubles the rate: its 2d3 is the day's recovery *instead of* 1d3, not on top of it.
        tell(
            play,
            f"{actor}'s healing potion takes the place of natural recovery today",
            POTION,
            actor,
            player=f"the potion does {actor}'s healing today",
        )
    elif character.regimen is Regimen.TOTAL:
        play.roll_check(
            DiceRoll(kind=RECOVERY_KIND, label=f"{actor}'s natural recovery", notation="1d3"),
            purpose=RECOVERY_PURPOSE,
            rule=RECOVERY,
            actor=actor,
            stakes=Stakes(purpose=f"{actor}'s natural recovery after a day of total rest", on_success="points healed"),
        )
        return  # the next day is arranged once the die is in (recovery_rolled), as the healing may end it
    elif character.regimen is Regimen.BASIC:
        tell(play, f"{actor} kept to basic actions: natural recovery is suspended today", RECOVERY, actor)
    else:
        pair = worst_pair(character, exclude=permanent_ks(character))
        if pair is not None:
            damage_pair(play, actor, pair[0], pair[1], 1, what="damage for acting while hurt", rule=RECOVERY)
    ensure_recovery(play, actor)


# -- what a check's result or a timer does (the section below) ----------------------------
def _on_potion(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    assert pending.actor is not None  # the section needs an actor
    potion_rolled(play, pending.actor, result.total, dict(pending.data))


def _on_recovery(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    assert pending.actor is not None
    recovery_rolled(play, pending.actor, result.total)


def _recovery_day(play: Play[Character], timer: Timer) -> None:
    assert timer.actor is not None
    recovery_day(play, timer.actor)


def _potion_day(play: Play[Character], timer: Timer) -> None:
    assert timer.actor is not None
    potion_day(play, timer.actor, dict(timer.data))


def _fatigue_rest_turn(play: Play[Character], timer: Timer) -> None:
    assert timer.actor is not None
    fatigue_rest_turn(play, timer.actor)


#: Injuries and recovery (VIII.1-2): natural recovery, healing potions, rest against fatigue.
INJURY_SECTION = Section(
    "injury and recovery",
    check_kinds=(
        CheckKind(RECOVERY_KIND, "the 1d3 of a day of natural recovery at total rest, and a healing potion's 2d3"),
    ),
    checks=(
        CheckSpec(POTION_PURPOSE, _on_potion, check_stakes),
        CheckSpec(RECOVERY_PURPOSE, _on_recovery, check_stakes),
    ),
    timers=(
        TimerSpec(timer_kind("recovery"), _recovery_day),
        TimerSpec(timer_kind("potion"), _potion_day),
        TimerSpec(timer_kind("fatigue-rest"), _fatigue_rest_turn),
    ),
    skip_orphans=True,
    needs_actor=True,
)
