"""The ``fall`` action: evasion where the height allows it, then the falling damage.

Rules and readings in :mod:`.falling`. The damage goes through the survival rules'
``take_damage`` with one injury per die directly (``injury_override``), so the rest runs through
bonus pool, verve (if archetypal, e.g. a thief's failed climb) and survival as usual.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.falling import EvasionEffect, fall_band, fall_damage, fall_seconds
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll, refuse_if_dead
from rulekeeper.systems.gods_monsters.consequences.sections import FALLING, c_rule
from rulekeeper.systems.gods_monsters.damage import take_damage

__all__ = [
    "FALLING_SECTION",
    "FALL_ACTIONS",
    "FALL_DAMAGE_KIND",
    "FALL_DAMAGE_PURPOSE",
    "FALL_PURPOSE",
    "on_fall_check",
    "on_fall_damage_roll",
]

FALL_PURPOSE = "c.fall"
FALL_DAMAGE_PURPOSE = "c.fall-damage"
FALL_DAMAGE_KIND = "gm.falling-damage"


def _fall(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_dead(play, actor, "fall")
    feet = action.params.int("feet")
    archetypal = action.params.bool("archetypal")
    band = fall_band(feet)
    seconds = fall_seconds(feet)
    play.explain(
        f"{actor} falls {feet} ft: {band.dice}d6 damage, {band.dice} of it injuries; {seconds} s aloft; "
        f"evasion {band.evasion.value}",
        c_rule(FALLING, reading="injuries are part of the damage; time aloft +1 s per full 150 ft past 450 ft"),
        actor=actor,
    )
    play.result["fall"] = {"feet": feet, "dice": band.dice, "seconds": seconds}
    data = {"feet": feet, "archetypal": archetypal}
    can_evade = action.params.bool("evasion") and not cond.counts_as_unconscious(play, actor)
    if band.evasion is not EvasionEffect.NONE and can_evade:
        check = c_roll(play, actor, kind="gm.fall", score="evasion")
        ask(play, actor, check, purpose=FALL_PURPOSE, rule=c_rule(FALLING), data=data)
        return
    _land(play, actor, feet, archetypal=archetypal, evaded=False)


def on_fall_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor):
        return
    _land(
        play,
        actor,
        int(pending.data["feet"]),
        archetypal=bool(pending.data.get("archetypal")),
        evaded=result.success,
    )


def _land(play: Play[GmCharacter], actor: str, feet: int, *, archetypal: bool, evaded: bool) -> None:
    band = fall_band(feet)
    cite = c_rule(FALLING)
    result: dict[str, Any] = dict(play.result.get("fall", {"feet": feet, "dice": band.dice}))
    result["seconds"] = fall_seconds(feet)
    if evaded and band.evasion is EvasionEffect.NEGATES:
        play.explain(f"{actor}'s evasion negates the fall's damage", cite, actor=actor)
        result.update(evaded=True, damage=0, injuries=0, rolled=0)
        play.result["fall"] = result
        return
    play.result["fall"] = result
    play.roll_check(
        DiceRoll(kind=FALL_DAMAGE_KIND, label=f"falling damage for {actor}", notation=f"{band.dice}d6"),
        purpose=FALL_DAMAGE_PURPOSE,
        rule=cite,
        actor=actor,
        data={"feet": feet, "archetypal": archetypal, "evaded": evaded},
        stakes=Stakes(
            purpose=f"the falling damage for {actor}",
            on_success="the damage comes off as usual, one injury per die"
            + (" (halved, no injuries)" if evaded else ""),
        ),
    )


def on_fall_damage_roll(play: Play[GmCharacter], pending: PendingCheck, rolled: CheckResult) -> None:
    """The falling damage dice are in: damage, and one injury per die."""
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor):
        return
    feet, archetypal, evaded = int(pending.data["feet"]), bool(pending.data["archetypal"]), bool(pending.data["evaded"])
    die_values = rolled.dice
    cite = c_rule(FALLING)
    result: dict[str, Any] = dict(play.result.get("fall", {"feet": feet, "dice": fall_band(feet).dice}))
    result["seconds"] = fall_seconds(feet)
    outcome = fall_damage(feet, die_values, evaded=evaded)
    if outcome.evaded:
        play.explain(
            f"{actor}'s evasion halves the damage: {outcome.rolled} → {outcome.damage}, and no injuries",
            c_rule(FALLING, reading="halved falling damage (rounded down) gives no injuries"),
            actor=actor,
        )
    result.update(evaded=outcome.evaded, rolled=outcome.rolled, damage=outcome.damage, injuries=outcome.injuries)
    play.result["fall"] = result
    if outcome.damage:
        take_damage(
            play,
            actor,
            outcome.damage,
            archetypal=archetypal,
            rule=cite,
            source="falling",
            injury_override=outcome.injuries,
        )
        play.result["fall"] = result


FALL_ACTIONS: dict[str, ActionSpec] = {
    "fall": ActionSpec(
        "fall",
        "Fall from a height: evasion below 20 ft, then d6 per height band, one injury per die (seed 002, Falling)",
        _fall,
        params=(
            ParamSpec("feet", "int", "height fallen in feet", required=True, minimum=0, maximum=1_000_000),
            ParamSpec("evasion", "bool", "whether the character may try an evasion roll (below 20 ft)", default=True),
            ParamSpec(
                "archetypal",
                "bool",
                "the fall is archetypal (e.g. a thief's failed climb): verve absorbs it",
                default=False,
            ),
        ),
        kind="damage",
    ),
}


#: Falling (seed 002).
FALLING_SECTION = Section(
    "falling",
    actions=FALL_ACTIONS,
    check_kinds=(
        CheckKind("gm.fall", "evasion roll against a short fall"),
        CheckKind(FALL_DAMAGE_KIND, "the falling damage dice (d6 per height band, one injury per die)"),
    ),
    checks=(CheckSpec(FALL_PURPOSE, on_fall_check), CheckSpec(FALL_DAMAGE_PURPOSE, on_fall_damage_roll)),
)
