"""The VI·VIII·X ruleset: one object behind the core protocol, found as ``vi-viii-x`` or ``6810``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ActionSpec, CalculatorSpec, ParamSpec
from rulekeeper.core.arc import PLACEHOLDER_TABLE
from rulekeeper.core.check import CheckResult
from rulekeeper.core.explain import Step
from rulekeeper.core.play import Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import AnyCheck, GameState, PendingCheck, Timer
from rulekeeper.systems.vi_viii_x.actions import REST_KINDS, actions
from rulekeeper.systems.vi_viii_x.calculators import calculators
from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.effects import sync_states
from rulekeeper.systems.vi_viii_x.gm_view import gm_view
from rulekeeper.systems.vi_viii_x.hooks import check_done, timer_due
from rulekeeper.systems.vi_viii_x.presentation import ViViiiXPresentation
from rulekeeper.systems.vi_viii_x.sheet import parse_sheet
from rulekeeper.systems.vi_viii_x.stakes import vi_stakes
from rulekeeper.systems.vi_viii_x.states import DERIVED_STATES, derived_states
from rulekeeper.systems.vi_viii_x.visibility import (
    PlayerPendingCheck,
    player_character_view,
    player_wording,
)

__all__ = ["ViViiiXRuleset"]


class ViViiiXRuleset(ViViiiXPresentation, Ruleset[Character]):
    """VI·VIII·X, chapter VIII of the core rules (seed 001): damage to known and unknown stats,
    the fatality countdown, recovery, hazards and the states of the character."""

    name: ClassVar[str] = "vi-viii-x"
    aliases: ClassVar[tuple[str, ...]] = ("6810", "vi_viii_x", "kup")
    title: ClassVar[str] = "VI·VIII·X"
    round_seconds: ClassVar[int] = 6
    character_type: ClassVar[type[Any]] = Character
    check_kinds: ClassVar[Mapping[str, str]] = {
        "vi-viii-x.arc": "an ARC the table asks for (ARCT or ARCO)",
        "vi-viii-x.reaction": "a Reaction check",
        "vi-viii-x.climb": "Stamina ARCT to climb",
        "vi-viii-x.fall": "Body Control ARCT against a fall",
        "vi-viii-x.cure": "Education medicine or alchemy ARCT to find a cure",
        "vi-viii-x.fatigue": "Stamina ARCT after each turn of a prolonged action",
        "vi-viii-x.stun": "Stamina ARCT to wake from a stun",
        "vi-viii-x.blind": "1d6 for a blind character's action that needs sight (a 1 succeeds)",
        "vi-viii-x.recovery": "the 1d3 of a day of natural recovery at total rest, and a healing potion's 2d3",
    }
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
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

    def actions(self) -> Mapping[str, ActionSpec]:
        return actions()

    def calculators(self) -> Mapping[str, CalculatorSpec]:
        return calculators()

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

    def stakes_for(self, purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        return vi_stakes(purpose, actor, data)

    def secret_words(self, state: GameState[Character]) -> frozenset[str]:
        return frozenset(name for character in state.characters.values() for name in character.us)

    def player_wording(self, step: Step) -> str | None:
        return player_wording(step)

    def on_check(self, play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
        check_done(play, pending, result)

    def on_timer(self, play: Play[Character], timer: Timer) -> None:
        timer_due(play, timer)
