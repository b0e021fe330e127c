"""Phantasmal damage and disbelief over game time (see :mod:`.illusions`).

Phantasmal damage is taken through the survival rules (``take_damage(..., phantasmal=True)``,
so a death roll lost to it means shock). The ``phantasm`` condition remembers where the points
went. When the victim disbelieves or falls unconscious, all but a tenth is regained one round
later: injuries first, then survival, then verve (reading: the points most dangerous to keep
come back first; points a temporary bonus pool absorbed count in the total but are not restored,
as the pool was never the character's own).
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import Condition, PendingCheck, Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.illusions import (
    DISBELIEF_METHODS,
    WILLPOWER_HELP_BONUS,
    disbelief_penalty,
    phantasmal_regain,
)
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll, refuse_if_dead, refuse_if_unable
from rulekeeper.systems.gods_monsters.consequences.sections import ILLUSIONS, c_rule
from rulekeeper.systems.gods_monsters.damage import take_damage
from rulekeeper.systems.gods_monsters.healing import heal

__all__ = [
    "CERTAIN_PREFIX",
    "DISBELIEF_PURPOSE",
    "ILLUSIONS_SECTION",
    "ILLUSION_ACTIONS",
    "PHANTASM",
    "PHANTASM_TIMER",
    "certain_of",
    "end_certainties",
    "on_disbelief_check",
    "on_phantasm_timer",
    "release_phantasmal_damage",
]

PHANTASM = "phantasm"
PHANTASM_TIMER = "gm.c.phantasm"
DISBELIEF_PURPOSE = "c.disbelieve"
_PARTS = ("injuries", "survival", "verve")


def _phantasmal_damage(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_dead(play, actor, "take phantasmal damage")
    amount = action.params.int("amount")
    before = play.char(actor)
    cite = c_rule(ILLUSIONS)
    take_damage(
        play,
        actor,
        amount,
        archetypal=action.params.bool("archetypal"),
        rule=cite,
        source="illusion",
        physical=action.params.bool("physical"),
        phantasmal=True,
    )
    after = play.char(actor)
    existing = play.state.condition(actor, PHANTASM)
    data: dict[str, Any] = dict(existing.data) if existing is not None else {"total": 0, **dict.fromkeys(_PARTS, 0)}
    data["total"] = int(data["total"]) + amount
    data["injuries"] = int(data["injuries"]) + (after.injuries - before.injuries)
    data["survival"] = int(data["survival"]) + (before.survival - after.survival)
    data["verve"] = int(data["verve"]) + (before.verve - after.verve)
    play.add_condition(
        actor,
        PHANTASM,
        cite,
        data=data,
        text=f"{actor} believes in the illusion: {data['total']} phantasmal damage so far, real to them until they "
        "see through it or fall unconscious",
    )
    play.result["phantasm"] = dict(data)


def release_phantasmal_damage(play: Play[GmCharacter], actor: str, reason: str) -> bool:
    """The phantasm stops hurting ``actor`` (disbelieved, unconscious, dispelled): schedule the
    regain of all but a tenth one round from now. False if no phantasmal damage is active."""
    condition = play.state.condition(actor, PHANTASM)
    if condition is None:
        return False
    data = dict(condition.data)
    regain = phantasmal_regain(int(data["total"]))
    left = regain.regained
    restore: dict[str, int] = {}
    for part in _PARTS:
        take = min(left, int(data.get(part, 0)))
        restore[part] = take
        left -= take
    play.remove_condition(actor, PHANTASM, quiet=True)
    cite = c_rule(ILLUSIONS, reading="regained points return injuries first, then survival, then verve")
    play.explain(
        f"{actor} is free of the illusion ({reason}): {regain.regained} of {regain.total} phantasmal damage comes "
        f"back after a full round; {regain.kept} stays lost (a tenth, rounded up)",
        cite,
        actor=actor,
    )
    round_length = int(play.option("round_seconds", 10))
    play.schedule(
        round_length,
        PHANTASM_TIMER,
        f"{actor} regains {regain.regained} phantasmal damage",
        actor=actor,
        data={**restore, "total": regain.total, "kept": regain.kept, "regained": regain.regained},
    )
    play.result["phantasm"] = {"total": regain.total, "kept": regain.kept, "regained": regain.regained, **restore}
    return True


def on_phantasm_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    if actor is None or actor not in play.state.characters:
        return
    cite = c_rule(ILLUSIONS)
    if cond.is_dead(play, actor) or play.has(actor, cond.DOOMED):
        play.explain(f"{actor} is beyond regaining the phantasmal damage", cite, actor=actor)
        return
    heal(
        play,
        actor,
        cite,
        survival=int(timer.data.get("survival", 0)),
        injuries=int(timer.data.get("injuries", 0)),
        verve=int(timer.data.get("verve", 0)),
        source="the phantasmal damage fades",
    )
    if cond.counts_as_unconscious(play, actor):
        play.explain(
            f"{actor} stays unconscious: the body has switched to a healing sleep",
            cite,
            actor=actor,
        )
    play.result["phantasm"] = {k: timer.data.get(k) for k in ("total", "kept", "regained", *_PARTS)}


CERTAIN_PREFIX = "certain of "


def certain_of(illusion: str) -> str:
    """The condition of a character whose willpower saw through ``illusion``: it helps the others."""
    return CERTAIN_PREFIX + illusion


def end_certainties(play: Play[GmCharacter], actor: str) -> None:
    for condition in play.state.conditions_of(actor):
        if condition.name.startswith(CERTAIN_PREFIX):
            play.remove_condition(actor, condition.name, c_rule(ILLUSIONS))


def _helper(play: Play[GmCharacter], actor: str, illusion: str) -> str | None:
    """Another character who saw through ``illusion`` by willpower, if any."""
    name = certain_of(illusion)
    return next((c.actor for c in play.state.conditions if c.name == name and c.actor != actor), None)


def _disbelieve(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_unable(play, actor, "disbelieve")
    method = action.params.str("method")
    illusion = action.params.str("illusion").strip() or "the illusion"
    penalty = disbelief_penalty(action.params.int("penalty"), method)
    mods = []
    if penalty:
        mods.append(Modifier(-penalty, "illusion's strength" + (" (halved)" if method == "willpower" else "")))
    helper = _helper(play, actor, illusion) if method == "perception" else None
    if helper is not None:
        mods.append(Modifier(WILLPOWER_HELP_BONUS, f"{helper} saw through it by willpower"))
    if action.params.int("bonus"):
        mods.append(Modifier(action.params.int("bonus"), "help or an obvious illusion"))
    cite = c_rule(ILLUSIONS)
    if method == "perception":
        play.explain(
            f"{actor} looks for flaws in the illusion for a round: no attacking or concentrating meanwhile, "
            "defence and reaction rolls as normal",
            cite,
            actor=actor,
        )
    else:
        play.explain(
            f"{actor} stands and accepts the illusion's effects, giving up reaction rolls and dodging against it",
            cite,
            actor=actor,
        )
    check = c_roll(play, actor, kind="gm.disbelief", score=method, modifiers=mods)
    ask(play, actor, check, purpose=DISBELIEF_PURPOSE, rule=cite, data={"method": method, "illusion": illusion})


def on_disbelief_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    method = str(pending.data.get("method"))
    cite = c_rule(ILLUSIONS)
    play.result["disbelief"] = {"success": result.success, "method": method}
    if not result.success:
        play.explain(f"{actor} does not see through the illusion", cite, actor=actor)
        return
    if method == "willpower":
        illusion = str(pending.data.get("illusion") or "the illusion")
        play.add_condition(
            actor,
            certain_of(illusion),
            cite,
            data={"illusion": illusion},
            text=f"{actor}'s certainty gives everyone else +{WILLPOWER_HELP_BONUS} to disbelieve {illusion} "
            "by perception",
        )
        play.result["disbelief"]["others_bonus"] = WILLPOWER_HELP_BONUS
    if not release_phantasmal_damage(play, actor, "disbelieved"):
        play.explain(f"{actor} sees through the illusion", cite, actor=actor)


def _illusion_ends(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    if not release_phantasmal_damage(play, actor, action.params.str("reason")):
        raise RuleRefusal(f"{actor} has taken no phantasmal damage (seed 002, {ILLUSIONS})")


ILLUSION_ACTIONS: dict[str, ActionSpec] = {
    "phantasmal_damage": ActionSpec(
        "phantasmal_damage",
        "Take phantasmal damage from an illusion: real until disbelieved (seed 002, Illusions)",
        _phantasmal_damage,
        params=(
            ParamSpec("amount", "int", "points of phantasmal damage", required=True, minimum=0, maximum=100_000),
            ParamSpec("archetypal", "bool", "the damage is archetypal (verve absorbs it)", default=False),
            ParamSpec(
                "physical", "bool", "felt as physical harm (false: mental; willpower to stay conscious)", default=True
            ),
        ),
        kind="damage",
    ),
    "disbelieve": ActionSpec(
        "disbelieve",
        "Try to see through an illusion by perception or willpower (seed 002, Illusions)",
        _disbelieve,
        params=(
            ParamSpec(
                "method",
                "choice",
                "perception (a round looking for flaws) or willpower (accepting it)",
                default="perception",
                choices=DISBELIEF_METHODS,
            ),
            ParamSpec(
                "penalty",
                "int",
                "the illusion's penalty to disbelieve (halved for willpower)",
                default=0,
                minimum=0,
                maximum=50,
            ),
            ParamSpec(
                "illusion",
                "str",
                "which illusion (another's willpower disbelief of the same one gives +2 by itself)",
                default="the illusion",
            ),
            ParamSpec(
                "bonus",
                "int",
                "any other bonus, e.g. for an obvious illusion",
                default=0,
                minimum=0,
                maximum=50,
            ),
        ),
        kind="feat",
    ),
    "illusion_ends": ActionSpec(
        "illusion_ends",
        "The illusion stops hurting without a roll (fell unconscious, dispelled): regain all but a tenth",
        _illusion_ends,
        params=(
            ParamSpec(
                "reason", "choice", "why", default="dispelled", choices=("dispelled", "unconscious", "disbelieved")
            ),
        ),
        kind="heal",
    ),
}


def _passes_out(play: Play[GmCharacter], condition: Condition) -> None:
    """Unconsciousness (shock too) lets the phantasm go: its damage is regained."""
    release_phantasmal_damage(play, condition.actor, "fell unconscious")


#: Illusions (seed 002): disbelief, phantasmal damage and its regain.
ILLUSIONS_SECTION = Section(
    "illusions",
    actions=ILLUSION_ACTIONS,
    check_kinds=(CheckKind("gm.disbelief", "perception or willpower roll to disbelieve an illusion"),),
    checks=(CheckSpec(DISBELIEF_PURPOSE, on_disbelief_check),),
    timers=(TimerSpec(PHANTASM_TIMER, on_phantasm_timer),),
    condition_start={cond.UNCONSCIOUS: _passes_out, cond.SHOCK: _passes_out},
)
