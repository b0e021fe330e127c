"""Gods & Monsters seed 002, "Play the Game: Actions and consequences": every section.

What the survival rules (the ruleset in :mod:`rulekeeper.systems.gods_monsters`) merge and call:

* :data:`CONSEQUENCE_ACTIONS`, :data:`CONSEQUENCE_CALCULATORS`, :data:`CONSEQUENCE_CHECK_KINDS`;
* :func:`on_consequence_check` for check purposes starting ``c.``, :func:`on_consequence_timer`
  for timer kinds starting ``gm.c.``, :func:`on_consequence_condition_end`;
* :func:`on_consequence_unconscious` when a character falls unconscious (phantasmal damage is
  regained), :func:`consequence_view` for the GM view, and :func:`consequence_roll_modifiers`
  for the modifiers seed 002 state puts on any roll (ailment penalties, speed penalties).

Pure rules live in modules named for their section (:mod:`.falling`, :mod:`.jumping`,
:mod:`.ailments` ...); the ``*_play`` modules apply them to a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulekeeper.core.action import ActionSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.state import Condition, GameState, PendingCheck, Timer
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.aging_play import AGING_ACTIONS
from rulekeeper.systems.gods_monsters.consequences.ailment_play import (
    AILMENT_ACTIONS,
    AILMENT_TIMER_PREFIX,
    AMOUNT_KINDS,
    PARALYZED,
    SLEEPING,
    on_ailment_check,
    on_ailment_timer,
)
from rulekeeper.systems.gods_monsters.consequences.calculators import CONSEQUENCE_CALCULATORS
from rulekeeper.systems.gods_monsters.consequences.chase_play import CHASE_ACTIONS, CHASE_PURPOSE, on_chase_check
from rulekeeper.systems.gods_monsters.consequences.concentration import concentration_limits
from rulekeeper.systems.gods_monsters.consequences.concentration_play import (
    CONCENTRATING,
    CONCENTRATION_ACTIONS,
    CONCENTRATION_PURPOSE,
    on_concentration_check,
)
from rulekeeper.systems.gods_monsters.consequences.falling_play import (
    FALL_ACTIONS,
    FALL_DAMAGE_KIND,
    FALL_DAMAGE_PURPOSE,
    FALL_PURPOSE,
    on_fall_check,
    on_fall_damage_roll,
)
from rulekeeper.systems.gods_monsters.consequences.illusions_play import (
    DISBELIEF_PURPOSE,
    ILLUSION_ACTIONS,
    PHANTASM,
    PHANTASM_TIMER,
    on_disbelief_check,
    on_phantasm_timer,
    release_phantasmal_damage,
)
from rulekeeper.systems.gods_monsters.consequences.item_play import ITEM_ACTIONS, ITEM_PURPOSE, on_item_check
from rulekeeper.systems.gods_monsters.consequences.jumping_play import JUMP_ACTIONS, JUMP_PURPOSE, on_jump_check
from rulekeeper.systems.gods_monsters.consequences.movement_play import (
    FORCED_MARCH,
    MARCH_PURPOSE,
    MOVEMENT_ACTIONS,
    REST_DUE_TIMER,
    clear_march_count,
    on_march_check,
    on_rest_due_timer,
    rest_from_travel,
)
from rulekeeper.systems.gods_monsters.consequences.searching_play import (
    COVER_PURPOSE,
    COVERING_TRACKS,
    SEARCH_PURPOSE,
    SEARCHING_ACTIONS,
    TRACK_PURPOSE,
    on_search_check,
)
from rulekeeper.systems.gods_monsters.consequences.sections import c_rule
from rulekeeper.systems.gods_monsters.consequences.semi_conscious import semi_conscious_allows, semi_conscious_limits
from rulekeeper.systems.gods_monsters.consequences.semi_conscious_play import (
    REPLY_DELAY_PURPOSE,
    REPLY_PURPOSE,
    SEMI_CONSCIOUS_ACTIONS,
    on_reply_check,
    on_reply_delay_roll,
)
from rulekeeper.systems.gods_monsters.consequences.state_effects import (
    AILMENT_KIND,
    MOVING,
    ailment_penalties,
    score_modifiers,
)
from rulekeeper.systems.gods_monsters.consequences.suffocation_play import (
    BREATH_PURPOSE,
    SUFFOCATING,
    SUFFOCATION_ACTIONS,
    SUFFOCATION_PURPOSE,
    SUFFOCATION_TIMER,
    on_breath_roll,
    on_suffocation_check,
    on_suffocation_timer,
)
from rulekeeper.systems.gods_monsters.consequences.upkeep_play import UPKEEP_ACTIONS

__all__ = [
    "CONSEQUENCE_ACTIONS",
    "CONSEQUENCE_CALCULATORS",
    "CONSEQUENCE_CHECK_KINDS",
    "CONSEQUENCE_CONDITIONS",
    "clear_march_count",
    "consequence_roll_modifiers",
    "consequence_view",
    "on_consequence_check",
    "on_consequence_condition_end",
    "on_consequence_timer",
    "on_consequence_unconscious",
    "release_phantasmal_damage",
    "rest_from_travel",
    "semi_conscious_allows",
    "semi_conscious_limits",
]

CONSEQUENCE_ACTIONS: dict[str, ActionSpec] = {
    **AGING_ACTIONS,
    **AILMENT_ACTIONS,
    **CHASE_ACTIONS,
    **CONCENTRATION_ACTIONS,
    **FALL_ACTIONS,
    **ILLUSION_ACTIONS,
    **ITEM_ACTIONS,
    **JUMP_ACTIONS,
    **MOVEMENT_ACTIONS,
    **SEARCHING_ACTIONS,
    **SEMI_CONSCIOUS_ACTIONS,
    **SUFFOCATION_ACTIONS,
    **UPKEEP_ACTIONS,
}

CONSEQUENCE_CHECK_KINDS: dict[str, str] = {
    "gm.ailment": "reaction roll to resist an ailment (and each action time of an inescapable one)",
    "gm.ailment.throw-off": "health roll to throw off a chronic ailment at its action time",
    **AMOUNT_KINDS,
    "gm.chase": "agility contest of a chase",
    "gm.concentration": "evasion roll to keep concentrating when hit",
    "gm.disbelief": "perception or willpower roll to disbelieve an illusion",
    "gm.fall": "evasion roll against a short fall",
    FALL_DAMAGE_KIND: "the falling damage dice (d6 per height band, one injury per die)",
    "gm.item": "an item's reaction roll against an attack",
    "gm.jump": "agility roll to jump or leap",
    "gm.march": "health roll to force a march",
    "gm.search": "perception roll to search",
    "gm.semi-conscious": "willpower roll for a semi-conscious character to respond",
    "gm.semi-conscious.delay": "the d4 rounds a semi-conscious character takes to respond after failing willpower",
    "gm.suffocation": "health roll while suffocating",
    "gm.suffocation.breath": "the d4 rounds of breath of a character caught unprepared without air",
    "gm.track": "perception roll to track or to cover tracks",
}

# Conditions seed 002 rules put on characters (names as they appear in views and scenarios).
CONSEQUENCE_CONDITIONS: tuple[str, ...] = (
    CONCENTRATING,
    COVERING_TRACKS,
    FORCED_MARCH,
    MOVING,
    PARALYZED,
    PHANTASM,
    SLEEPING,
    SUFFOCATING,
)

_CHECKS: dict[str, Callable[[Play[GmCharacter], PendingCheck, CheckResult], None]] = {
    CHASE_PURPOSE: on_chase_check,
    CONCENTRATION_PURPOSE: on_concentration_check,
    DISBELIEF_PURPOSE: on_disbelief_check,
    FALL_PURPOSE: on_fall_check,
    FALL_DAMAGE_PURPOSE: on_fall_damage_roll,
    ITEM_PURPOSE: on_item_check,
    JUMP_PURPOSE: on_jump_check,
    MARCH_PURPOSE: on_march_check,
    SEARCH_PURPOSE: on_search_check,
    TRACK_PURPOSE: on_search_check,
    COVER_PURPOSE: on_search_check,
    REPLY_PURPOSE: on_reply_check,
    REPLY_DELAY_PURPOSE: on_reply_delay_roll,
    SUFFOCATION_PURPOSE: on_suffocation_check,
    BREATH_PURPOSE: on_breath_roll,
}
_TIMERS: dict[str, Callable[[Play[GmCharacter], Timer], None]] = {
    PHANTASM_TIMER: on_phantasm_timer,
    REST_DUE_TIMER: on_rest_due_timer,
    SUFFOCATION_TIMER: on_suffocation_timer,
}


def on_consequence_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    """Apply the consequence of a seed 002 check (purposes starting ``c.``)."""
    if pending.purpose.startswith("c.ailment."):
        on_ailment_check(play, pending, result)
        return
    handler = _CHECKS.get(pending.purpose)
    if handler is not None:
        handler(play, pending, result)


def on_consequence_timer(play: Play[GmCharacter], timer: Timer) -> None:
    """A seed 002 follow-up fell due (timer kinds starting ``gm.c.``)."""
    if timer.kind.startswith(AILMENT_TIMER_PREFIX):
        on_ailment_timer(play, timer)
        return
    handler = _TIMERS.get(timer.kind)
    if handler is not None:
        handler(play, timer)


def on_consequence_condition_end(play: Play[GmCharacter], condition: Condition) -> None:
    """A timed seed 002 condition ran out (sleep or paralysis from an ailment, lingering penalties)."""
    if condition.name == SLEEPING:
        play.explain(
            f"{condition.actor} wakes from the ailment's sleep",
            c_rule("Ailment effects"),
            actor=condition.actor,
        )
    elif condition.name == PARALYZED:
        play.explain(f"{condition.actor} can move again", c_rule("Ailment effects"), actor=condition.actor)


def on_consequence_unconscious(play: Play[GmCharacter], actor: str) -> None:
    """The survival rules call this when ``actor`` falls unconscious: phantasmal damage lets go."""
    release_phantasmal_damage(play, actor, "fell unconscious")


def consequence_roll_modifiers(state: GameState[Any], actor: str, score: str) -> tuple[Modifier, ...]:
    """Modifiers seed 002 state puts on a roll of ``score``: ailment penalties (concentration
    counts on charisma, wisdom and intelligence) and a moving character's reaction penalty."""
    return score_modifiers(state, actor, score)


def consequence_view(state: GameState[Any], actor: str) -> dict[str, Any]:
    """Seed 002 values for the GM view of ``actor``."""
    character: GmCharacter = state.characters[actor]
    ailments = {
        c.name: {
            "stage": c.data.get("stage"),
            "strength": c.data.get("strength"),
            "times": c.data.get("times"),
        }
        for c in state.conditions_of(actor)
        if c.data.get("kind") == AILMENT_KIND
    }
    moving = state.condition(actor, MOVING)
    concentrating = state.condition(actor, CONCENTRATING)
    phantasm = state.condition(actor, PHANTASM)
    suffocating = state.condition(actor, SUFFOCATING)
    march = state.condition(actor, FORCED_MARCH)
    return {
        "ailments": ailments,
        "ailment_penalties": ailment_penalties(state, actor),
        "speed": moving.data.get("speed") if moving is not None else None,
        "speed_reaction_penalty": int(moving.data.get("reaction", 0)) if moving is not None else 0,
        "attack_bonus_against": int(moving.data.get("attack", 0)) if moving is not None else 0,
        "concentrating": concentrating.data.get("activity") if concentrating is not None else None,
        "concentration_max_movement": (
            concentration_limits(character.movement).max_movement if concentrating is not None else None
        ),
        "phantasmal_damage": int(phantasm.data.get("total", 0)) if phantasm is not None else 0,
        "suffocation_rolls": int(suffocating.data.get("rolls", 0)) if suffocating is not None else None,
        "forced_march_rolls": int(march.data.get("rolls", 0)) if march is not None else 0,
    }
