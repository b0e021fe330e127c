"""Searching, tracking and covering tracks (see :mod:`.searching`)."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.group_effort import group_effort_bonus
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll, refuse_if_unable
from rulekeeper.systems.gods_monsters.consequences.searching import (
    TRACKING_OBSTACLE_YARDS,
    covering_penalty,
    search_minutes,
)
from rulekeeper.systems.gods_monsters.consequences.sections import SEARCHING, TRACKING, c_rule, group_effort_rule

__all__ = [
    "COVERING_TRACKS",
    "COVER_PURPOSE",
    "SEARCHING_ACTIONS",
    "SEARCHING_SECTION",
    "SEARCH_PURPOSE",
    "TRACK_PURPOSE",
    "on_search_check",
]

SEARCH_PURPOSE = "c.search"
TRACK_PURPOSE = "c.track"
COVER_PURPOSE = "c.cover-tracks"
COVERING_TRACKS = "covering tracks"


def _search(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "search")
    area = action.params.int("area")
    minutes = search_minutes(area)
    penalty = action.params.int("penalty")
    cite = c_rule(SEARCHING, reading="two minutes per started 10 ft x 10 ft")
    play.explain(f"{actor} searches {area} sq ft: about {minutes} minutes", cite, actor=actor)
    mods = [Modifier(-penalty, "well hidden")] if penalty else []
    check = c_roll(play, actor, kind="gm.search", score="perception", modifiers=mods)
    play.result["search"] = {"minutes": minutes}
    ask(play, actor, check, purpose=SEARCH_PURPOSE, rule=cite, data={"minutes": minutes})


def _track(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "track")
    params = action.params
    days = params.int("days")
    size = params.int("group_size")
    covered = params.int("covered")
    quarry = params.opt_str("quarry")
    if quarry is not None:
        if quarry == actor:
            raise InputError("a character cannot track themselves", expected="another character id", where="quarry")
        play.char(quarry)
        condition = play.state.condition(quarry, COVERING_TRACKS)
        if condition is not None:
            covered += int(condition.data.get("penalty", 0))
    mods = []
    if days:
        mods.append(Modifier(-days, f"{days} day{'s' if days != 1 else ''} old"))
    group = group_effort_bonus(size)
    if group:
        mods.append(Modifier(group, f"group of {size}"))
    if covered:
        mods.append(Modifier(-covered, "tracks covered"))
    if params.int("penalty"):
        mods.append(Modifier(-params.int("penalty"), "difficult ground"))
    terrain = params.str("terrain")
    cite = c_rule(TRACKING)
    play.explain(
        f"{actor} tracks over {TRACKING_OBSTACLE_YARDS[terrain]} yards ({terrain}) per roll",
        c_rule(TRACKING, reading="the obstacle size is the stretch one roll follows"),
        actor=actor,
    )
    if group:
        play.explain(f"a group of {size} leaves an easier trail: +{group}", group_effort_rule(), actor=actor)
    check = c_roll(play, actor, kind="gm.track", score="perception", modifiers=mods)
    ask(play, actor, check, purpose=TRACK_PURPOSE, rule=cite, data={"days": days, "group_size": size})


def _cover(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "cover their tracks")
    cite = c_rule(TRACKING)
    play.explain(f"{actor} covers their tracks, moving at half movement", cite, actor=actor)
    check = c_roll(play, actor, kind="gm.track", score="perception")
    ask(play, actor, check, purpose=COVER_PURPOSE, rule=cite)


def on_search_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    if pending.purpose == SEARCH_PURPOSE:
        cite = c_rule(SEARCHING)
        found = "finds what is hidden" if result.success else "finds nothing"
        play.explain(f"{actor} {found}", cite, actor=actor)
        play.result["search"] = {"found": result.success, "minutes": pending.data.get("minutes")}
        return
    cite = c_rule(TRACKING)
    if pending.purpose == TRACK_PURPOSE:
        if result.success:
            play.explain(
                f"{actor} follows the trail, and learns roughly when the creatures passed, how many they were, "
                "and what they are if familiar",
                cite,
                actor=actor,
            )
        else:
            play.explain(f"{actor} loses the trail", cite, actor=actor)
        play.result["track"] = {"success": result.success}
        return
    if pending.purpose == COVER_PURPOSE:
        if not result.success:
            play.explain(f"{actor} fails to hide their trail", cite, actor=actor)
            play.remove_condition(actor, COVERING_TRACKS, quiet=True)
            play.result["cover_tracks"] = {"success": False, "penalty": 0}
            return
        penalty = covering_penalty(result.margin)
        play.add_condition(
            actor,
            COVERING_TRACKS,
            cite,
            data={"penalty": penalty},
            text=f"{actor} covers their tracks: trackers are at -{penalty}; {actor} moves at half movement",
        )
        play.result["cover_tracks"] = {"success": True, "penalty": penalty}


SEARCHING_ACTIONS: dict[str, ActionSpec] = {
    "search": ActionSpec(
        "search",
        "Search an area: perception at a penalty, two minutes per 10 ft x 10 ft (seed 002, Searching)",
        _search,
        params=(
            ParamSpec("area", "int", "square feet searched", default=100, minimum=1, maximum=100_000_000),
            ParamSpec("penalty", "int", "how well the thing is hidden", default=0, minimum=0, maximum=50),
        ),
        kind="feat",
    ),
    "track": ActionSpec(
        "track",
        "Follow a trail: perception -1 per day, + group size bonus, - covered tracks (seed 002, Tracking)",
        _track,
        params=(
            ParamSpec("days", "int", "days since the quarry passed", default=0, minimum=0, maximum=100_000),
            ParamSpec(
                "group_size", "int", "how many creatures made the trail", default=1, minimum=1, maximum=1_000_000
            ),
            ParamSpec(
                "covered", "int", "penalty from tracks covered (the coverer's margin)", default=0, minimum=0, maximum=50
            ),
            ParamSpec("quarry", "character", "a tracked character (their covered-tracks penalty applies)"),
            ParamSpec("penalty", "int", "other penalties", default=0, minimum=0, maximum=50),
            ParamSpec(
                "terrain",
                "choice",
                "natural (a quarter mile per roll) or urban (100 yards)",
                default="natural",
                choices=tuple(TRACKING_OBSTACLE_YARDS),
            ),
        ),
        kind="feat",
    ),
    "cover_tracks": ActionSpec(
        "cover_tracks",
        "Cover one's own tracks: perception; the margin penalizes trackers; half movement (seed 002, Tracking)",
        _cover,
        kind="feat",
    ),
}


#: Searching and tracking (seed 002).
SEARCHING_SECTION = Section(
    "searching",
    actions=SEARCHING_ACTIONS,
    check_kinds=(
        CheckKind("gm.search", "perception roll to search"),
        CheckKind("gm.track", "perception roll to track or to cover tracks"),
    ),
    checks=tuple(CheckSpec(p, on_search_check) for p in (SEARCH_PURPOSE, TRACK_PURPOSE, COVER_PURPOSE)),
)
