"""``GurpsRuleset``: GURPS 4th edition (Lite, with the Basic Set pages seed 004 cites) behind the one protocol."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rulekeeper.core.action import ActionSpec, CalculatorSpec, ParamSpec
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.systems.gurps.actions import CORE_ACTIONS, on_initiative_roll
from rulekeeper.systems.gurps.attack import on_attack_check, on_damage_roll, on_parry_counter_check
from rulekeeper.systems.gurps.calculators import CORE_CALCULATORS
from rulekeeper.systems.gurps.character import GurpsCharacter
from rulekeeper.systems.gurps.checks import CORE_CHECK_KINDS
from rulekeeper.systems.gurps.defense import on_defense_check
from rulekeeper.systems.gurps.fatigue import on_fatigue_check
from rulekeeper.systems.gurps.feat_kinds import FEAT_CHECK_KINDS
from rulekeeper.systems.gurps.injury import INJURY_PURPOSES, on_injury_check
from rulekeeper.systems.gurps.presentation import GurpsPresentation
from rulekeeper.systems.gurps.recovery import REST_KINDS, on_recovery_check, on_recovery_timer
from rulekeeper.systems.gurps.sheet import new_character
from rulekeeper.systems.gurps.stakes import gurps_stakes
from rulekeeper.systems.gurps.status import THRESHOLD_CONDITIONS, derived_thresholds, sync_thresholds
from rulekeeper.systems.gurps.stun_recovery import on_stun_check, on_stun_timer, on_turn_timer
from rulekeeper.systems.gurps.turns import on_feint_check
from rulekeeper.systems.gurps.view import character_view

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.stakes import Stakes
    from rulekeeper.core.state import AnyCheck, Condition, GameState, PendingCheck, Timer

__all__ = ["GurpsRuleset"]


@functools.cache
def _all_actions() -> dict[str, ActionSpec]:
    from rulekeeper.systems.gurps.feats import FEAT_ACTIONS

    return {**CORE_ACTIONS, **FEAT_ACTIONS}


class _Actions(Mapping[str, ActionSpec]):
    """The core actions, and the feats' once one of them is asked for or all are listed.

    The feats' rules and tables are a good part of what loading GURPS costs, and most
    commands (damage, status, log) are no feat.
    """

    def __getitem__(self, name: str) -> ActionSpec:
        found = CORE_ACTIONS.get(name)
        return found if found is not None else _all_actions()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_all_actions())

    def __len__(self) -> int:
        return len(_all_actions())


_ACTIONS = _Actions()


class GurpsRuleset(GurpsPresentation, Ruleset[GurpsCharacter]):
    """GURPS 4e, seed 004: character sheet, combat, injury, fatigue, recovery and the feats."""

    name: ClassVar[str] = "gurps"
    aliases: ClassVar[tuple[str, ...]] = ("gurps4e",)
    title: ClassVar[str] = "GURPS 4th edition (Lite), seed 004"
    round_seconds: ClassVar[int] = 1
    character_type: ClassVar[type[Any]] = GurpsCharacter
    check_kinds: ClassVar[Mapping[str, str]] = {**CORE_CHECK_KINDS, **FEAT_CHECK_KINDS}
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
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
    )
    rest_kinds: ClassVar[tuple[str, ...]] = tuple(REST_KINDS)
    derived_condition_names: ClassVar[frozenset[str]] = THRESHOLD_CONDITIONS
    secret_check_kinds: ClassVar[frozenset[str]] = frozenset({"gurps.sense.danger"})

    def actions(self) -> Mapping[str, ActionSpec]:
        return _ACTIONS

    def calculators(self) -> Mapping[str, CalculatorSpec]:
        from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS

        return {**CORE_CALCULATORS, **FEAT_CALCULATORS}

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        # A campaign NPC is no PC on the sheet either: DX breaks turn-order ties only between PCs.
        base = super().sheet_for(actor, sheet)
        return {**base, "is_pc": False} if npc and "is_pc" not in base and "pc" not in base else base

    def new_character(self, sheet: Mapping[str, Any]) -> GurpsCharacter:
        return new_character(sheet)

    def derived_conditions(self, character: GurpsCharacter) -> frozenset[str]:
        return derived_thresholds(character)

    def sync_derived(self, play: Play[GurpsCharacter], actor: str) -> None:
        sync_thresholds(play, actor)

    def view(self, state: GameState[GurpsCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)

    def on_check(self, play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
        purpose = pending.purpose
        if purpose.startswith("feat."):
            from rulekeeper.systems.gurps.feats import on_feat_check

            on_feat_check(play, pending, result)
        elif pending.actor is not None and pending.actor not in play.state.characters:
            return
        elif purpose == "attack":
            on_attack_check(play, pending, result)
        elif purpose == "damage":
            on_damage_roll(play, pending, result)
        elif purpose == "initiative":
            on_initiative_roll(play, pending, result)
        elif purpose == "defense":
            on_defense_check(play, pending, result)
        elif purpose == "parry-counter":
            on_parry_counter_check(play, pending, result)
        elif purpose == "feint":
            on_feint_check(play, pending, result)
        elif purpose in INJURY_PURPOSES:
            on_injury_check(play, pending, result)
        elif purpose == "collapse":
            on_fatigue_check(play, pending, result)
        elif purpose == "stun-recovery":
            on_stun_check(play, pending, result)
        else:
            on_recovery_check(play, pending, result)

    def on_timer(self, play: Play[GurpsCharacter], timer: Timer) -> None:
        if timer.kind.startswith("gurps.feat."):
            from rulekeeper.systems.gurps.feats import on_feat_timer

            on_feat_timer(play, timer)
        elif timer.actor is not None and timer.actor not in play.state.characters:
            return
        elif timer.kind == "gurps.stun":
            on_stun_timer(play, timer)
        elif timer.kind == "gurps.consciousness":
            on_turn_timer(play, timer)
        else:
            on_recovery_timer(play, timer)

    def stakes_for(self, purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        return gurps_stakes(purpose, actor, data)

    def on_condition_end(self, play: Play[GurpsCharacter], condition: Condition) -> None:
        if condition.name == "stunned":
            play.cancel_timers(actor=condition.actor, kind="gurps.stun")
