"""The non-combat cases of seed 001, VIII.3: climb, disease and poison, falls, jumps, prolonged
action and going without food or water."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulekeeper.core.action import Call
from rulekeeper.core.check import CheckResult
from rulekeeper.core.clock import DAY
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import AutomationLevel, PendingCheck, Timer
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.vi_viii_x.character import Ailment, AilmentKind, Character, Effort
from rulekeeper.systems.vi_viii_x.checks import ArcStats, parse_threshold, skill_stats_in_play
from rulekeeper.systems.vi_viii_x.damage import choose_us
from rulekeeper.systems.vi_viii_x.deprivation import GRACE_DAYS, deprivation_damage
from rulekeeper.systems.vi_viii_x.effects import (
    ask_arct,
    damage_pair,
    ensure_recovery,
    next_turn_start,
    refuse_unless_able,
    sync_states,
    tell,
    timer_kind,
)
from rulekeeper.systems.vi_viii_x.falling import fall_damage, fall_threshold, relief
from rulekeeper.systems.vi_viii_x.jumping import jump_distances
from rulekeeper.systems.vi_viii_x.rules import (
    CLIMB,
    DEHYDRATION,
    DISEASE,
    FALLING,
    JUMP,
    POISON,
    PROLONGED,
    STARVATION,
    SYSTEM,
)
from rulekeeper.systems.vi_viii_x.stakes import check_stakes
from rulekeeper.systems.vi_viii_x.states import INCAPACITATING, NO_CLIMB, STATES, jump_blocker

__all__ = [
    "HAZARDS_SECTION",
    "afflict",
    "climb",
    "cure",
    "cure_skill",
    "deprivation_day",
    "deprive",
    "effort_turn",
    "exert",
    "fall",
    "jump",
    "land",
    "nourish",
    "starvation_us",
]


# -- climb --------------------------------------------------------------------------------
def climb(play: Play[Character], action: Call) -> None:
    """Surfaces with grips need a Stamina ARCT at the GM's threshold; without grips a tool is a must,
    and the GM may still ask for an ARCT at a low threshold (VIII.3 "Climb")."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "climb", INCAPACITATING | NO_CLIMB)
    if not p.bool("grips") and not p.bool("tool"):
        raise RuleRefusal(f"a surface without grips can only be climbed with a tool such as a rope ({CLIMB})")
    if p.opt_str("threshold") is None:
        if p.bool("grips"):
            raise InputError(
                "a climb on grips needs the GM's threshold", expected="threshold: a number or a name", where="threshold"
            )
        tell(play, f"{actor} climbs with a tool; the GM asks for no check", CLIMB, actor, player=f"{actor} climbs")
        play.result.update({"climbed": True, "checked": False})
        return
    threshold = parse_threshold(p.opt_str("threshold"))
    ask_arct(
        play,
        actor,
        kind="climb",
        purpose="climb",
        what="climb" + ("" if p.bool("grips") else " with a tool"),
        stats=skill_stats_in_play(play, actor, "stamina"),
        threshold=threshold,
        gm_modifier=p.int("gm_modifier"),
        rule=CLIMB,
    )


# -- falling ------------------------------------------------------------------------------
def fall(play: Play[Character], action: Call) -> None:
    """h metres do h - 2 damage from 3 m on; a Body Control ARCT against the 3-metre band takes off
    what its result beats the threshold by (VIII.3 "Falling damage")."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "fall any further")
    metres = p.int("metres")
    ks = p.str("ks").upper()
    us = choose_us(play.char(actor), ks, p.opt_str("us"))
    base = fall_damage(metres)
    threshold = fall_threshold(metres) if p.opt_str("threshold") is None else parse_threshold(p.opt_str("threshold"))
    play.result.update({"metres": metres, "base_damage": base, "threshold": threshold})
    if base == 0:
        tell(play, f"a fall of {metres} m does no damage", FALLING, actor, player=f"{actor} falls {metres} m unhurt")
        play.result.update({"damage": 0, "relief": 0})
        return
    tell(
        play,
        f"a fall of {metres} m: {base} damage (1 a metre from the third on)",
        FALLING,
        actor,
        player=f"{actor} falls {metres} m",
    )
    character = play.char(actor)
    can_try = p.bool("body_control") and "body-control" in character.es
    if not can_try or set(INCAPACITATING) & {c.name for c in play.state.conditions_of(actor)}:
        land(play, actor, base, 0, ks, us)
        return
    kind = f"{SYSTEM}.fall"
    noted = play.state.settings.level_for(kind) is AutomationLevel.NOTE
    ask_arct(
        play,
        actor,
        kind="fall",
        purpose="fall",
        what=f"Body Control against a {metres} m fall",
        stats=skill_stats_in_play(play, actor, "body-control"),
        threshold=threshold,
        rule=FALLING,
        gm_modifier=p.int("gm_modifier"),
        data={"metres": metres, "base": base, "ks": ks, "us": us},
    )
    if noted:
        # The table applies a noted check's consequence itself: the full damage lands now and
        # any relief it finds is given back by hand (heal with source "other").
        land(play, actor, base, 0, ks, us)


def land(play: Play[Character], actor: str, base: int, relief: int, ks: str, us: str | None) -> None:
    damage = max(0, base - relief)
    play.result.update({"damage": damage, "relief": relief})
    if relief:
        tell(
            play,
            f"Body Control takes {relief} off: {damage} fall damage",
            FALLING,
            actor,
            # Relief is the ARCT's margin: with the threshold and the typed die it gives the
            # REF under Body Control, so the player reads that it helped, not by how much.
            player="Body Control eases the fall",
        )
    if damage:
        damage_pair(play, actor, ks, us, damage, what="fall damage", rule=FALLING)


# -- jump ---------------------------------------------------------------------------------
def jump(play: Play[Character], action: Call) -> None:
    """Running jump up to Agility - 2 metres, standing half of it; burden lowers it, full burden forbids it."""
    actor = action.character
    p = action.params
    character = play.char(actor)
    if character.agility is None:
        raise InputError(f"{actor} has no agility on the sheet", expected="agility: a number", where="sheet")
    refuse_unless_able(play, actor, "jump", INCAPACITATING)
    blocker = jump_blocker(play.state.conditions_of(actor))
    if blocker is not None:
        raise RuleRefusal(f"{actor} cannot jump while {blocker} ({STATES[blocker].rule})")
    distances = jump_distances(character.agility, character.burden)
    if distances is None:
        raise RuleRefusal(f"{actor} cannot jump with a {character.burden.value} burden ({JUMP})")
    style = p.str("style")
    longest = distances.running if style == "running" else distances.standing
    play.result.update({"style": style, "max_distance": longest, "burden": character.burden.value})
    text = f"{style} jump with agility {character.agility} and {character.burden.value} burden: up to {longest:g} m"
    distance = p.opt_float("distance")
    if distance is not None:
        made = distance <= longest
        play.result["made"] = made
        text += f"; {distance:g} m is {'within reach' if made else 'too far'}"
    secret = bool(play.option("agility_secret", False))
    tell(play, text, JUMP, actor, player=None if secret else f"{actor}: {text}")


# -- prolonged action ---------------------------------------------------------------------
def exert(play: Play[Character], action: Call) -> None:
    """Start a prolonged effort: a Stamina ARCT after every turn at a rising threshold until rest (VIII.3)."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "keep up an effort", INCAPACITATING)
    start = parse_threshold(p.str("threshold"))
    # Checked now, not when the first turn's ARCT falls due: a skill not on the sheet would
    # otherwise fail later inside the clock, for the whole table.
    skill_stats_in_play(play, actor, p.str("skill"))
    character = play.char(actor)
    play.put(
        actor, replace(character, effort=Effort(threshold=start, step=p.int("step"), turns_left=p.opt_int("turns")))
    )
    play.cancel_timers(actor=actor, kind=timer_kind("effort"))
    play.cancel_timers(actor=actor, kind=timer_kind("fatigue-rest"))
    play.schedule(
        next_turn_start(play) - play.now,
        timer_kind("effort"),
        f"{actor}: Stamina ARCT after a turn of effort",
        actor=actor,
        data={"skill": p.str("skill")},
    )
    tell(
        play,
        f"{actor} keeps up a prolonged effort: a Stamina ARCT after every turn, from threshold {start}, "
        f"rising by {p.int('step')} each time",
        PROLONGED,
        actor,
        player=f"{actor} keeps up a prolonged effort",
    )
    play.result.update({"threshold": start, "step": p.int("step")})


def effort_turn(play: Play[Character], actor: str, data: dict[str, Any]) -> None:
    """After a turn of effort: an ARCT at the current threshold, which then rises; again next turn."""
    character = play.char(actor)
    effort = character.effort
    if effort is None or character.permanently_dead:
        return
    left = None if effort.turns_left is None else effort.turns_left - 1
    more = left is None or left > 0
    following = replace(effort, threshold=effort.threshold + effort.step, turns_left=left) if more else None
    play.put(actor, replace(character, effort=following))
    if more:
        play.schedule(
            next_turn_start(play) - play.now,
            timer_kind("effort"),
            f"{actor}: Stamina ARCT after a turn of effort",
            actor=actor,
            data=data,
        )
    else:
        tell(play, f"{actor}'s prolonged action ends", PROLONGED, actor, player=f"{actor}'s effort ends")
    ask_arct(
        play,
        actor,
        kind="fatigue",
        purpose="effort",
        what="prolonged effort",
        stats=skill_stats_in_play(play, actor, str(data.get("skill") or "stamina")),
        threshold=effort.threshold,
        rule=PROLONGED,
    )


# -- disease and poison -------------------------------------------------------------------
def afflict(play: Play[Character], action: Call) -> None:
    """A disease or poison lowers stats like a wound and leaves the character injured (VIII.3)."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "fall ill")
    kind = AilmentKind(p.str("kind"))
    name = p.str("name").strip().lower()
    ks = p.str("ks").upper()
    us = choose_us(play.char(actor), ks, p.opt_str("us"))
    touched = (ks,) + ((us,) if us else ())
    character = play.char(actor)
    old = character.ailment(name)
    if old is None:
        ailments = (*character.ailments, Ailment(name=name, kind=kind, stats=touched))
    else:
        merged = tuple(dict.fromkeys(old.stats + touched))
        ailments = tuple(
            replace(a, stats=merged, eradicated=False, kind=kind) if a.name == name else a for a in character.ailments
        )
    play.put(actor, replace(character, ailments=ailments))
    rule = DISEASE if kind is AilmentKind.DISEASE else POISON
    changes = damage_pair(play, actor, ks, us, p.int("amount"), what=f"damage from {kind.value} ({name})", rule=rule)
    lowered = tuple(c.stat for c in changes if not c.secret and c.after < c.before)
    if lowered:
        character = play.char(actor)
        ailments = tuple(
            replace(a, felt=tuple(dict.fromkeys(a.felt + lowered))) if a.name == name else a for a in character.ailments
        )
        play.put(actor, replace(character, ailments=ailments))
    play.result.update({"ailment": name, "damage": p.int("amount")})


def cure_skill(play: Play[Character], healer: str, kind: AilmentKind, skill: str | None) -> ArcStats:
    """Education medicine finds a cure for disease; medicine or alchemy for poison (VIII.3)."""
    allowed = ("education-medicine",) if kind is AilmentKind.DISEASE else ("education-medicine", "education-alchemy")
    if skill is not None:
        stats = skill_stats_in_play(play, healer, skill)
        if stats.skill not in allowed:
            raise RuleRefusal(f"a {kind.value} is cured with {' or '.join(allowed)}, not {stats.skill} ({DISEASE})")
        return stats
    options = [skill_stats_in_play(play, healer, s) for s in allowed]
    trained = [o for o in options if o.trained] or options
    return max(trained, key=lambda o: o.value)


def cure(play: Play[Character], action: Call) -> None:
    """A successful Education check finds the cure; the ailment ends only when every lost point is back."""
    patient = action.character
    p = action.params
    name = p.str("ailment").strip().lower()
    ailment = play.char(patient).ailment(name)
    if ailment is None or ailment.eradicated:
        known = ", ".join(a.name for a in play.char(patient).ailments if not a.eradicated) or "none"
        raise InputError(f"{patient} has no ailment {name!r}", expected=f"one of: {known}", where="ailment")
    healer = p.opt_str("healer") or patient
    if healer not in play.state.characters:
        raise InputError(f"unknown character {healer!r}", expected="a character id", where="healer")
    refuse_unless_able(play, healer, "look for a cure", INCAPACITATING)
    rule = DISEASE if ailment.kind is AilmentKind.DISEASE else POISON
    ask_arct(
        play,
        healer,
        kind="cure",
        purpose="cure",
        what=f"cure for {patient}'s {name}",
        stats=cure_skill(play, healer, ailment.kind, p.opt_str("skill")),
        threshold=parse_threshold(p.str("threshold")),
        gm_modifier=p.int("gm_modifier"),
        rule=rule,
        data={"patient": patient, "ailment": name},
    )


# -- starvation and dehydration -----------------------------------------------------------
_FIELD = {"food": "days_without_food", "water": "days_without_water"}
_TIMER = {"food": "starvation", "water": "dehydration"}


def _days(character: Character, need: str) -> int | None:
    return character.days_without_food if need == "food" else character.days_without_water


def _with_days(character: Character, need: str, days: int | None) -> Character:
    if need == "food":
        return replace(character, days_without_food=days)
    return replace(character, days_without_water=days)


def starvation_us(character: Character) -> str | None:
    """The US hunger and thirst wear down before BU: VIG when declared, else BU's first US."""
    declared = character.us_of("BU")
    return "VIG" if "VIG" in declared else (declared[0] if declared else None)


def deprive(play: Play[Character], action: Call) -> None:
    """Count days without food (harm from day 5) or water (harm from day 3)."""
    actor = action.character
    p = action.params
    need, days = p.str("kind"), p.int("days")
    refuse_unless_able(play, actor, f"go without {need}")
    play.put(actor, _with_days(play.char(actor), need, days))
    play.cancel_timers(actor=actor, kind=timer_kind(_TIMER[need]))
    play.schedule(DAY, timer_kind(_TIMER[need]), f"{actor}: day {days + 1} without {need}", actor=actor)
    rule = STARVATION if need == "food" else DEHYDRATION
    tell(
        play,
        f"{actor} goes without {need} ({days} day(s) so far); harm starts after {GRACE_DAYS[need]} days",
        rule,
        actor,
        player=f"{actor} goes without {need}",
    )
    sync_states(play, actor)
    play.result.update({_FIELD[need]: days})


def nourish(play: Play[Character], action: Call) -> None:
    """Eating or drinking ends the count; lost points come back by the recovery rules (VIII.2)."""
    actor = action.character
    need = action.params.str("kind")
    play.put(actor, _with_days(play.char(actor), need, None))
    play.cancel_timers(actor=actor, kind=timer_kind(_TIMER[need]))
    rule = STARVATION if need == "food" else DEHYDRATION
    verb = "eats" if need == "food" else "drinks"
    tell(play, f"{actor} {verb} again", rule, actor, player=f"{actor} {verb} again")
    sync_states(play, actor)
    ensure_recovery(play, actor)


def deprivation_day(play: Play[Character], actor: str, need: str) -> None:
    """One more day without ``need``: from day 5 (food) or 3 (water), n - 4 or n - 2 damage to BU's US, then BU."""
    character = play.char(actor)
    so_far = _days(character, need)
    if so_far is None or character.permanently_dead:
        return
    day = so_far + 1
    play.put(actor, _with_days(character, need, day))
    harm = deprivation_damage(need, day)
    rule = STARVATION if need == "food" else DEHYDRATION
    if harm:
        what = "starvation damage" if need == "food" else "dehydration damage"
        damage_pair(play, actor, "BU", starvation_us(character), harm, what=f"{what} on day {day}", rule=rule)
    else:
        tell(play, f"day {day} without {need}: no harm yet", rule, actor, player=f"day {day} without {need}")
    sync_states(play, actor)
    if not play.char(actor).permanently_dead:
        play.schedule(DAY, timer_kind(_TIMER[need]), f"{actor}: day {day + 1} without {need}", actor=actor)


# -- what a check's result or a timer does (the section below) ----------------------------
def _on_climb(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None  # the section needs an actor
    play.result.update({"climbed": result.success, "checked": True})
    verdict = "makes the climb" if result.success else "fails to climb"
    tell(play, f"{actor} {verdict} (margin {result.margin})", CLIMB, actor, player=f"{actor} {verdict}")


def _on_fall(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    data = pending.data
    off = relief(result.total, int(data["threshold"])) if result.success else 0
    play.result["check_result"] = result.total
    land(play, actor, int(data["base"]), off, str(data["ks"]), data.get("us"))


def _on_cure(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    play.result.update({"cure_found": result.success})
    if not result.success:
        tell(play, "no cure found this time", DISEASE, pending.actor, player="no cure found this time")
        return
    patient, name = str(pending.data["patient"]), str(pending.data["ailment"])
    character = play.char(patient)
    ailments = tuple(replace(a, cure_found=True) if a.name == name else a for a in character.ailments)
    play.put(patient, replace(character, ailments=ailments))
    tell(
        play,
        f"a cure for {patient}'s {name} is found; it lasts until every point it took is recovered",
        DISEASE,
        patient,
        player=f"a cure for {patient}'s {name} is found",
    )


def _on_effort(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    play.result.update({"kept_up": result.success})
    if result.success:
        tell(play, f"{actor} keeps up the effort", PROLONGED, actor, player=f"{actor} keeps up the effort")
        return
    character = play.char(actor)
    level = character.fatigue + 1
    play.put(actor, replace(character, fatigue=level))
    tell(
        play,
        f"{actor} fails to keep up the effort: fatigued, -{level} to every check",
        PROLONGED,
        actor,
        player=f"{actor} is fatigued: -{level} to every check",
    )
    sync_states(play, actor)


def _deprivation(need: str) -> Callable[[Play[Character], Timer], None]:
    def day_passes(play: Play[Character], timer: Timer) -> None:
        assert timer.actor is not None
        deprivation_day(play, timer.actor, need)

    return day_passes


def _effort_turn(play: Play[Character], timer: Timer) -> None:
    assert timer.actor is not None
    effort_turn(play, timer.actor, dict(timer.data))


#: Non-combat cases (VIII): climbing, falling, disease and poison, prolonged action, deprivation.
HAZARDS_SECTION = Section(
    "hazards",
    check_kinds=(
        CheckKind(f"{SYSTEM}.climb", "Stamina ARCT to climb"),
        CheckKind(f"{SYSTEM}.fall", "Body Control ARCT against a fall"),
        CheckKind(f"{SYSTEM}.cure", "Education medicine or alchemy ARCT to find a cure"),
        CheckKind(f"{SYSTEM}.fatigue", "Stamina ARCT after each turn of a prolonged action"),
    ),
    checks=(
        CheckSpec("climb", _on_climb, check_stakes),
        CheckSpec("fall", _on_fall, check_stakes),
        CheckSpec("cure", _on_cure, check_stakes),
        CheckSpec("effort", _on_effort, check_stakes),
    ),
    timers=(
        TimerSpec(timer_kind(_TIMER["food"]), _deprivation("food")),
        TimerSpec(timer_kind(_TIMER["water"]), _deprivation("water")),
        TimerSpec(timer_kind("effort"), _effort_turn),
    ),
    skip_orphans=True,
    needs_actor=True,
)
