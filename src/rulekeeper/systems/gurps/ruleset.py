"""``GurpsRuleset``: GURPS 4th edition (Lite, with the Basic Set pages seed 004 cites) behind the one protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.section import DeferredSection, Section
from rulekeeper.core.who_rolls import NPC_AUTOMATION
from rulekeeper.systems.gurps.actions import ACTIONS_SECTION
from rulekeeper.systems.gurps.attack import ATTACK_SECTION
from rulekeeper.systems.gurps.calculators import CALCULATORS_SECTION
from rulekeeper.systems.gurps.character import GurpsCharacter
from rulekeeper.systems.gurps.checks import CHECK_KINDS_SECTION
from rulekeeper.systems.gurps.defense import DEFENSE_SECTION
from rulekeeper.systems.gurps.fatigue import FATIGUE_SECTION
from rulekeeper.systems.gurps.feat_kinds import DEFERRED_FEATS, FEAT_KINDS_SECTION
from rulekeeper.systems.gurps.injury import FADING_ROLLS, INJURY_SECTION
from rulekeeper.systems.gurps.presentation import GurpsPresentation
from rulekeeper.systems.gurps.recovery import RECOVERY_SECTION, REST_KINDS
from rulekeeper.systems.gurps.sheet import new_character
from rulekeeper.systems.gurps.status import THRESHOLD_CONDITIONS, derived_thresholds, sync_thresholds
from rulekeeper.systems.gurps.stun_recovery import STUN_SECTION
from rulekeeper.systems.gurps.turn_offer import GurpsTurn
from rulekeeper.systems.gurps.view import character_view

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.core.sheet_format import SheetFormat
    from rulekeeper.core.state import GameState

__all__ = ["GurpsRuleset"]


class GurpsRuleset(GurpsPresentation, GurpsTurn, Ruleset[GurpsCharacter]):
    """GURPS 4e, seed 004: character sheet, combat, injury, fatigue, recovery and the feats."""

    name: ClassVar[str] = "gurps"
    aliases: ClassVar[tuple[str, ...]] = ("gurps4e",)
    title: ClassVar[str] = "GURPS 4th edition (Lite), seed 004"
    round_seconds: ClassVar[int] = 1
    character_type: ClassVar[type[Any]] = GurpsCharacter
    sections: ClassVar[tuple[Section | DeferredSection, ...]] = (
        CHECK_KINDS_SECTION,
        FEAT_KINDS_SECTION,
        CALCULATORS_SECTION,
        ACTIONS_SECTION,
        ATTACK_SECTION,
        DEFENSE_SECTION,
        INJURY_SECTION,
        FATIGUE_SECTION,
        STUN_SECTION,
        RECOVERY_SECTION,
        DEFERRED_FEATS,
    )
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
        NPC_AUTOMATION,  # who rolls an NPC's checks (core.who_rolls): the table's, in every system
        ParamSpec(
            "min_injury",
            "bool",
            "a penetrating hit does at least 1 HP of injury (Basic Set)",
            default=True,
        ),
        ParamSpec(
            "consciousness_penalty",
            "bool",
            "-1 to the HT roll to stay conscious per full multiple of HP below zero (Basic Set)",
            default=False,
        ),
        ParamSpec(
            "fading_rolls",
            "str",
            "at 0 HP or below, the HT roll 'each turn' (seed 004, General Damage): 'turns' rolls each "
            "second only in combat, and outside it once per new injury (seed 004, Recovering from "
            "Unconsciousness); 'seconds' rolls every second whatever happens (the default for "
            "campaigns before roll_rules 5)",
            choices=FADING_ROLLS,
        ),
    )
    rest_kinds: ClassVar[tuple[str, ...]] = tuple(REST_KINDS)
    derived_condition_names: ClassVar[frozenset[str]] = THRESHOLD_CONDITIONS

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        # A campaign NPC is no PC on the sheet either: DX breaks turn-order ties only between PCs.
        base = super().sheet_for(actor, sheet)
        return {**base, "is_pc": False} if npc and "is_pc" not in base and "pc" not in base else base

    def new_character(self, sheet: Mapping[str, Any]) -> GurpsCharacter:
        return new_character(sheet)

    def sheet_formats(self) -> Mapping[str, SheetFormat]:
        from rulekeeper.systems.gurps.gcs_format import GCS_FORMAT

        return {GCS_FORMAT.name: GCS_FORMAT}

    def derived_conditions(self, character: GurpsCharacter) -> frozenset[str]:
        return derived_thresholds(character)

    def sync_derived(self, play: Play[GurpsCharacter], actor: str) -> None:
        sync_thresholds(play, actor)

    def view(self, state: GameState[GurpsCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)
