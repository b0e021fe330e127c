"""``WrathGloryRuleset``: Wrath & Glory (seed 003) behind the common ruleset protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ActionSpec, CalculatorSpec, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.play import Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import AnyCheck, GameState, PendingCheck, Timer
from rulekeeper.systems.wrath_glory.actions import ACTIONS, DAMAGE_KIND, DAMAGE_PURPOSE, on_damage_roll
from rulekeeper.systems.wrath_glory.calculators import CALCULATORS
from rulekeeper.systems.wrath_glory.character import RestKind, WrathGloryCharacter
from rulekeeper.systems.wrath_glory.conditions import DERIVED_CONDITIONS, derived_conditions, sync_conditions
from rulekeeper.systems.wrath_glory.damage import DETERMINATION_KIND, DETERMINATION_PURPOSE, on_determination
from rulekeeper.systems.wrath_glory.injuries import INJURY_PURPOSES, MEMORABLE_KIND, TRAUMATIC_KIND, on_injury_roll
from rulekeeper.systems.wrath_glory.options import RULE_OPTIONS
from rulekeeper.systems.wrath_glory.pool_tests import TEST_KIND, TEST_PURPOSE, on_test
from rulekeeper.systems.wrath_glory.presentation import WrathGloryPresentation
from rulekeeper.systems.wrath_glory.rest import MEDICAE_KIND, MEDICAE_PURPOSE, REST_TIMER, on_medicae, on_rest_timer
from rulekeeper.systems.wrath_glory.sheet import new_character
from rulekeeper.systems.wrath_glory.stakes import wg_stakes
from rulekeeper.systems.wrath_glory.view import character_view

__all__ = ["WrathGloryRuleset"]


class WrathGloryRuleset(WrathGloryPresentation, Ruleset[WrathGloryCharacter]):
    """Wounds, Shock, Determination, Dying, injuries and rest from seed 003."""

    name: ClassVar[str] = "wrath-and-glory"
    aliases: ClassVar[tuple[str, ...]] = ("wg", "wrath_glory")
    title: ClassVar[str] = "Wrath & Glory"
    round_seconds: ClassVar[int] = 6
    character_type: ClassVar[type[Any]] = WrathGloryCharacter
    check_kinds: ClassVar[Mapping[str, str]] = {
        DETERMINATION_KIND: "Determination: Toughness dice whose Icons turn Wounds just suffered into Shock",
        TEST_KIND: "a dice pool test against a DN (Wrath dice, Complications, Criticals; Dying rules)",
        MEDICAE_KIND: "Regroup Medicae (Int) roll, used only when option regroup_healing is 'icons'",
        DAMAGE_KIND: "the damage roll of an attack given as dice (one roll serves every target)",
        MEMORABLE_KIND: "the d6 on the Memorable Injury table (on falling Dying, or by a rule)",
        TRAUMATIC_KIND: "the d6 for a Traumatic Injury's part, and the d6 for its side",
    }
    rule_options: ClassVar[tuple[ParamSpec, ...]] = RULE_OPTIONS
    rest_kinds: ClassVar[tuple[str, ...]] = tuple(kind.value for kind in RestKind)
    derived_condition_names: ClassVar[frozenset[str]] = frozenset(DERIVED_CONDITIONS)

    def actions(self) -> Mapping[str, ActionSpec]:
        return ACTIONS

    def calculators(self) -> Mapping[str, CalculatorSpec]:
        return CALCULATORS

    def new_character(self, sheet: Mapping[str, Any]) -> WrathGloryCharacter:
        return new_character(sheet)

    def derived_conditions(self, character: WrathGloryCharacter) -> frozenset[str]:
        return frozenset(derived_conditions(character))

    def sync_derived(self, play: Play[WrathGloryCharacter], actor: str) -> None:
        sync_conditions(play, actor)

    def view(self, state: GameState[WrathGloryCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)

    def on_check(self, play: Play[WrathGloryCharacter], pending: PendingCheck, result: CheckResult) -> None:
        if pending.purpose == DETERMINATION_PURPOSE:
            on_determination(play, pending, result)
        elif pending.purpose == TEST_PURPOSE:
            on_test(play, pending, result)
        elif pending.purpose == MEDICAE_PURPOSE:
            on_medicae(play, pending, result)
        elif pending.purpose == DAMAGE_PURPOSE:
            on_damage_roll(play, pending, result)
        elif pending.purpose in INJURY_PURPOSES:
            on_injury_roll(play, pending, result)

    def stakes_for(self, purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        return wg_stakes(purpose, check, actor, data)

    def on_timer(self, play: Play[WrathGloryCharacter], timer: Timer) -> None:
        if timer.kind == REST_TIMER:
            on_rest_timer(play, timer)
