"""What each Gods & Monsters roll left for the table is for (seed 000, "Injuries", "A time to die",
"Regaining survival"), in our own words. The death contest is the injuries' roll: its "success" is
the character starting to die, so the stakes say so plainly."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.stakes import Stakes

if TYPE_CHECKING:
    from rulekeeper.core.state import AnyCheck

__all__ = ["ODDS_WORDS", "STAKES", "check_stakes"]


#: purpose -> (what the roll is for, on success, on failure, die names); ``{who}`` and
#: ``{against}`` (the score a table roll is against) fill in.
STAKES: Mapping[str, tuple[str, str, str, tuple[str, ...]]] = {
    "death": (
        "the death contest: {who}'s injuries (acting) against {who}'s endurance",
        "the injuries prevail: {who} starts dying",
        "{who} holds on: no death this time",
        ("the injuries' d20 (acting)", "{who}'s endurance d20 (resisting)"),
    ),
    "consciousness": (
        "{who}'s roll to stay conscious after the injury",
        "{who} stays conscious and acts on, at a penalty per injury",
        "{who} falls unconscious at the end of the round",
        (),
    ),
    "awaken": ("{who}'s roll to awaken", "{who} awakens", "{who} stays unconscious until the next roll", ()),
    "rest": (
        "{who}'s health roll for the night's rest",
        "the full night's recovery",
        "the lesser recovery of a failed rest",
        (),
    ),
    "roll": ("{who}'s {against} roll", "", "", ()),
}


#: purpose -> what the odds shown are of, for the character (a death contest's "success" is the
#: character starting to die, so its odds read "starts dying", never "success").
ODDS_WORDS: Mapping[str, str] = {
    "death": "{who} starts dying",
    "consciousness": "{who} stays conscious",
    "awaken": "{who} awakens",
    "rest": "{who} recovers in full",
    "roll": "{who} makes the {against} roll",
}


def check_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a seed 000 check (the sections' ``CheckSpec.stakes``): the row of its purpose."""
    row = STAKES.get(purpose)
    if row is None:
        return None
    words = {"who": actor or "the character", "against": str(data.get("against", "reaction"))}
    text, on_success, on_failure, dice = row
    return Stakes(
        purpose=text.format_map(words),
        on_success=on_success.format_map(words),
        on_failure=on_failure.format_map(words),
        dice=tuple(name.format_map(words) for name in dice),
        odds_words=ODDS_WORDS.get(purpose, "").format_map(words),
    )
