"""``GodsMonstersRuleset``: seeds 000 (survival) and 002 (actions and consequences) behind one protocol.

The ruleset is its sections: seed 000's topics (consciousness, dying, rest ...) and seed 002's,
one per ``consequences/*_play`` module. The base class merges them and dispatches every check,
timer and condition hook to the section that declared it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.section import DeferredSection, Section
from rulekeeper.core.state import GameState
from rulekeeper.core.who_rolls import NPC_AUTOMATION
from rulekeeper.systems.gods_monsters import recovery
from rulekeeper.systems.gods_monsters.actions import SURVIVAL_SECTION
from rulekeeper.systems.gods_monsters.bonus_pools import POOLS_SECTION
from rulekeeper.systems.gods_monsters.calculators import CALCULATORS_SECTION
from rulekeeper.systems.gods_monsters.character import SCORES, GmCharacter
from rulekeeper.systems.gods_monsters.consciousness import CONSCIOUSNESS_SECTION
from rulekeeper.systems.gods_monsters.consequences.aging_play import AGING_SECTION
from rulekeeper.systems.gods_monsters.consequences.ailment_play import AILMENT_SECTION
from rulekeeper.systems.gods_monsters.consequences.calculators import CONSEQUENCE_CALCULATORS_SECTION
from rulekeeper.systems.gods_monsters.consequences.chase_play import CHASE_SECTION
from rulekeeper.systems.gods_monsters.consequences.concentration_play import CONCENTRATION_SECTION
from rulekeeper.systems.gods_monsters.consequences.falling_play import FALLING_SECTION
from rulekeeper.systems.gods_monsters.consequences.illusions_play import ILLUSIONS_SECTION
from rulekeeper.systems.gods_monsters.consequences.item_play import ITEM_SECTION
from rulekeeper.systems.gods_monsters.consequences.jumping_play import JUMPING_SECTION
from rulekeeper.systems.gods_monsters.consequences.movement_play import MOVEMENT_SECTION
from rulekeeper.systems.gods_monsters.consequences.searching_play import SEARCHING_SECTION
from rulekeeper.systems.gods_monsters.consequences.semi_conscious_play import SEMI_CONSCIOUS_SECTION
from rulekeeper.systems.gods_monsters.consequences.state_effects import STATE_EFFECTS_SECTION
from rulekeeper.systems.gods_monsters.consequences.suffocation_play import SUFFOCATION_SECTION
from rulekeeper.systems.gods_monsters.consequences.upkeep_play import UPKEEP_SECTION
from rulekeeper.systems.gods_monsters.dying import DYING_SECTION
from rulekeeper.systems.gods_monsters.heroic import HEROIC_SECTION
from rulekeeper.systems.gods_monsters.npc_survival import NPC_SECTION
from rulekeeper.systems.gods_monsters.presentation import GodsMonstersPresentation
from rulekeeper.systems.gods_monsters.recovery import REST_SECTION
from rulekeeper.systems.gods_monsters.round_end import ROUND_END_SECTION
from rulekeeper.systems.gods_monsters.sheet import new_character
from rulekeeper.systems.gods_monsters.turn_offer import GodsMonstersTurn
from rulekeeper.systems.gods_monsters.view import character_view

__all__ = ["SEED_000_SECTIONS", "SEED_002_SECTIONS", "GodsMonstersRuleset"]

#: Seed 000, survival: verve, injuries, dying, rest.
SEED_000_SECTIONS: tuple[Section, ...] = (
    SURVIVAL_SECTION,
    CALCULATORS_SECTION,
    CONSCIOUSNESS_SECTION,
    DYING_SECTION,
    ROUND_END_SECTION,
    REST_SECTION,
    NPC_SECTION,
    HEROIC_SECTION,
    POOLS_SECTION,
)
#: Seed 002, actions and consequences: purposes start ``c.``, timer kinds ``gm.c.``.
SEED_002_SECTIONS: tuple[Section, ...] = (
    CONSEQUENCE_CALCULATORS_SECTION,
    STATE_EFFECTS_SECTION,
    AGING_SECTION,
    AILMENT_SECTION,
    CHASE_SECTION,
    CONCENTRATION_SECTION,
    FALLING_SECTION,
    ILLUSIONS_SECTION,
    ITEM_SECTION,
    JUMPING_SECTION,
    MOVEMENT_SECTION,
    SEARCHING_SECTION,
    SEMI_CONSCIOUS_SECTION,
    SUFFOCATION_SECTION,
    UPKEEP_SECTION,
)


class GodsMonstersRuleset(GodsMonstersPresentation, GodsMonstersTurn, Ruleset[GmCharacter]):
    """Gods & Monsters: survival, verve, injuries, dying, rest, and the actions-and-consequences rules."""

    name: ClassVar[str] = "gods-and-monsters"
    aliases: ClassVar[tuple[str, ...]] = ("gm", "gods_monsters")
    title: ClassVar[str] = "Gods & Monsters"
    round_seconds: ClassVar[int] = 10  # six rounds a minute (seed 002, suffocation)
    character_type: ClassVar[type[Any]] = GmCharacter
    sections: ClassVar[tuple[Section | DeferredSection, ...]] = (*SEED_000_SECTIONS, *SEED_002_SECTIONS)
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
        NPC_AUTOMATION,  # who rolls an NPC's checks (core.who_rolls): the table's, in every system
        ParamSpec(
            "natural_extremes", "bool", "unconfirmed house rule: natural 1 succeeds, natural 20 fails", default=False
        ),
        ParamSpec("round_seconds", "int", "seconds in a round", default=10, minimum=1, maximum=600),
        ParamSpec(
            "awakening_reaction",
            "choice",
            "the reaction rolled to awaken (unconfirmed)",
            default="health",
            choices=SCORES,
        ),
        ParamSpec(
            "mojo_bid_spend",
            "choice",
            "a successful mojo bid spends what was needed, or all of it",
            default="needed",
            choices=("needed", "all"),
        ),
    )
    rest_kinds: ClassVar[tuple[str, ...]] = recovery.REST_KINDS

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        # A campaign NPC follows the NPC rules (no verve, nightly recovery without a roll).
        base = super().sheet_for(actor, sheet)
        return {**base, "is_npc": True} if npc and "is_npc" not in base else base

    def new_character(self, sheet: Mapping[str, Any]) -> GmCharacter:
        return new_character(sheet)

    def view(self, state: GameState[GmCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)
