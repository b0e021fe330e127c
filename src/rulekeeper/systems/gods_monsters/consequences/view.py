"""What seed 002 state adds to the GM's view of a character: ailments, speed, concentration,
phantasmal damage, suffocation and forced marches."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.state import GameState
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.concentration import concentration_limits
from rulekeeper.systems.gods_monsters.consequences.concentration_play import CONCENTRATING
from rulekeeper.systems.gods_monsters.consequences.illusions_play import PHANTASM
from rulekeeper.systems.gods_monsters.consequences.movement_play import FORCED_MARCH
from rulekeeper.systems.gods_monsters.consequences.state_effects import AILMENT_KIND, MOVING, ailment_penalties
from rulekeeper.systems.gods_monsters.consequences.suffocation_play import SUFFOCATING

__all__ = ["consequence_view"]


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
