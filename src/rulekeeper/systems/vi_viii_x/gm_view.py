"""The GM's view of a character: every stored and derived value, secrets included."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.state import GameState
from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.states import derived_states
from rulekeeper.systems.vi_viii_x.visibility import public_numbers, public_sheet

__all__ = ["gm_view"]


def gm_view(state: GameState[Character], actor: str) -> dict[str, Any]:
    """Flat keys for every stat (``bu``, ``bu_original``, ``vig``, ``vig_original``) plus the details."""
    character = state.characters[actor]
    conditions = state.conditions_of(actor)
    options = state.settings.options
    out: dict[str, Any] = {"actor": actor, "name": character.name}
    for name, ks in character.ks.items():
        out[name.lower()] = ks.current
        out[f"{name.lower()}_original"] = ks.original
    for name, us in character.us.items():
        out[name.lower()] = us.current
        out[f"{name.lower()}_original"] = us.original
    out["unknown_stats"] = {
        name: {"ks": us.ks, "current": us.current, "original": us.original} for name, us in character.us.items()
    }
    out["skills"] = {
        name: {
            "us": skill.us,
            "ks": character.us[skill.us].ks,
            "level": skill.level,
            "stats": character.pair_value(character.us[skill.us].ks, skill.us),
            **({"language": skill.language} if skill.language else {}),
        }
        for name, skill in character.es.items()
    }
    sheet = public_sheet(character)
    out["literacy"] = {x.language: {"level": x.level, "description": x.description} for x in sheet.literacy}
    out.update(
        som=character.som,
        burden=character.burden.value,
        agility=character.agility,
        age=character.age,
        magic_weeks=character.magic_weeks,
        mov=character.mov,
        actions=character.actions,
        regimen=character.regimen.value,
        fatigue=character.fatigue,
        effort_threshold=None if character.effort is None else character.effort.threshold,
        days_without_food=character.days_without_food,
        days_without_water=character.days_without_water,
        injured=character.is_injured,
        lowered=list(character.lowered()),
        ailments=[
            {
                "name": a.name,
                "kind": a.kind.value,
                "stats": list(a.stats),
                "cure_found": a.cure_found,
                "eradicated": a.eradicated,
            }
            for a in character.ailments
        ],
        fatalities={
            ks: {
                "state": f.state,
                "us": f.us,
                "turns": f.turns,
                "begins": f.begins,
                "permanent_at": f.permanent_at,
                "permanent": f.permanent,
                "seconds_left": max(0, f.permanent_at - state.clock),
            }
            for ks, f in character.fatalities.items()
        },
        permanent_states=list(sheet.permanent_states),
    )
    out.update(public_numbers(sheet, conditions, options))
    names = {c.name for c in conditions} | derived_states(character)
    out["conditions"] = sorted(names)
    return out
