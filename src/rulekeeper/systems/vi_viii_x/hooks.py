"""Where checks and timers come back: every consequence of an ARC, and every turn or day that passes.

Checks may be rolled at once, typed in later or only noted, so all of a check's consequences
live here, chosen by the purpose the action gave it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult
from rulekeeper.core.play import Play
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.effects import (
    TIMER_PREFIX,
    fatality_begins,
    fatality_ends,
    sync_states,
    tell,
)
from rulekeeper.systems.vi_viii_x.falling import relief
from rulekeeper.systems.vi_viii_x.hazard_actions import deprivation_day, effort_turn, land
from rulekeeper.systems.vi_viii_x.injury_actions import (
    POTION_PURPOSE,
    RECOVERY_PURPOSE,
    fatigue_rest_turn,
    potion_day,
    potion_rolled,
    recovery_day,
    recovery_rolled,
)
from rulekeeper.systems.vi_viii_x.rules import CLIMB, DISEASE, PROLONGED, state_rule
from rulekeeper.systems.vi_viii_x.state_actions import record_arc, stun_check, stun_failed, stun_passed

__all__ = ["check_done", "timer_due"]


def _cure_found(play: Play[Character], patient: str, name: str) -> None:
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


def _fatigue_grows(play: Play[Character], actor: str) -> None:
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


def check_done(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    """Apply the consequence of a finished check, by ``pending.purpose``."""
    actor = pending.actor
    data: dict[str, Any] = dict(pending.data)
    purpose = pending.purpose
    if actor is None or actor not in play.state.characters:
        return
    if purpose == "arc":
        record_arc(play, actor, result, str(data.get("what", "ARC")))
    elif purpose == POTION_PURPOSE:
        potion_rolled(play, actor, result.total, data)
    elif purpose == RECOVERY_PURPOSE:
        recovery_rolled(play, actor, result.total)
    elif purpose == "reaction":
        record_arc(play, actor, result, "Reaction check")
    elif purpose == "climb":
        play.result.update({"climbed": result.success, "checked": True})
        verdict = "makes the climb" if result.success else "fails to climb"
        tell(play, f"{actor} {verdict} (margin {result.margin})", CLIMB, actor, player=f"{actor} {verdict}")
    elif purpose == "fall":
        off = relief(result.total, int(data["threshold"])) if result.success else 0
        play.result["check_result"] = result.total
        land(play, actor, int(data["base"]), off, str(data["ks"]), data.get("us"))
    elif purpose == "cure":
        play.result.update({"cure_found": result.success})
        if result.success:
            _cure_found(play, str(data["patient"]), str(data["ailment"]))
        else:
            tell(play, "no cure found this time", DISEASE, actor, player="no cure found this time")
    elif purpose == "effort":
        play.result.update({"kept_up": result.success})
        if not result.success:
            _fatigue_grows(play, actor)
        else:
            tell(play, f"{actor} keeps up the effort", PROLONGED, actor, player=f"{actor} keeps up the effort")
    elif purpose == "stun":
        play.result.update({"woke": result.success})
        if not play.has(actor, "stunned"):
            return
        if result.success:
            stun_passed(play, actor)
        else:
            stun_failed(play, actor, data)
    elif purpose == "sight":
        play.result.update({"possible": result.success, "rolled": True})
        verdict = "manages" if result.success else "cannot manage"
        task = data.get("task", "the action")
        tell(play, f"{actor} {verdict} {task}", state_rule("Blind"), actor, player=f"{actor} {verdict} {task}")


def timer_due(play: Play[Character], timer: Timer) -> None:
    """A turn or a day has passed for one of this system's timers."""
    actor = timer.actor
    if actor is None or actor not in play.state.characters or not timer.kind.startswith(TIMER_PREFIX):
        return
    kind = timer.kind.removeprefix(TIMER_PREFIX)
    name, _, ks = kind.partition(".")
    data = dict(timer.data)
    if name == "fatality-begins":
        fatality_begins(play, actor, ks)
    elif name == "fatality-ends":
        fatality_ends(play, actor, ks)
    elif name == "recovery":
        recovery_day(play, actor)
    elif name == "potion":
        potion_day(play, actor, data)
    elif name == "starvation":
        deprivation_day(play, actor, "food")
    elif name == "dehydration":
        deprivation_day(play, actor, "water")
    elif name == "effort":
        effort_turn(play, actor, data)
    elif name == "fatigue-rest":
        fatigue_rest_turn(play, actor)
    elif name == "stun-reroll":
        if play.has(actor, "stunned"):
            stun_check(
                play, actor, int(data["threshold"]), attempt=int(data["attempt"]), gm_modifier=int(data["gm_modifier"])
            )
    elif name == "stun-wakes" and play.has(actor, "stunned"):
        play.remove_condition(actor, "stunned", state_rule("Stunned"))
        tell(play, f"{actor} regains consciousness", state_rule("Stunned"), actor, player=f"{actor} wakes up")
