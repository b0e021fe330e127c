"""What each Gods & Monsters roll left for the table is for (seed 000, "Injuries", "A time to die",
"Regaining survival"), in our own words. The death contest is the injuries' roll: its "success" is
the character starting to die, so the stakes say so plainly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.stakes import Stakes

if TYPE_CHECKING:
    from rulekeeper.core.state import AnyCheck

__all__ = ["awaken_stakes", "consciousness_stakes", "death_stakes", "rest_stakes", "roll_stakes"]


def _who(actor: str | None) -> str:
    return actor or "the character"


def death_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes:
    who = _who(actor)
    return Stakes(
        purpose=f"the death contest: {who}'s injuries (acting) against {who}'s endurance",
        on_success=f"the injuries prevail: {who} starts dying",
        on_failure=f"{who} holds on: no death this time",
        dice=("the injuries' d20 (acting)", f"{who}'s endurance d20 (resisting)"),
    )


def consciousness_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes:
    who = _who(actor)
    return Stakes(
        purpose=f"{who}'s roll to stay conscious after the injury",
        on_success=f"{who} stays conscious and acts on, at a penalty per injury",
        on_failure=f"{who} falls unconscious at the end of the round",
    )


def awaken_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes:
    who = _who(actor)
    return Stakes(
        purpose=f"{who}'s roll to awaken",
        on_success=f"{who} awakens",
        on_failure=f"{who} stays unconscious until the next roll",
    )


def rest_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes:
    return Stakes(
        purpose=f"{_who(actor)}'s health roll for the night's rest",
        on_success="the full night's recovery",
        on_failure="the lesser recovery of a failed rest",
    )


def roll_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes:
    return Stakes(purpose=f"{_who(actor)}'s {data.get('against', 'reaction')} roll")
