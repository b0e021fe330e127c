"""Moving at a speed of the speeds table, forcing a march, resting from it (see :mod:`.movement`).

``move`` puts the ``moving`` condition on the character: its reaction penalty applies to their
reaction rolls (``consequence_roll_modifiers``) and its attack bonus is shown for attackers. A
timer marks the end of the speed's time base, when a ten-minute rest is due ("Movement: Rest").
``force_march`` is the health roll for pushing on without that rest, or for a day's travel 50%
longer; the count of such rolls since the last rest lives in the ``forced march`` condition and
``march_rest`` clears it.
"""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.clock import format_duration
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.concentration_play import CONCENTRATING
from rulekeeper.systems.gods_monsters.consequences.movement import (
    LIGHT_LEVELS,
    SPEEDS,
    TERRAINS,
    daily_movement,
    forced_march_modifier,
    speed_numbers,
)
from rulekeeper.systems.gods_monsters.consequences.playing import (
    ask,
    c_roll,
    drop_pending_where,
    refuse_if_unable,
    round_length,
)
from rulekeeper.systems.gods_monsters.consequences.sections import (
    DAILY_MOVEMENT,
    MOVEMENT,
    MOVEMENT_DARKNESS,
    MOVEMENT_FLYING,
    MOVEMENT_REST,
    c_rule,
)
from rulekeeper.systems.gods_monsters.consequences.state_effects import MOVING
from rulekeeper.systems.gods_monsters.damage import add_injuries

__all__ = [
    "FORCED_MARCH",
    "MARCH_PURPOSE",
    "MOVEMENT_ACTIONS",
    "MOVEMENT_SECTION",
    "REST_DUE_TIMER",
    "clear_march_count",
    "on_march_check",
    "on_rest_due_timer",
]

FORCED_MARCH = "forced march"
TRAVELLING = "travelling"  # data: days walked in a row since the last day's rest
MARCH_PURPOSE = "c.march"
REST_DUE_TIMER = "gm.c.rest-due"


def _move(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    name = action.params.str("speed")
    play.cancel_timers(actor=actor, kind=REST_DUE_TIMER)
    if name == "stop":
        if not play.remove_condition(actor, MOVING, c_rule(MOVEMENT)):
            raise RuleRefusal(f"{actor} is not moving at a set speed")
        play.result["speed"] = None
        return
    refuse_if_unable(play, actor, "move", movement=True)
    slow = "semi-conscious"
    if name != slow and play.has(actor, cond.SEMI_CONSCIOUS):
        raise RuleRefusal(
            f"{actor} is semi-conscious and moves only at half movement (speed {slow}) (seed 002, {MOVEMENT})"
        )
    if name != slow and play.has(actor, CONCENTRATING):
        raise RuleRefusal(
            f"{actor} is concentrating and moves at no more than half movement (speed {slow}) (seed 002, concentration)"
        )
    character = play.char(actor)
    light = action.params.str("light")
    numbers = speed_numbers(
        name,
        character.movement,
        character.endurance,
        outdoors=action.params.bool("outdoors"),
        light=light,
        can_see=action.params.bool("can_see"),
        round_seconds=round_length(play),
    )
    if numbers.movement != character.movement:
        play.explain(
            f"{light}: {actor}'s movement drops from {character.movement} to {numbers.movement}",
            c_rule(MOVEMENT_DARKNESS),
            actor=actor,
        )
    where = "outdoors (penalty shifted up one)" if numbers.outdoors else "in a dangerous place"
    flag = f" [unconfirmed: {numbers.unconfirmed}]" if numbers.unconfirmed else ""
    play.add_condition(
        actor,
        MOVING,
        c_rule(MOVEMENT, reading="outdoors only the reaction penalties shift, among explore..sprint"),
        data={
            "speed": name,
            "reaction": numbers.reaction,
            "attack": numbers.attack,
            "feet_per_round": float(numbers.feet_per_round),
            "yards_per_minute": float(numbers.yards_per_minute),
        },
        text=f"{actor} moves at {name} {where}: {float(numbers.feet_per_round):g} ft a round, "
        f"{float(numbers.yards_per_minute):g} yd a minute; reactions {numbers.reaction:+d}, attackers "
        f"{numbers.attack:+d}{flag}",
    )
    play.schedule(
        numbers.time_base_seconds,
        REST_DUE_TIMER,
        f"{actor} has kept up {name} for its time base: a ten-minute rest is due",
        actor=actor,
        data={"speed": name},
    )
    play.result["speed"] = {
        "speed": name,
        "feet_per_round": float(numbers.feet_per_round),
        "yards_per_minute": float(numbers.yards_per_minute),
        "reaction": numbers.reaction,
        "attack": numbers.attack,
        "time_base": format_duration(numbers.time_base_seconds),
    }


def on_rest_due_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    if actor is None or not play.has(actor, MOVING):
        return
    play.explain(
        f"{actor} should now rest ten minutes, or push on with a health roll (force_march)",
        c_rule(MOVEMENT_REST),
        actor=actor,
    )


def _march_count(play: Play[GmCharacter], actor: str) -> int:
    condition = play.state.condition(actor, FORCED_MARCH)
    return int(condition.data.get("rolls", 0)) if condition is not None else 0


def _force_march(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "march", movement=True)
    params = action.params
    previous = params.opt_int("previous_rolls")
    count = _march_count(play, actor) if previous is None else previous
    _ask_march_roll(
        play, actor, params.str("mode"), count, slower_by=params.int("slower_by"), thirst=params.int("thirst")
    )


def _ask_march_roll(
    play: Play[GmCharacter], actor: str, mode: str, count: int, *, slower_by: int = 0, thirst: int = 0, what: str = ""
) -> None:
    modifier_parts = {"slower": 2 * slower_by, "earlier": -2 * count, "thirst": -thirst}
    total = forced_march_modifier(slower_by=slower_by, previous_rolls=count, thirst=thirst)
    mods = []
    if modifier_parts["slower"]:
        mods.append(Modifier(modifier_parts["slower"], f"Movement reduced by {slower_by}"))
    if modifier_parts["earlier"]:
        mods.append(Modifier(modifier_parts["earlier"], f"{count} earlier roll{'s' if count != 1 else ''} since rest"))
    if modifier_parts["thirst"]:
        mods.append(Modifier(modifier_parts["thirst"], "too little water or salt"))
    cite = c_rule(DAILY_MOVEMENT if mode == "long_day" else MOVEMENT_REST)
    what = what or ("a day's travel half again as long" if mode == "long_day" else "pushing on without the rest")
    play.explain(f"{actor}: {what} calls for a health roll at {total:+d}; failure means an injury", cite, actor=actor)
    if mode == "rest":
        play.add_condition(
            actor,
            FORCED_MARCH,
            cite,
            data={"rolls": count + 1},
            text=f"{actor} has made {count + 1} forced-march roll{'s' if count else ''} since resting",
        )
    check = c_roll(play, actor, kind="gm.march", score="health", modifiers=mods)
    ask(play, actor, check, purpose=MARCH_PURPOSE, rule=cite, data={"mode": mode})


def on_march_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    mode = str(pending.data.get("mode", "rest"))
    cite = c_rule(DAILY_MOVEMENT if mode == "long_day" else MOVEMENT_REST)
    play.result["march"] = {"success": result.success}
    if result.success:
        play.explain(f"{actor} keeps going without harm", cite, actor=actor)
        return
    play.explain(f"{actor} pushes too hard: one injury", cite, actor=actor)
    add_injuries(play, actor, 1, cite)


def _travel(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "travel", movement=True)
    character = play.char(actor)
    params = action.params
    days = params.int("days")
    terrain = params.str("terrain")
    daily = daily_movement(character.movement, character.endurance)
    if params.bool("flying"):
        miles = daily.flying_miles_per_day * days
        play.explain(
            f"{actor} flies {daily.flying_mph} miles an hour, {daily.flying_miles_per_day} miles a day: "
            f"{miles} miles in {days} day{'s' if days != 1 else ''}",
            c_rule(MOVEMENT_FLYING, reading="a flier's day is eight ideal walking days; terrain does not slow it"),
            actor=actor,
        )
        play.result["travel"] = {
            "miles": miles,
            "miles_per_day": daily.flying_miles_per_day,
            "flying_mph": daily.flying_mph,
        }
        return
    before = _days_walked(play, actor)
    limit = int(daily.rest_day_after_days)  # whole days: a day's rest after half endurance days
    beyond = max(0, before + days - limit)
    if beyond and not params.bool("push_on"):
        raise RuleRefusal(
            f"{actor} has walked {before} day{'s' if before != 1 else ''} in a row and a day's rest is due after "
            f"{limit} (half endurance {character.endurance}): rest a day first (rest_day), or travel with "
            f"push_on for a forced-march health roll on each day beyond (seed 002, {DAILY_MOVEMENT})"
        )
    per_day = daily.forced[terrain] if params.bool("push") else daily.by_terrain[terrain]
    miles = per_day * days
    play.explain(
        f"{actor} (Movement {character.movement}) walks {per_day} miles a day over {terrain} ground: {miles} miles "
        f"in {days} day{'s' if days != 1 else ''} (ideal {daily.by_terrain['ideal']}, forest or hills "
        f"{daily.by_terrain['forest']}, bog {daily.by_terrain['bog']}); a day's rest is due after "
        f"{float(daily.rest_day_after_days):g} days of it",
        c_rule(DAILY_MOVEMENT, reading="miles a day rounded down"),
        actor=actor,
    )
    play.result["travel"] = {
        "miles": miles,
        "miles_per_day": per_day,
        "by_terrain": dict(daily.by_terrain),
        "walking_mph": round(float(daily.walking_mph), 3),
        "flying_mph": daily.flying_mph,
    }
    walked = before + days
    play.add_condition(
        actor,
        TRAVELLING,
        c_rule(DAILY_MOVEMENT),
        data={"days": walked, "rest_after": limit},
        text=f"{actor} has walked {walked} day{'s' if walked != 1 else ''} in a row "
        f"(a day's rest is due after {limit})",
    )
    play.result["travel"].update(days_in_a_row=walked, rest_day_after=limit)
    if params.bool("push"):
        for _ in range(days):
            check = c_roll(play, actor, kind="gm.march", score="health")
            ask(play, actor, check, purpose=MARCH_PURPOSE, rule=c_rule(DAILY_MOVEMENT), data={"mode": "long_day"})
    for day in range(beyond):
        count = _march_count(play, actor)
        _ask_march_roll(play, actor, "rest", count, what=f"walking on past the day's rest (day {limit + day + 1})")


def _days_walked(play: Play[GmCharacter], actor: str) -> int:
    condition = play.state.condition(actor, TRAVELLING)
    return int(condition.data.get("days", 0)) if condition is not None else 0


def _rest_day(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    if not rest_from_travel(play, actor):
        play.explain(
            f"{actor} has not been travelling: the day's rest changes nothing", c_rule(DAILY_MOVEMENT), actor=actor
        )
        play.result["travel"] = {"days_in_a_row": 0}


def rest_from_travel(play: Play[GmCharacter], actor: str) -> bool:
    """A day's rest: the days walked in a row start again (a full day of rest does this too).

    Returns whether there was anything to rest from.
    """
    had = _days_walked(play, actor)
    if not play.remove_condition(actor, TRAVELLING, quiet=True) and not _march_count(play, actor):
        return False
    clear_march_count(play, actor)
    play.explain(
        f"{actor} rests a day from travelling: the {had} day{'s' if had != 1 else ''} walked in a row start again",
        c_rule(DAILY_MOVEMENT),
        actor=actor,
    )
    play.result["travel"] = {"days_in_a_row": 0}
    return True


def clear_march_count(play: Play[GmCharacter], actor: str) -> None:
    """Rest resets the count of forced-march rolls (the survival rules' rest may call this)."""
    play.remove_condition(actor, FORCED_MARCH, quiet=True)


def _march_rest(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    had = _march_count(play, actor)
    clear_march_count(play, actor)
    play.cancel_timers(actor=actor, kind=REST_DUE_TIMER)
    drop_pending_where(play, actor, MARCH_PURPOSE)
    play.explain(
        f"{actor} rests from moving: the forced-march penalty ({had} earlier roll{'s' if had != 1 else ''}) is gone",
        c_rule(MOVEMENT_REST),
        actor=actor,
    )
    play.result["march"] = {"previous_rolls": 0}


MOVEMENT_ACTIONS: dict[str, ActionSpec] = {
    "move": ActionSpec(
        "move",
        "Move at a speed of the speeds table (reaction penalty, attack bonus, time base) or stop (seed 002, Movement)",
        _move,
        params=(
            ParamSpec(
                "speed", "choice", "the speed, or stop", required=True, choices=(*(s.name for s in SPEEDS), "stop")
            ),
            ParamSpec("outdoors", "bool", "outdoors, away from ruins, dungeons and combat", default=False),
            ParamSpec(
                "light",
                "choice",
                "light: light, dark night (no full moon) or total darkness",
                default="light",
                choices=LIGHT_LEVELS,
            ),
            ParamSpec("can_see", "bool", "special vision or a light source", default=False),
        ),
        kind="move",
    ),
    "force_march": ActionSpec(
        "force_march",
        "Push on without rest, or travel 50% further in a day: a health roll or an injury (seed 002, Movement: Rest)",
        _force_march,
        params=(
            ParamSpec(
                "mode",
                "choice",
                "rest: skip the rest after the time base; long_day: +50% day's travel",
                default="rest",
                choices=("rest", "long_day"),
            ),
            ParamSpec(
                "slower_by",
                "int",
                "Movement given up for the whole stretch (+2 each)",
                default=0,
                minimum=0,
                maximum=100,
            ),
            ParamSpec("thirst", "int", "penalty for too little water or salt (0-4)", default=0, minimum=0, maximum=4),
            ParamSpec(
                "previous_rolls",
                "int",
                "earlier such rolls since resting (counted if omitted)",
                minimum=0,
                maximum=1000,
            ),
        ),
        kind="move",
    ),
    "travel": ActionSpec(
        "travel",
        "Travel for days: 2x Movement miles a day ideal, Movement in forest or hills, half in bogs; fliers Movement "
        "mph (seed 002, Daily movement)",
        _travel,
        params=(
            ParamSpec("days", "int", "days of travel", default=1, minimum=1, maximum=10_000),
            ParamSpec("terrain", "choice", "the ground", default="ideal", choices=tuple(TERRAINS)),
            ParamSpec("push", "bool", "50% further each day, for a health roll each day", default=False),
            ParamSpec(
                "push_on",
                "bool",
                "walk on past the day's rest due after half endurance days, a forced-march roll per extra day",
                default=False,
            ),
            ParamSpec("flying", "bool", "the traveller flies", default=False),
        ),
        kind="move",
    ),
    "rest_day": ActionSpec(
        "rest_day",
        "Rest a day from travelling: the days walked in a row start again (seed 002, Daily movement)",
        _rest_day,
        kind="rest",
    ),
    "march_rest": ActionSpec(
        "march_rest",
        "Rest from moving (ten minutes or a day): the forced-march count starts again",
        _march_rest,
        kind="rest",
    ),
}


#: Movement (seed 002): forced marches and the rest they call for.
MOVEMENT_SECTION = Section(
    "movement",
    actions=MOVEMENT_ACTIONS,
    check_kinds=(CheckKind("gm.march", "health roll to force a march"),),
    checks=(CheckSpec(MARCH_PURPOSE, on_march_check),),
    timers=(TimerSpec(REST_DUE_TIMER, on_rest_due_timer),),
)
