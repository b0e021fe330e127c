"""The GM's view of a character: every stored and derived value, and the conditions."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.clock import format_duration
from rulekeeper.core.state import GameState
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.bonus_pools import POOL_TIMER_PREFIX
from rulekeeper.systems.gods_monsters.character import SCORES, GmCharacter
from rulekeeper.systems.gods_monsters.checks import injury_penalty
from rulekeeper.systems.gods_monsters.consequences.view import consequence_view
from rulekeeper.systems.gods_monsters.dying import DEATH_TIMER, ROUND_END_TIMER, death_check_needed
from rulekeeper.systems.gods_monsters.spells import spell_level_cap

__all__ = ["character_view"]


def character_view(state: GameState[GmCharacter], actor: str) -> dict[str, Any]:
    c = state.characters[actor]
    penalty = injury_penalty(c)
    out: dict[str, Any] = {
        "name": c.name or actor,
        "archetype": c.archetype,
        "level": c.level,
        "is_npc": c.is_npc,
        **{score: c.score(score) for score in SCORES},
        "survival": c.survival,
        "max_survival": c.max_survival,
        "verve": c.verve,
        "max_verve": c.max_verve,
        "injuries": c.injuries,
        "unhealable_injuries": c.unhealable_injuries,
        "injury_penalty": penalty,
        "roll_targets": {score: c.score(score) + penalty for score in SCORES},
        "mojo": c.mojo,
        "movement": c.movement,
        "fields": dict(c.fields),
        "age": c.age,
        "size": c.size,
        "archetypal_ability": c.archetypal_ability,
        "archetypal_reaction": c.archetypal_reaction,
        "bonus_pool": c.bonus_pool_points,
        "bonus_pools": [
            {"name": p.name, "points": p.points, "expires_at": p.expires_at, "eligible": p.eligible}
            for p in c.bonus_pools
        ],
        "survival_bonus": c.survival_bonus,
        "survival_dice": c.survival_dice,
        "max_spell_level": spell_level_cap(c.level, c.injuries) if c.archetype == "sorceror" else None,
        "at_risk_of_death": death_check_needed(c, archetypal=c.latest_injuries_archetypal),
        "latest_injuries_archetypal": c.latest_injuries_archetypal,
        "used_encounters": list(c.used_encounters),
        "last_effort_used": c.last_effort_used,
        "alive": not state.has_condition(actor, cond.DEAD),
    }
    out.update(_dying_view(state, actor))
    round_end = state.timers_of(actor, ROUND_END_TIMER)
    out["death_check_due"] = any(t.data.get("death_check") for t in round_end)
    out["falls_unconscious_at_round_end"] = any(t.data.get("fall_unconscious") for t in round_end)
    out["bonus_pool_ends"] = {
        t.data.get("name"): t.due for t in state.timers if t.actor == actor and t.kind.startswith(POOL_TIMER_PREFIX)
    }
    out.update(consequence_view(state, actor))
    out["conditions"] = [c.name for c in state.conditions_of(actor)]
    return out


def _dying_view(state: GameState[GmCharacter], actor: str) -> dict[str, Any]:
    condition = state.condition(actor, cond.DYING)
    timers = state.timers_of(actor, DEATH_TIMER)
    if condition is None or not timers:
        return {"dying_unit": None, "death_in_seconds": None, "death_in": None}
    seconds = max(0, timers[0].due - state.clock)
    return {
        "dying_unit": condition.data.get("unit"),
        "death_in_seconds": seconds,
        "death_in": format_duration(seconds),
    }
