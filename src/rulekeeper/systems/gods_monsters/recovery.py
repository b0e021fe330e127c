"""Rest and recovery: the night's rest, the full day of rest, the new game day and encounters.

Seed 000, "Regaining survival and healing injuries" and "Using verve"; "Non-player characters".

* A night's rest is eight hours (the ``asleep`` condition). When it ends the character awakens
  to a new game day with full verve, then rolls health (at the injury penalty): success
  restores ``level`` survival or removes one injury (the player's choice; by default an injury
  when there is one), failure restores 1 survival. NPCs regain ``level`` survival, no roll.
* A full day of rest (the ``resting`` condition, 24 hours) gives the success result without a
  roll; being a whole day, it also ends with a new game day (reading).
* Damage during either rest interrupts it (see :mod:`.damage`).
* ``new_day``: the character awakens to a new game day without having rested: verve only.
* Verve is regained on non-conflict encounters of the adventure: each character, taking part or
  not, regains up to their level in verve, once per encounter per adventure.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult
from rulekeeper.core.clock import DAY, HOUR
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import Condition, PendingCheck
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import stakes
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.checks import gm_roll
from rulekeeper.systems.gods_monsters.consequences.movement_play import clear_march_count, rest_from_travel
from rulekeeper.systems.gods_monsters.healing import restore
from rulekeeper.systems.gods_monsters.rules import NPCS, REGAINING, TIME_TO_DIE, USING_VERVE, rule

__all__ = [
    "NIGHT_SECONDS",
    "RECOVERY_CHOICES",
    "REST_KINDS",
    "REST_SECTION",
    "encounter",
    "new_adventure",
    "new_day",
    "on_rest_end",
    "on_rest_roll",
    "recovery_for",
    "start_rest",
]

REST_KINDS: tuple[str, ...] = ("night", "day")
RECOVERY_CHOICES: tuple[str, ...] = ("auto", "survival", "injury")
NIGHT_SECONDS = 8 * HOUR
DAY_SECONDS = DAY


def recovery_for(character: GmCharacter, *, success: bool, choice: str = "auto") -> dict[str, int]:
    """What a rest restores: on success ``level`` survival or one injury, otherwise 1 survival."""
    if not success:
        return {"survival": 1, "injuries": 0}
    wants_injury = choice == "injury" or (choice == "auto" and character.healable_injuries > 0)
    if wants_injury and character.healable_injuries > 0:
        return {"survival": 0, "injuries": 1}
    return {"survival": character.level, "injuries": 0}


def start_rest(play: Play[GmCharacter], actor: str, kind: str, choice: str = "auto") -> None:
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead (seed 000, {TIME_TO_DIE})")
    if play.has(actor, cond.DOOMED):
        raise RuleRefusal(f"{actor}'s time has run out; rest cannot help (seed 000, {TIME_TO_DIE})")
    if play.has(actor, cond.ASLEEP) or play.has(actor, cond.RESTING):
        raise RuleRefusal(f"{actor} is already resting")
    name, seconds = (cond.ASLEEP, NIGHT_SECONDS) if kind == "night" else (cond.RESTING, DAY_SECONDS)
    what = "a night's rest (8 hours)" if kind == "night" else "a full day of rest"
    play.add_condition(
        actor,
        name,
        rule(REGAINING),
        duration=seconds,
        data={"kind": kind, "choice": choice},
        text=f"{actor} begins {what}",
    )
    play.result["rest"] = {"kind": kind, "ends_in": seconds}


def on_rest_end(play: Play[GmCharacter], condition: Condition) -> None:
    """The rest ran its course: a new day dawns, then the recovery (rolled for a PC's night)."""
    actor = condition.actor
    if actor not in play.state.characters or cond.is_dead(play, actor):
        return
    kind = str(condition.data.get("kind", "night"))
    choice = str(condition.data.get("choice", "auto"))
    if play.has(actor, cond.SHOCK):
        play.remove_condition(actor, cond.SHOCK, rule("Actions and consequences: Illusions", seed="002"))
    new_day(play, actor)
    # A night or day of rest also resets the count of forced-march rolls (seed 002, Movement).
    clear_march_count(play, actor)
    character = play.char(actor)
    if character.is_npc:
        _apply_recovery(play, actor, {"survival": character.level, "injuries": 0}, "nightly recovery (no roll)", NPCS)
        return
    if kind == "day":
        rest_from_travel(play, actor)  # a full day of rest is the day's rest after days of walking
        _apply_recovery(
            play, actor, recovery_for(character, success=True, choice=choice), "a full day of rest", REGAINING
        )
        return
    check = gm_roll(play, character, kind="gm.rest", label="health", score="health", actor=actor)
    play.check(check, purpose="rest", rule=rule(REGAINING), actor=actor, data={"choice": choice})


def on_rest_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor) or play.has(actor, cond.DOOMED):
        return
    character = play.char(actor)
    gains = recovery_for(character, success=result.success, choice=str(pending.data.get("choice", "auto")))
    what = "the night's rest (health roll succeeded)" if result.success else "the night's rest (health roll failed)"
    _apply_recovery(play, actor, gains, what, REGAINING)


def _apply_recovery(play: Play[GmCharacter], actor: str, gains: dict[str, int], what: str, section: str) -> None:
    from rulekeeper.systems.gods_monsters import dying

    before = play.char(actor)
    after, changed = restore(before, survival=gains["survival"], injuries=gains["injuries"])
    play.put(actor, after)
    if gains["injuries"]:
        text = f"{what}: one injury healed ({before.injuries} → {after.injuries})"
    else:
        text = f"{what}: survival {before.survival} → {after.survival} (max {after.max_survival})"
    play.explain(text, rule(section), actor=actor, restored=changed)
    play.result.update(survival=after.survival, injuries=after.injuries, verve=after.verve, restored=changed)
    if after.injuries == 0:
        dying.cancel_dying(play, actor)


def new_day(play: Play[GmCharacter], actor: str) -> None:
    """The character awakens to begin a game day: verve is fully restored (PCs; NPCs have none)."""
    character = play.char(actor)
    if cond.is_dead(play, actor):
        return
    if character.verve != character.max_verve:
        play.put(actor, replace(character, verve=character.max_verve))
        play.explain(
            f"a new game day: {actor}'s verve is fully restored ({character.verve} → {character.max_verve})",
            rule(USING_VERVE),
            actor=actor,
        )
    play.result["verve"] = character.max_verve


def encounter(play: Play[GmCharacter], actors: list[str], encounter_id: str, *, conflict: bool) -> dict[str, Any]:
    """A non-conflict encounter has definitely begun: each character regains up to ``level`` verve."""
    cite = rule(USING_VERVE)
    if conflict:
        raise RuleRefusal(f"only encounters engaged outside of conflict restore verve (seed 000, {USING_VERVE})")
    gained: dict[str, int] = {}
    for actor in actors:
        character = play.char(actor)
        if cond.is_dead(play, actor) or character.is_npc:
            continue
        if encounter_id in character.used_encounters:
            if len(actors) == 1:
                raise RuleRefusal(
                    f"encounter {encounter_id!r} has already restored {actor}'s verve this adventure "
                    f"(seed 000, {USING_VERVE})"
                )
            play.explain(
                f"encounter {encounter_id!r} already restored {actor}'s verve this adventure", cite, actor=actor
            )
            continue
        amount = min(character.level, character.max_verve - character.verve)
        play.put(
            actor,
            replace(
                character,
                verve=character.verve + amount,
                used_encounters=(*character.used_encounters, encounter_id),
            ),
        )
        play.explain(
            f"encounter {encounter_id!r}: {actor} regains {amount} verve ({character.verve} → "
            f"{character.verve + amount}, up to level {character.level})",
            cite,
            actor=actor,
        )
        gained[actor] = amount
    play.result["verve_gained"] = gained
    return gained


def new_adventure(play: Play[GmCharacter], actors: list[str]) -> None:
    """A new adventure: every encounter may restore verve once again."""
    for actor in actors:
        character = play.char(actor)
        if character.used_encounters:
            play.put(actor, replace(character, used_encounters=()))
    play.explain("a new adventure begins: encounters may restore verve again", rule(USING_VERVE))


#: Regaining survival (seed 000): the night's rest and its health roll.
REST_SECTION = Section(
    "rest",
    check_kinds=(CheckKind("gm.rest", "health roll at the end of a night's rest (seed 000)"),),
    checks=(CheckSpec("rest", on_rest_roll, stakes.check_stakes),),
    condition_end={cond.ASLEEP: on_rest_end, cond.RESTING: on_rest_end},
)
