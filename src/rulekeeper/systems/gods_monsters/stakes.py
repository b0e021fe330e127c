"""What each Gods & Monsters roll left for the table is for (seed 000, "Injuries", "A time to die",
"Regaining survival"), in our own words. The death contest is the injuries' roll: its "success" is
the character starting to die, so the stakes say so plainly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.stakes import Stakes

__all__ = ["gm_stakes"]


def gm_stakes(purpose: str, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    who = actor or "the character"
    if purpose == "death":
        return Stakes(
            purpose=f"the death contest: {who}'s injuries (acting) against {who}'s endurance",
            on_success=f"the injuries prevail: {who} starts dying",
            on_failure=f"{who} holds on: no death this time",
            dice=("the injuries' d20 (acting)", f"{who}'s endurance d20 (resisting)"),
        )
    if purpose == "consciousness":
        return Stakes(
            purpose=f"{who}'s roll to stay conscious after the injury",
            on_success=f"{who} stays conscious and acts on, at a penalty per injury",
            on_failure=f"{who} falls unconscious at the end of the round",
        )
    if purpose == "awaken":
        return Stakes(
            purpose=f"{who}'s roll to awaken",
            on_success=f"{who} awakens",
            on_failure=f"{who} stays unconscious until the next roll",
        )
    if purpose == "rest":
        return Stakes(
            purpose=f"{who}'s health roll for the night's rest",
            on_success="the full night's recovery",
            on_failure="the lesser recovery of a failed rest",
        )
    if purpose == "roll":
        return Stakes(purpose=f"{who}'s {data.get('against', 'reaction')} roll")
    return None
