"""The GM's view of a character: every stored and derived value, and the conditions that hold."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.state import GameState
from rulekeeper.systems.wrath_glory import formulas
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter
from rulekeeper.systems.wrath_glory.conditions import derived_conditions
from rulekeeper.systems.wrath_glory.memorable_injuries import INTIMIDATION_BONUS_DICE
from rulekeeper.systems.wrath_glory.options import RULE_OPTIONS
from rulekeeper.systems.wrath_glory.traumatic_injuries import (
    blinded,
    cannot_hold_weapons,
    crawl_only,
    lost_eyes,
    torso_injuries,
)

__all__ = ["character_view"]

_DEFAULTS = {spec.name: spec.default for spec in RULE_OPTIONS}


def character_view(state: GameState[WrathGloryCharacter], actor: str) -> dict[str, Any]:
    c = state.characters[actor]
    option = state.settings.option
    count_replaced = bool(option("replaced_injuries_count", _DEFAULTS["replaced_injuries_count"]))
    trauma = c.traumatic_count(count_replaced=count_replaced)
    injuries = c.traumatic_injuries
    rest = c.rest
    names = {cond.name for cond in state.conditions_of(actor)} | set(derived_conditions(c))
    return {
        "name": c.name,
        "tier": c.tier,
        "rank": c.rank,
        "toughness": c.toughness,
        "willpower": c.willpower,
        "intellect": c.intellect,
        "medicae": c.medicae,
        "medicae_pool": c.medicae_pool,
        "armour": c.armour,
        "resilience": c.resilience,
        "resilience_overridden": c.resilience_override is not None,
        "agility": c.agility,
        "defence": c.defence,
        "max_wounds": c.max_wounds,
        "max_shock": c.max_shock,
        "wounds": c.wounds,
        "shock": c.shock,
        "wrath": c.wrath,
        "determination": c.toughness,
        "wounded": c.wounded,
        "exhausted": c.exhausted,
        "dying": c.dying,
        "dead": c.dead,
        "death": None if c.death is None else c.death.value,
        "dn_penalty": 1 if c.wounded else 0,
        "toughness_dn_penalty": (1 if c.wounded else 0)
        + torso_injuries(injuries) * int(option("torso_dn", _DEFAULTS["torso_dn"])),
        "annihilation_threshold": 2 * c.max_wounds,
        "memorable_injuries": [i.name for i in c.memorable_injuries],
        "intimidation_bonus_dice": INTIMIDATION_BONUS_DICE if c.memorable_injuries else 0,
        "traumatic_injuries": [i.label + (" (replaced)" if i.replaced else "") for i in injuries],
        "lost_parts": [i.label for i in injuries if not i.replaced],
        "traumatic_injury_count": trauma,
        "trauma_death_threshold": formulas.trauma_death_threshold(c.tier),
        "dying_wrath_dice": max(1, trauma) if c.dying else 1,
        "can_hold_weapons": not cannot_hold_weapons(injuries),
        "crawl_only": crawl_only(injuries),
        "blinded": blinded(injuries),
        "lost_eyes": lost_eyes(injuries),
        "torso_injuries": torso_injuries(injuries),
        "resting": None if rest is None else rest.kind.value,
        "rest_ends": None if rest is None else rest.ends,
        "rest_light_activity": None if rest is None else rest.light_seconds,
        "rest_healer": None if rest is None else rest.healer,
        "conditions": sorted(names),
    }
