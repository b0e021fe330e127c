"""Ailments over game time: contracting, action times, throwing off, exposure.

The rules are described in :mod:`.ailments`. An ailment in progress is a condition named after
it (``food poisoning``) whose data holds the ailment, its stage and its running totals:

* ``incubating`` -- contracted; the effect lands at the end of the first action time;
* ``ailing`` -- a chronic ailment that has struck; a health roll at each action time throws it
  off, at a strength one lower each time;
* ``exposed`` -- an inescapable ailment: a roll at the end of each action time while exposed
  (a chronic inescapable one that has struck needs no roll and grows one stronger each time);
* ``affected`` -- a one-time ailment whose penalties have no set end; it stays until cured.

Reading: for an inescapable ailment the roll and its effect both come at the end of each action
time of exposure, so five rounds in sleep gas means five rolls.

Timers are ``gm.c.ailment.<name>``; check purposes ``c.ailment.resist`` (contracting),
``c.ailment.exposure`` and ``c.ailment.throw-off``, each with the ailment's name in its data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import HOUR, MINUTE, format_duration
from rulekeeper.core.params import Params
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import Condition, PendingCheck, Timer
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.ailments import AILMENTS as TABLE
from rulekeeper.systems.gods_monsters.consequences.ailments import (
    EXPOSURES,
    Ailment,
    AilmentEffect,
    ailment_from_json,
    ailment_to_json,
    find_ailment,
    parse_penalties,
    resist_reaction,
)
from rulekeeper.systems.gods_monsters.consequences.illusions import INVISIBLE_EFFECT_BONUS
from rulekeeper.systems.gods_monsters.consequences.playing import (
    ask,
    c_roll,
    drop_pending_where,
    refuse_if_dead,
    roll_amount,
    round_length,
    set_condition_data,
    to_round_end,
)
from rulekeeper.systems.gods_monsters.consequences.sections import (
    AILMENT_EFFECTS,
    AILMENT_STRENGTH,
    AILMENT_TABLE,
    c_rule,
)
from rulekeeper.systems.gods_monsters.consequences.sections import AILMENTS as AILMENTS_SECTION
from rulekeeper.systems.gods_monsters.consequences.state_effects import AILMENT_KIND, LINGERING_KIND
from rulekeeper.systems.gods_monsters.damage import add_injuries

__all__ = [
    "AILMENT_ACTIONS",
    "AILMENT_SECTION",
    "AILMENT_TIMER_PREFIX",
    "PARALYZED",
    "PURPOSE_PREFIX",
    "SLEEPING",
    "on_ailment_check",
    "on_ailment_timer",
]

AILMENT_TIMER_PREFIX = "gm.c.ailment."
PURPOSE_PREFIX = "c.ailment."
RESIST = "c.ailment.resist"
EXPOSURE = "c.ailment.exposure"
THROW_OFF = "c.ailment.throw-off"
# The amounts an ailment rolls (minutes asleep or paralysed, injury points, hours its penalties
# linger): each a plain roll of its own kind, asked as the effect happens.
SLEEP_ROLL = "c.ailment.sleep"
PARALYSIS_ROLL = "c.ailment.paralysis"
INJURY_ROLL = "c.ailment.injuries"
LINGER_ROLL = "c.ailment.linger"
AMOUNT_KINDS: dict[str, str] = {
    "gm.ailment.sleep": "the minutes of sleep an ailment's effect rolls",
    "gm.ailment.paralysis": "the minutes of paralysis an ailment's effect rolls",
    "gm.ailment.injuries": "the injury points an ailment's effect rolls",
    "gm.ailment.linger": "the hours an ailment's penalties linger after it is over",
}
# Sleep and paralysis from ailments. "sleeping" is not the survival rules' "asleep", which is a
# night's rest in progress.
SLEEPING = "sleeping"
PARALYZED = "paralyzed"
_RESERVED = frozenset(
    {
        SLEEPING,
        PARALYZED,
        cond.UNCONSCIOUS,
        cond.SEMI_CONSCIOUS,
        cond.DYING,
        cond.DOOMED,
        cond.DEAD,
        cond.SHOCK,
        cond.ASLEEP,
        cond.RESTING,
    }
)


def _timer_kind(name: str) -> str:
    return AILMENT_TIMER_PREFIX + name.replace(" ", "-")


def _ailment_condition(play: Play[Any], actor: str, name: str) -> Condition | None:
    condition = play.state.condition(actor, name)
    if condition is None or condition.data.get("kind") != AILMENT_KIND:
        return None
    return condition


def _rule(section: str = AILMENTS_SECTION, reading: str | None = None) -> Rule:
    return c_rule(section, reading=reading)


# -- building the ailment from an action ------------------------------------------------------
def _ailment_from_params(params: Params, *, inescapable_exposure: bool) -> Ailment:
    name = " ".join(params.str("name").lower().split())
    row = find_ailment(name)
    if name in _RESERVED:
        raise InputError(f"{name!r} names a condition, not an ailment", expected="another ailment name", where="name")
    given_penalties = params.opt_str("penalties")
    penalties = parse_penalties(given_penalties) if given_penalties else None
    base_effect = row.effect if row is not None else AilmentEffect()
    effect = AilmentEffect(
        injuries=params.opt_str("injuries") or base_effect.injuries,
        sleep_minutes=params.opt_str("sleep") or base_effect.sleep_minutes,
        paralysis_minutes=params.opt_str("paralysis") or base_effect.paralysis_minutes,
        penalties={**base_effect.penalties, **(penalties or {})},
        penalty_hours=params.opt_str("penalty_hours") or base_effect.penalty_hours,
    )
    action_time = params.opt_int("action_time")
    action_rounds = params.opt_int("action_rounds")
    if action_time is not None and action_rounds is not None:
        raise InputError(
            "give the action time as action_time or as action_rounds, not both",
            expected="action_time: 20m, or action_rounds: 1",
            where="action_time",
        )
    if row is None:
        if action_time is None and action_rounds is None:
            raise InputError(
                f"{name!r} is not in the example table, so it needs an action time",
                expected="action_time such as 20m or 1h, action_rounds such as 1, or a table ailment: "
                + ", ".join(a.name for a in TABLE),
                where="action_time",
            )
        if effect.empty:
            raise InputError(
                f"custom ailment {name!r} needs an effect",
                expected="injuries, sleep, paralysis or penalties",
                where="effect",
            )
    strength = params.opt_int("strength")
    chronic = params.opt_bool("chronic")
    inescapable = True if inescapable_exposure else params.opt_bool("inescapable")
    if action_time is not None and action_time <= 0:
        raise InputError("an action time must be longer than 0", expected="a duration such as 10s", where="action_time")
    if action_rounds is not None:
        rounds, seconds = action_rounds, 0
    elif action_time is not None:
        rounds, seconds = 0, action_time
    else:
        assert row is not None
        rounds, seconds = row.action_rounds, row.action_time
    return Ailment(
        name=name,
        strength=strength if strength is not None else (row.strength if row else 0),
        action_time=seconds,
        action_rounds=rounds,
        chronic=chronic if chronic is not None else (row.chronic if row else False),
        inescapable=inescapable if inescapable is not None else (row.inescapable if row else False),
        effect=effect,
        reading=row.reading if row else "",
    )


# -- actions ------------------------------------------------------------------------------------
def _contract(play: Play[GmCharacter], action: Call, *, inescapable_exposure: bool) -> None:
    actor = action.character
    refuse_if_dead(play, actor, "contract an ailment")
    params = action.params
    ailment = _ailment_from_params(params, inescapable_exposure=inescapable_exposure)
    if play.state.condition(actor, ailment.name) is not None:
        raise RuleRefusal(
            f"{actor} already has {ailment.name}; remove it (cure_ailment) before contracting it again "
            f"(seed 002, {AILMENTS_SECTION})"
        )
    exposure = params.str("exposure")
    reaction, extra = resist_reaction(exposure)
    table = f" ({AILMENT_TABLE})" if find_ailment(ailment.name) else ""
    play.explain(
        f"{ailment.name}: {ailment.type_text}, strength {ailment.strength}, action time "
        f"{ailment.describe_action_time()}, effect {ailment.effect.describe()}{table}",
        _rule(AILMENT_TABLE if table else AILMENTS_SECTION, reading=ailment.reading or None),
        actor=actor,
    )
    data: dict[str, Any] = {
        "kind": AILMENT_KIND,
        "ailment": ailment_to_json(ailment),
        "exposure": exposure,
        "stage": "exposed" if ailment.inescapable else "incubating",
        "strength": ailment.strength,
        "times": 0,
        "throw_off_rolls": 0,
        "penalties": {},
        "started": play.now,
        "illusory": params.bool("illusory"),
    }
    play.result["ailment"] = {"name": ailment.name, "stage": data["stage"]}
    if ailment.inescapable:
        _start(play, actor, ailment, data, f"{actor} is exposed to {ailment.name}, which is inescapable")
        play.explain(
            f"a roll against {reaction} at every action time while exposed decides whether it strikes",
            _rule(AILMENTS_SECTION),
            actor=actor,
        )
        return
    if params.bool("contracted"):
        _start(play, actor, ailment, data, f"{actor} has contracted {ailment.name}")
        return
    mods = [Modifier(-ailment.strength, "ailment strength"), *_illusory(data)]
    if extra:
        mods.append(Modifier(extra, "accepted willingly"))
    check = c_roll(play, actor, kind="gm.ailment", score=reaction, modifiers=mods)
    ask(
        play,
        actor,
        check,
        purpose=RESIST,
        rule=_rule(AILMENT_STRENGTH),
        data={"name": ailment.name, "pending": data},
    )


def _illusory(data: Mapping[str, Any]) -> list[Modifier]:
    """An invisible phantasmal effect (an illusory poison) the victim suspects: +10 to resist
    (seed 002, "Actions and consequences: Illusions")."""
    return [Modifier(INVISIBLE_EFFECT_BONUS, "only an illusion")] if data.get("illusory") else []


def _start(play: Play[GmCharacter], actor: str, ailment: Ailment, data: Mapping[str, Any], text: str) -> None:
    play.add_condition(actor, ailment.name, _rule(AILMENTS_SECTION), data=data, text=text)
    _schedule(play, actor, ailment)


def _contract_action(play: Play[GmCharacter], action: Call) -> None:
    _contract(play, action, inescapable_exposure=False)


def _expose_action(play: Play[GmCharacter], action: Call) -> None:
    _contract(play, action, inescapable_exposure=True)


def _remove_exposure(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    name = " ".join(action.params.str("name").lower().split())
    condition = _ailment_condition(play, actor, name)
    if condition is None or condition.data.get("stage") != "exposed":
        raise RuleRefusal(f"{actor} is not exposed to an inescapable {name!r} (seed 002, {AILMENTS_SECTION})")
    data = dict(condition.data)
    ailment = ailment_from_json(data["ailment"])
    play.cancel_timers(actor=actor, kind=_timer_kind(name))
    drop_pending_where(play, actor, EXPOSURE, name=name)
    play.result["ailment"] = {"name": name}
    if ailment.chronic and int(data["times"]) > 0:
        data.update(stage="ailing", strength=ailment.strength)
        set_condition_data(play, actor, name, data)
        play.explain(
            f"{actor} is out of the {name}: its strength drops back to {ailment.strength} and it now fades "
            "like any chronic ailment, thrown off by a health roll at each action time",
            _rule(AILMENTS_SECTION),
            actor=actor,
        )
        _schedule(play, actor, ailment)
        play.result["ailment"]["stage"] = "ailing"
        return
    play.explain(f"{actor} is no longer exposed to {name}", _rule(AILMENTS_SECTION), actor=actor)
    _finish(play, actor, name, data, reason="the exposure is over")


def _cure(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    name = " ".join(action.params.str("name").lower().split())
    condition = _ailment_condition(play, actor, name)
    lingering = play.state.condition(actor, _lingering_name(name))
    if condition is None and lingering is None:
        raise RuleRefusal(f"{actor} has no ailment {name!r}")
    play.cancel_timers(actor=actor, kind=_timer_kind(name))
    drop_pending_where(play, actor, PURPOSE_PREFIX, name=name)
    play.remove_condition(actor, name, quiet=True)
    play.remove_condition(actor, _lingering_name(name), quiet=True)
    play.explain(
        f"{name} is cured: its temporary effects end; injuries it caused stay until healed normally",
        _rule(AILMENT_EFFECTS),
        actor=actor,
    )
    play.result["ailment"] = {"name": name, "stage": "cured"}


# -- checks ---------------------------------------------------------------------------------------
def on_ailment_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor):
        return
    land = _AMOUNTS.get(pending.purpose)
    if land is not None:
        land(play, actor, pending.data, result.total)
        return
    name = str(pending.data.get("name"))
    if pending.purpose == RESIST:
        data = dict(pending.data["pending"])
        ailment = ailment_from_json(data["ailment"])
        if result.success:
            play.explain(f"{actor} resists {name}", _rule(AILMENT_STRENGTH), actor=actor)
            play.result["ailment"] = {"name": name, "stage": "resisted"}
            return
        data["started"] = play.now
        _start(play, actor, ailment, data, f"{actor} has contracted {name}; it strikes after its action time")
        play.result["ailment"] = {"name": name, "stage": "incubating"}
        return
    condition = _ailment_condition(play, actor, name)
    if condition is None:
        return
    data = dict(condition.data)
    ailment = ailment_from_json(data["ailment"])
    if pending.purpose == EXPOSURE:
        if result.success:
            play.explain(f"{name} does not take {actor} this time", _rule(AILMENTS_SECTION), actor=actor)
        else:
            _strike(play, actor, name)
        _report(play, actor, name)
        return
    if pending.purpose == THROW_OFF:
        if result.success:
            play.explain(f"{actor} throws off {name}", _rule(AILMENT_EFFECTS), actor=actor)
            _finish(play, actor, name, data, reason="thrown off")
            return
        _strike(play, actor, name)
        at = int(pending.data.get("at", play.now))
        delay = max(0, at + ailment.action_seconds(round_length(play)) - play.now)
        play.schedule(delay, _timer_kind(name), f"{name}: action time for {actor}", actor=actor, data={"name": name})
        _report(play, actor, name)


# -- timers --------------------------------------------------------------------------------------
def on_ailment_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    name = str(timer.data.get("name"))
    if actor is None or actor not in play.state.characters or cond.is_dead(play, actor):
        return
    condition = _ailment_condition(play, actor, name)
    if condition is None:
        return
    data = dict(condition.data)
    ailment = ailment_from_json(data["ailment"])
    stage = data["stage"]
    if stage == "incubating":
        play.explain(f"{name}'s action time is up: it strikes {actor}", _rule(AILMENT_EFFECTS), actor=actor)
        _strike(play, actor, name, at_round_end=ailment.action_rounds > 0)
        if ailment.chronic:
            data = _data(play, actor, name)
            data["stage"] = "ailing"
            set_condition_data(play, actor, name, data)
            _schedule(play, actor, ailment)
        else:
            _finish(play, actor, name, _data(play, actor, name), reason="its effect has struck")
        _report(play, actor, name)
        return
    if stage == "ailing":
        rolls = int(data.get("throw_off_rolls", 0))
        strength = int(data["strength"]) - 1
        data.update(strength=strength, throw_off_rolls=rolls + 1)
        set_condition_data(play, actor, name, data)
        play.explain(
            f"{name} is chronic: its strength fades to {strength} before this throw-off roll",
            _rule(AILMENT_EFFECTS, reading="strength drops by 1 before each throw-off roll"),
            actor=actor,
        )
        check = c_roll(
            play,
            actor,
            kind="gm.ailment.throw-off",
            score="health",
            modifiers=[Modifier(-strength, "ailment strength")],
        )
        ask(
            play,
            actor,
            check,
            purpose=THROW_OFF,
            rule=_rule(AILMENT_EFFECTS),
            data={"name": name, "at": play.now},
        )
        return
    if stage == "exposed":
        _schedule(play, actor, ailment)
        if ailment.chronic and int(data["times"]) > 0:
            play.explain(
                f"{name} has taken hold and {actor} is still in it: it strikes again with no roll",
                _rule(AILMENTS_SECTION),
                actor=actor,
            )
            _strike(play, actor, name, at_round_end=ailment.action_rounds > 0)
            _grow(play, actor, name)
            _report(play, actor, name)
            return
        strength = int(data["strength"])
        reaction, extra = resist_reaction(str(data["exposure"]))
        mods = [Modifier(-strength, "ailment strength"), *_illusory(data)]
        if extra:
            mods.append(Modifier(extra, "accepted willingly"))
        play.explain(
            f"{actor} is still exposed to {name}: a roll against {reaction} says whether it takes them this time",
            _rule(AILMENTS_SECTION),
            actor=actor,
        )
        check = c_roll(play, actor, kind="gm.ailment", score=reaction, modifiers=mods)
        if ailment.chronic:
            _grow(play, actor, name)
        ask(
            play,
            actor,
            check,
            purpose=EXPOSURE,
            rule=_rule(AILMENTS_SECTION),
            data={"name": name, "at": play.now},
        )


def _data(play: Play[Any], actor: str, name: str) -> dict[str, Any]:
    condition = _ailment_condition(play, actor, name)
    return dict(condition.data) if condition is not None else {}


def _schedule(play: Play[Any], actor: str, ailment: Ailment) -> None:
    # An action time in rounds ends with a round: a bite at 4 s of a 10 s round strikes at 10 s.
    delay = to_round_end(play, ailment.action_rounds) if ailment.action_rounds else ailment.action_time
    play.schedule(
        delay,
        _timer_kind(ailment.name),
        f"{ailment.name}: action time for {actor}",
        actor=actor,
        data={"name": ailment.name},
    )


def _grow(play: Play[Any], actor: str, name: str) -> None:
    """A chronic inescapable ailment grows one stronger for each action time of exposure."""
    data = _data(play, actor, name)
    if not data:
        return
    data["strength"] = int(data["strength"]) + 1
    set_condition_data(play, actor, name, data)
    play.explain(
        f"{name} is chronic and inescapable: its strength rises to {data['strength']} while {actor} stays in it",
        _rule(AILMENTS_SECTION),
        actor=actor,
    )


# -- effects -------------------------------------------------------------------------------------
def _strike(play: Play[GmCharacter], actor: str, name: str, *, at_round_end: bool = False) -> None:
    """The ailment's effect, once more, adding to what it has already done.

    ``at_round_end``: it strikes as a round ends, so a death check it causes is made at that same
    round's end, not a round later.
    """
    data = _data(play, actor, name)
    ailment = ailment_from_json(data["ailment"])
    effect = ailment.effect
    cite = _rule(AILMENT_EFFECTS)
    data["times"] = int(data["times"]) + 1
    penalties = dict(data.get("penalties", {}))
    for target, value in effect.penalties.items():
        penalties[target] = int(penalties.get(target, 0)) + value
    data["penalties"] = penalties
    set_condition_data(play, actor, name, data)
    if effect.penalties:
        play.explain(
            f"{name} strikes {actor} (time {data['times']}): penalties now "
            + ", ".join(f"{v:+d} {k}" for k, v in penalties.items()),
            cite,
            actor=actor,
        )
    data = {"name": name, "times": int(data["times"]), "at_round_end": at_round_end}
    if effect.sleep_minutes:
        roll_amount(
            play,
            effect.sleep_minutes,
            f"{name}: minutes of sleep",
            cite,
            actor=actor,
            kind="gm.ailment.sleep",
            purpose=SLEEP_ROLL,
            data=data,
            stakes=Stakes(
                purpose=f"how long {name} puts {actor} to sleep", on_success=f"{actor} sleeps that many minutes more"
            ),
            land=_land_sleep,
        )
    if effect.paralysis_minutes:
        roll_amount(
            play,
            effect.paralysis_minutes,
            f"{name}: minutes of paralysis",
            cite,
            actor=actor,
            kind="gm.ailment.paralysis",
            purpose=PARALYSIS_ROLL,
            data=data,
            stakes=Stakes(
                purpose=f"how long {name} paralyses {actor}", on_success=f"{actor} is paralysed that many minutes more"
            ),
            land=_land_paralysis,
        )
    if effect.injuries:
        roll_amount(
            play,
            effect.injuries,
            f"{name}: injury points",
            cite,
            actor=actor,
            kind="gm.ailment.injuries",
            purpose=INJURY_ROLL,
            data=data,
            stakes=Stakes(
                purpose=f"how many injury points {name} does to {actor}",
                on_success="that many injuries, with a consciousness roll and the death check at the round's end",
            ),
            land=_land_injuries,
        )


def _land_sleep(play: Play[GmCharacter], actor: str, data: Mapping[str, Any], minutes: int) -> None:
    _extend(play, actor, SLEEPING, minutes, f"{actor} sleeps", _rule(AILMENT_EFFECTS))


def _land_paralysis(play: Play[GmCharacter], actor: str, data: Mapping[str, Any], minutes: int) -> None:
    _extend(play, actor, PARALYZED, minutes, f"{actor} is paralyzed", _rule(AILMENT_EFFECTS))


def _land_injuries(play: Play[GmCharacter], actor: str, data: Mapping[str, Any], n: int) -> None:
    name, cite = str(data["name"]), _rule(AILMENT_EFFECTS)
    play.explain(
        f"{name} strikes {actor} (time {data['times']}): {n} injur{'y' if n == 1 else 'ies'}", cite, actor=actor
    )
    if n > 0:
        add_injuries(play, actor, n, cite, at_round_end=bool(data.get("at_round_end")))


def _land_linger(play: Play[GmCharacter], actor: str, data: Mapping[str, Any], hours: int) -> None:
    name, cite = str(data["name"]), _rule(AILMENT_EFFECTS)
    penalties = {str(k): int(v) for k, v in dict(data["penalties"]).items()}
    if hours > 0:
        play.add_condition(
            actor,
            _lingering_name(name),
            cite,
            duration=hours * HOUR,
            data={"kind": LINGERING_KIND, "penalties": penalties},
            text=f"{name}'s penalties ("
            + ", ".join(f"{v:+d} {k}" for k, v in penalties.items())
            + f") linger for {hours} hours",
        )


_AMOUNTS = {
    SLEEP_ROLL: _land_sleep,
    PARALYSIS_ROLL: _land_paralysis,
    INJURY_ROLL: _land_injuries,
    LINGER_ROLL: _land_linger,
}


def _extend(play: Play[Any], actor: str, name: str, minutes: int, text: str, cite: Rule) -> None:
    """Start a timed condition or add ``minutes`` to it: the effects of an ailment add up."""
    existing = play.state.condition(actor, name)
    clock = play.now
    if existing is not None and existing.until is not None:
        remaining = max(0, existing.until - clock)
        total = int(existing.data.get("minutes", 0)) + minutes
        since = int(existing.data.get("since", existing.since))
    else:
        remaining = 0
        total = minutes
        since = clock
    duration = remaining + minutes * MINUTE
    if duration <= 0:
        return
    play.add_condition(
        actor,
        name,
        cite,
        duration=duration,
        data={"minutes": total, "since": since},
        text=f"{text}: {minutes} more minutes, {total} in all ({format_duration(duration)} from now)",
    )
    play.result[f"{name}_minutes"] = total


def _lingering_name(name: str) -> str:
    return f"{name} after-effects"


def _finish(play: Play[GmCharacter], actor: str, name: str, data: Mapping[str, Any], *, reason: str) -> None:
    """The ailment is over (thrown off, exposure over, or struck once); temporary penalties end,
    linger for their own time, or -- with no time given for a one-time ailment -- stay until cured."""
    ailment = ailment_from_json(data["ailment"])
    penalties = {k: int(v) for k, v in dict(data.get("penalties", {})).items() if int(v)}
    cite = _rule(AILMENT_EFFECTS)
    play.cancel_timers(actor=actor, kind=_timer_kind(name))
    if penalties and not ailment.chronic and not ailment.effect.penalty_hours:
        new = dict(data)
        new["stage"] = "affected"
        set_condition_data(play, actor, name, new)
        play.explain(
            f"{name} has run its course ({reason}); its penalties stay until it is cured",
            _rule(AILMENT_EFFECTS, reading="penalties of a one-time ailment with no set length last until cured"),
            actor=actor,
        )
        return
    play.remove_condition(actor, name, quiet=True)
    lasting = "; injuries it caused remain" if ailment.effect.injuries and int(data.get("times", 0)) else ""
    play.explain(f"{name} is over for {actor} ({reason}){lasting}", cite, actor=actor)
    if penalties and ailment.effect.penalty_hours:
        roll_amount(
            play,
            ailment.effect.penalty_hours,
            f"{name}: hours its penalties linger",
            cite,
            actor=actor,
            kind="gm.ailment.linger",
            purpose=LINGER_ROLL,
            data={"name": name, "penalties": penalties},
            stakes=Stakes(
                purpose=f"how long {name}'s penalties linger on {actor} after it is over",
                on_success="the penalties stay that many hours",
            ),
            land=_land_linger,
        )
    play.result["ailment"] = {"name": name, "stage": "over", "times": int(data.get("times", 0))}


def _report(play: Play[Any], actor: str, name: str) -> None:
    data = _data(play, actor, name)
    if not data:
        return
    play.result["ailment"] = {
        "name": name,
        "stage": data["stage"],
        "times": int(data["times"]),
        "strength": int(data["strength"]),
        "penalties": dict(data.get("penalties", {})),
    }


# -- the action specs -------------------------------------------------------------------------
def _params(*, with_contracted: bool) -> tuple[ParamSpec, ...]:
    names = ", ".join(a.name for a in TABLE)
    params = [
        ParamSpec("name", "str", f"the ailment: one of the example table ({names}) or a new name", required=True),
        ParamSpec(
            "exposure",
            "choice",
            "how it is met: accepted (health -4), avoidable by knowing (perception) or forced on an unwilling "
            "victim (evasion)",
            default="forced",
            choices=tuple(EXPOSURES),
        ),
    ]
    if with_contracted:
        params.append(ParamSpec("contracted", "bool", "already contracted: skip the roll to resist", default=False))
    params += [
        ParamSpec(
            "illusory",
            "bool",
            "an invisible phantasmal effect (an illusory poison) the victim knows may exist: +10 to resist",
            default=False,
        ),
        ParamSpec("strength", "int", "strength (table value if omitted)", minimum=-10, maximum=20),
        ParamSpec("action_time", "duration", "action time, e.g. 20m, 1h (table value if omitted)", minimum=1),
        ParamSpec(
            "action_rounds",
            "int",
            "action time in rounds, ending with a round (option round_seconds), e.g. 1 for a poison that "
            "strikes at the end of the round it was contracted in",
            minimum=1,
            maximum=600,
        ),
        ParamSpec("chronic", "bool", "chronic: repeats until thrown off (table value if omitted)"),
        ParamSpec("inescapable", "bool", "inescapable: rolls every action time while exposed (table value if omitted)"),
        ParamSpec("injuries", "dice", "injury points per failure, e.g. 1d3 (replaces the table's)"),
        ParamSpec("sleep", "dice", "minutes of sleep per failure, e.g. 2d10"),
        ParamSpec("paralysis", "dice", "minutes of paralysis per failure, e.g. 1d4"),
        ParamSpec("penalties", "str", "penalties per failure, e.g. concentration=-1,agility=-1 (added to the table's)"),
        ParamSpec("penalty_hours", "dice", "the penalties linger this many hours after the ailment ends, e.g. 1d4"),
    ]
    return tuple(params)


_NAME = (ParamSpec("name", "str", "the ailment's name", required=True),)

AILMENT_ACTIONS: dict[str, ActionSpec] = {
    "ailment": ActionSpec(
        "ailment",
        "Meet an ailment (poison, sickness, drug): resist it, then it runs over game time (seed 002, Ailments)",
        _contract_action,
        params=_params(with_contracted=True),
        kind="ailment",
    ),
    "expose": ActionSpec(
        "expose",
        "Be exposed to an inescapable ailment (a gas): a roll every action time while exposed (seed 002, Ailments)",
        _expose_action,
        params=_params(with_contracted=False),
        kind="ailment",
    ),
    "remove_exposure": ActionSpec(
        "remove_exposure",
        "Leave an inescapable ailment's area; a chronic one drops to normal strength and fades (seed 002, Ailments)",
        _remove_exposure,
        params=_NAME,
        kind="ailment",
    ),
    "cure_ailment": ActionSpec(
        "cure_ailment",
        "End an ailment by cure or healing: its temporary effects end, injuries stay (seed 002, Ailment effects)",
        _cure,
        params=_NAME,
        kind="heal",
    ),
}


def _wakes(play: Play[GmCharacter], condition: Condition) -> None:
    play.explain(f"{condition.actor} wakes from the ailment's sleep", c_rule(AILMENT_EFFECTS), actor=condition.actor)


def _moves_again(play: Play[GmCharacter], condition: Condition) -> None:
    play.explain(f"{condition.actor} can move again", c_rule(AILMENT_EFFECTS), actor=condition.actor)


#: Ailments: sickness, disease and poison (seed 002).
AILMENT_SECTION = Section(
    "ailments",
    actions=AILMENT_ACTIONS,
    check_kinds=(
        CheckKind("gm.ailment", "reaction roll to resist an ailment (and each action time of an inescapable one)"),
        CheckKind("gm.ailment.throw-off", "health roll to throw off a chronic ailment at its action time"),
        *(CheckKind(kind, text) for kind, text in AMOUNT_KINDS.items()),
    ),
    checks=(CheckSpec("c.ailment.", on_ailment_check, family=True),),
    timers=(TimerSpec(AILMENT_TIMER_PREFIX, on_ailment_timer, family=True),),
    condition_end={SLEEPING: _wakes, PARALYZED: _moves_again},
)
