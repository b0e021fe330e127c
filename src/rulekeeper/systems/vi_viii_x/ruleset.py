"""The VI·VIII·X ruleset: one object behind the core protocol, found as ``vi-viii-x`` or ``6810``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.arc import PLACEHOLDER_TABLE
from rulekeeper.core.explain import Step
from rulekeeper.core.play import Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.section import DeferredSection, Section
from rulekeeper.core.state import GameState, PendingCheck
from rulekeeper.core.who_rolls import NPC_AUTOMATION
from rulekeeper.systems.vi_viii_x.actions import ACTIONS_SECTION, REST_KINDS
from rulekeeper.systems.vi_viii_x.calculators import CALCULATORS_SECTION
from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.effects import FATALITY_SECTION, sync_states
from rulekeeper.systems.vi_viii_x.gm_view import gm_view
from rulekeeper.systems.vi_viii_x.hazard_actions import HAZARDS_SECTION
from rulekeeper.systems.vi_viii_x.injury_actions import INJURY_SECTION
from rulekeeper.systems.vi_viii_x.presentation import ViViiiXPresentation
from rulekeeper.systems.vi_viii_x.sheet import parse_sheet
from rulekeeper.systems.vi_viii_x.state_actions import STATES_SECTION
from rulekeeper.systems.vi_viii_x.states import DERIVED_STATES, derived_states
from rulekeeper.systems.vi_viii_x.turn_offer import ViViiiXTurn
from rulekeeper.systems.vi_viii_x.visibility import (
    PlayerPendingCheck,
    player_character_view,
    player_wording,
)

__all__ = ["ViViiiXRuleset"]


class ViViiiXRuleset(ViViiiXPresentation, ViViiiXTurn, Ruleset[Character]):
    """VI·VIII·X, chapter VIII of the core rules (seed 001): damage to known and unknown stats,
    the fatality countdown, recovery, hazards and the states of the character."""

    name: ClassVar[str] = "vi-viii-x"
    aliases: ClassVar[tuple[str, ...]] = ("6810", "vi_viii_x", "kup")
    title: ClassVar[str] = "VI·VIII·X"
    round_seconds: ClassVar[int] = 6
    character_type: ClassVar[type[Any]] = Character
    sections: ClassVar[tuple[Section | DeferredSection, ...]] = (
        ACTIONS_SECTION,
        CALCULATORS_SECTION,
        STATES_SECTION,
        HAZARDS_SECTION,
        INJURY_SECTION,
        FATALITY_SECTION,
    )
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
        NPC_AUTOMATION,  # who rolls an NPC's checks (core.who_rolls): the table's, in every system
        ParamSpec("round_seconds", "int", "seconds in a turn (the seed gives none)", default=6, minimum=1),
        ParamSpec(
            "roll_modifier_table",
            "ints",
            "roll modifier per face of one die; PLACEHOLDER default d14 giving -3..+10",
            default=PLACEHOLDER_TABLE.values,
        ),
        ParamSpec("es_level_in_arc", "bool", "add the skill's level to an ARC on a skill", default=False),
        ParamSpec("exalted_modifier", "int", "bonus to every check while exalted (placeholder)", default=1),
        ParamSpec("panicked_modifier", "int", "malus to every check while panicked (placeholder)", default=-1),
        ParamSpec(
            "panicked_reaction_modifier",
            "int",
            "extra malus to Reaction checks while panicked (placeholder)",
            default=-3,
        ),
        ParamSpec("stun_period_turns", "ints", "turns before each new stun ARCT (placeholder)", default=(1,)),
        ParamSpec("agility_secret", "bool", "agility is GM-only (its layer is unconfirmed)", default=False),
    )
    rest_kinds: ClassVar[tuple[str, ...]] = REST_KINDS
    derived_condition_names: ClassVar[frozenset[str]] = frozenset(DERIVED_STATES)

    def derived_conditions(self, character: Character) -> frozenset[str]:
        return derived_states(character)

    def sync_derived(self, play: Play[Character], actor: str) -> None:
        sync_states(play, actor)

    def new_character(self, sheet: Mapping[str, Any]) -> Character:
        return parse_sheet(sheet)

    def view(self, state: GameState[Character], actor: str) -> dict[str, Any]:
        return gm_view(state, actor)

    def player_view(self, state: GameState[Character], actor: str) -> dict[str, Any]:
        return player_character_view(state, actor).to_dict()

    def table_view(self, state: GameState[Character], actor: str) -> dict[str, Any]:
        # The player projection's conditions: "injured" only for a lowered known stat.
        view = player_character_view(state, actor)
        return {"actor": actor, "name": view.sheet.name, "conditions": list(view.conditions)}

    def player_pending(self, state: GameState[Character], pending: PendingCheck) -> dict[str, Any]:
        # What to roll and the threshold: a total or odds would be computed from a secret US.
        # The stakes say what the roll is for and does, never odds (see stakes.py: no unknown stat).
        from rulekeeper.core.stakes import describe_pending, without_secrets

        return {**PlayerPendingCheck.of(pending).to_dict(), "stakes": without_secrets(describe_pending(pending))}

    def secret_words(self, state: GameState[Character]) -> frozenset[str]:
        return frozenset(name for character in state.characters.values() for name in character.us)

    def player_wording(self, step: Step) -> str | None:
        return player_wording(step)
