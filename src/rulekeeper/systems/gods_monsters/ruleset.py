"""``GodsMonstersRuleset``: seeds 000 (survival) and 002 (actions and consequences) behind one protocol.

The seed 002 rules live in the ``consequences`` package; this class merges its actions,
calculators and check kinds and hands it the checks (purposes ``c.*``), timers (kinds ``gm.c.*``)
and condition ends that belong to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rulekeeper.core.action import ActionSpec, CalculatorSpec, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.play import Play
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import AnyCheck, Condition, GameState, PendingCheck, Timer
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import consciousness, dying, heroic, npc, recovery
from rulekeeper.systems.gods_monsters.actions import SEED_000_ACTIONS
from rulekeeper.systems.gods_monsters.bonus_pools import POOL_TIMER_PREFIX, on_pool_timer
from rulekeeper.systems.gods_monsters.calculators import SEED_000_CALCULATORS
from rulekeeper.systems.gods_monsters.character import SCORES, GmCharacter
from rulekeeper.systems.gods_monsters.consequences import (
    CONSEQUENCE_ACTIONS,
    CONSEQUENCE_CALCULATORS,
    CONSEQUENCE_CHECK_KINDS,
    on_consequence_check,
    on_consequence_condition_end,
    on_consequence_timer,
)
from rulekeeper.systems.gods_monsters.presentation import GodsMonstersPresentation
from rulekeeper.systems.gods_monsters.rules import INJURIES, rule
from rulekeeper.systems.gods_monsters.sheet import new_character
from rulekeeper.systems.gods_monsters.stakes import gm_stakes
from rulekeeper.systems.gods_monsters.view import character_view

__all__ = ["SEED_000_CHECK_KINDS", "GodsMonstersRuleset"]

SEED_000_CHECK_KINDS: Mapping[str, str] = {
    "gm.roll": "an ability or reaction roll asked for by the table",
    "gm.consciousness": "fortitude/willpower roll to stay conscious after damage (seed 000)",
    "gm.death": "the death contest: injuries acting against endurance (seed 000)",
    "gm.awaken": "roll to awaken from injury unconsciousness (seed 000)",
    "gm.rest": "health roll at the end of a night's rest (seed 000)",
    "gm.heroic": "the heroic last effort (seed 000)",
    "gm.npc-survival": "an NPC's survival dice, rolled when first needed (seed 000)",
}

_CONSEQUENCE_PURPOSE = "c."
_CONSEQUENCE_TIMER = "gm.c."
_OWN_CONDITION_ENDS = {cond.UNCONSCIOUS, cond.SEMI_CONSCIOUS, cond.ASLEEP, cond.RESTING}


def _merged(own: Mapping[str, Any], theirs: Mapping[str, Any], what: str) -> dict[str, Any]:
    clash = sorted(set(own) & set(theirs))
    if clash:
        raise RuntimeError(f"Gods & Monsters {what} defined twice: {', '.join(clash)}")
    return {**own, **theirs}


class GodsMonstersRuleset(GodsMonstersPresentation, Ruleset[GmCharacter]):
    """Gods & Monsters: survival, verve, injuries, dying, rest, and the actions-and-consequences rules."""

    name: ClassVar[str] = "gods-and-monsters"
    aliases: ClassVar[tuple[str, ...]] = ("gm", "gods_monsters")
    title: ClassVar[str] = "Gods & Monsters"
    round_seconds: ClassVar[int] = 10  # six rounds a minute (seed 002, suffocation)
    character_type: ClassVar[type[Any]] = GmCharacter
    check_kinds: ClassVar[Mapping[str, str]] = _merged(SEED_000_CHECK_KINDS, CONSEQUENCE_CHECK_KINDS, "check kinds")
    rule_options: ClassVar[tuple[ParamSpec, ...]] = (
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

    def actions(self) -> Mapping[str, ActionSpec]:
        return _merged(SEED_000_ACTIONS, CONSEQUENCE_ACTIONS, "actions")

    def calculators(self) -> Mapping[str, CalculatorSpec]:
        return _merged(SEED_000_CALCULATORS, CONSEQUENCE_CALCULATORS, "calculators")

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        # A campaign NPC follows the NPC rules (no verve, nightly recovery without a roll).
        base = super().sheet_for(actor, sheet)
        return {**base, "is_npc": True} if npc and "is_npc" not in base else base

    def new_character(self, sheet: Mapping[str, Any]) -> GmCharacter:
        return new_character(sheet)

    def view(self, state: GameState[GmCharacter], actor: str) -> dict[str, Any]:
        return character_view(state, actor)

    def on_check(self, play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
        purpose = pending.purpose
        if purpose.startswith(_CONSEQUENCE_PURPOSE):
            on_consequence_check(play, pending, result)
            return
        if purpose == "consciousness":
            consciousness.on_consciousness_roll(play, pending, result)
        elif purpose == "death":
            dying.on_death_roll(play, pending, result)
        elif purpose == "awaken":
            consciousness.on_awakening_roll(play, pending, result)
        elif purpose == "rest":
            recovery.on_rest_roll(play, pending, result)
        elif purpose == npc.NPC_SURVIVAL_PURPOSE:
            npc.on_npc_survival_roll(play, pending, result)
        elif purpose == "heroic":
            heroic.on_heroic_roll(play, pending, result)
        elif purpose == "roll":
            play.result["roll"] = {"success": result.success, "margin": result.margin, "roll": result.total}
            play.explain(
                f"{pending.data.get('against')} roll: {'success' if result.success else 'failure'} "
                f"by {abs(result.margin)}",
                rule(INJURIES),
                actor=pending.actor,
            )

    def stakes_for(self, purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        return gm_stakes(purpose, actor, data)

    def on_timer(self, play: Play[GmCharacter], timer: Timer) -> None:
        kind = timer.kind
        if kind.startswith(_CONSEQUENCE_TIMER):
            on_consequence_timer(play, timer)
        elif kind == dying.ROUND_END_TIMER:
            dying.on_round_end(play, timer)
        elif kind == dying.DEATH_TIMER:
            dying.on_death_timer(play, timer)
        elif kind.startswith(POOL_TIMER_PREFIX):
            on_pool_timer(play, timer)

    def on_condition_end(self, play: Play[GmCharacter], condition: Condition) -> None:
        if condition.name in (cond.UNCONSCIOUS, cond.SEMI_CONSCIOUS):
            consciousness.on_unconsciousness_end(play, condition)
        elif condition.name in (cond.ASLEEP, cond.RESTING):
            recovery.on_rest_end(play, condition)
        else:
            on_consequence_condition_end(play, condition)
