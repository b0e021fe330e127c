"""``WrathGloryRuleset``: Wrath & Glory (seed 003) behind the common ruleset protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.play import Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.section import DeferredSection, Section
from rulekeeper.core.state import GameState
from rulekeeper.systems.wrath_glory.actions import ACTIONS_SECTION
from rulekeeper.systems.wrath_glory.calculators import CALCULATORS_SECTION
from rulekeeper.systems.wrath_glory.character import RestKind, WrathGloryCharacter
from rulekeeper.systems.wrath_glory.conditions import DERIVED_CONDITIONS, derived_conditions, sync_conditions
from rulekeeper.systems.wrath_glory.damage import DETERMINATION_SECTION
from rulekeeper.systems.wrath_glory.injuries import INJURY_SECTION
from rulekeeper.systems.wrath_glory.options import RULE_OPTIONS
from rulekeeper.systems.wrath_glory.pool_tests import TEST_SECTION
from rulekeeper.systems.wrath_glory.presentation import WrathGloryPresentation
from rulekeeper.systems.wrath_glory.rest import REST_SECTION
from rulekeeper.systems.wrath_glory.sheet import new_character
from rulekeeper.systems.wrath_glory.turn_offer import WrathGloryTurn
from rulekeeper.systems.wrath_glory.view import character_view

__all__ = ["WrathGloryRuleset"]


class WrathGloryRuleset(WrathGloryPresentation, WrathGloryTurn, Ruleset[WrathGloryCharacter]):
    """Wounds, Shock, Determination, Dying, injuries and rest from seed 003."""

    name: ClassVar[str] = "wrath-and-glory"
    aliases: ClassVar[tuple[str, ...]] = ("wg", "wrath_glory")
    title: ClassVar[str] = "Wrath & Glory"
    round_seconds: ClassVar[int] = 6
    character_type: ClassVar[type[Any]] = WrathGloryCharacter
    sections: ClassVar[tuple[Section | DeferredSection, ...]] = (
        ACTIONS_SECTION,
        CALCULATORS_SECTION,
        DETERMINATION_SECTION,
        TEST_SECTION,
        REST_SECTION,
        INJURY_SECTION,
    )
    rule_options: ClassVar[tuple[ParamSpec, ...]] = RULE_OPTIONS
    rest_kinds: ClassVar[tuple[str, ...]] = tuple(kind.value for kind in RestKind)
    derived_condition_names: ClassVar[frozenset[str]] = frozenset(DERIVED_CONDITIONS)
    #: A W&G roll's follow-ups (a Memorable Injury, a Traumatic Injury's side) are rolls a player
    #: makes on purpose; a die typed beyond a check's pool is a slip, refused rather than spent.
    typed_dice_feed_consequences: ClassVar[bool] = False

    def new_character(self, sheet: Mapping[str, Any]) -> WrathGloryCharacter:
        return new_character(sheet)

    def derived_conditions(self, character: WrathGloryCharacter) -> frozenset[str]:
        return frozenset(derived_conditions(character))

    def sync_derived(self, play: Play[WrathGloryCharacter], actor: str) -> None:
        sync_conditions(play, actor)

    def view(self, state: GameState[WrathGloryCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)
