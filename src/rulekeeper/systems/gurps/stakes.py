"""What each GURPS roll left for the table is for, and what its success and failure do.

Our own summaries of seed 004 ("Injuries", "Recovery", "Attacking", "Defending"): a pending
check shows them beside its exact odds, so "HT 12 or less" reads as the roll to stay conscious.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.stakes import Stakes

if TYPE_CHECKING:
    from rulekeeper.core.state import AnyCheck

__all__ = ["ODDS_WORDS", "STAKES", "check_stakes", "gurps_stakes"]

#: purpose -> (what the roll is for, on success, on failure); ``{actor}`` and data keys fill in.
STAKES: Mapping[str, tuple[str, str, str]] = {
    "attack": ("{actor}'s attack roll on {target}", "a hit: {target} may defend", "a miss"),
    "defense": (
        "{actor}'s {choice} against {attacker}'s attack",
        "the attack is stopped",
        "the attack hits: damage is rolled next",
    ),
    "feint": ("{actor}'s Feint: a Quick Contest of skills", "the foe defends worse next turn", "no effect"),
    "parry-counter": (
        "{actor}'s roll to strike the limb of the unarmed attack just parried",
        "damage to the attacker, no defence",
        "no effect",
    ),
    "consciousness": (
        "{actor}'s roll to stay conscious at 0 HP or below",
        "{actor} stays conscious this turn",
        "{actor} falls unconscious",
    ),
    "death": ("{actor}'s roll to survive the new multiple of -HP", "{actor} lives on", "{actor} dies"),
    "major-wound": (
        "{actor}'s roll against the effects of a major wound",
        "no further effect",
        "{actor} is stunned and knocked down (knocked out on a bad failure)",
    ),
    "stun-recovery": ("{actor}'s roll to recover from stun", "the stun ends", "{actor} stays stunned another turn"),
    "wake": ("{actor}'s roll to wake up", "{actor} wakes", "{actor} stays unconscious until the next roll"),
    "untreated": (
        "{actor}'s roll to survive another 12 hours without treatment",
        "{actor} lives until the next roll",
        "{actor} dies",
    ),
    "natural-recovery": ("{actor}'s roll to heal after a day of rest", "{actor} regains 1 HP", "no HP back today"),
    "collapse": ("{actor}'s Will roll at 0 FP or less", "{actor} keeps acting", "{actor} collapses"),
    "feat.will_to_act": (
        "{actor}'s Will roll at 0 FP or less to {doing}",
        "{actor} pushes on and does it",
        "{actor} collapses instead",
    ),
    "aim": ("{actor}'s Will roll to keep aiming when hurt", "the aim holds", "the aim is lost"),
    "concentrate": ("{actor}'s Will-3 roll to keep concentrating", "the task goes on", "the task is interrupted"),
}


#: purpose -> what the odds shown are of, for the character, in a few words.
ODDS_WORDS: Mapping[str, str] = {
    "attack": "hits {target}",
    "defense": "stops the attack",
    "feint": "wins the Feint",
    "parry-counter": "strikes the attacker's limb",
    "consciousness": "stays conscious",
    "death": "lives on",
    "major-wound": "shrugs off the major wound",
    "stun-recovery": "shakes off the stun",
    "wake": "wakes up",
    "untreated": "lives another 12 hours",
    "natural-recovery": "regains 1 HP",
    "collapse": "keeps acting at 0 FP",
    "feat.will_to_act": "pushes on at 0 FP",
    "aim": "keeps the aim",
    "concentrate": "keeps concentrating",
}


class _Generic(dict[str, str]):
    """Template words; a key the check did not supply reads as "the <key>"."""

    def __missing__(self, key: str) -> str:
        return f"the {key}"


def gurps_stakes(purpose: str, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    row = STAKES.get(purpose)
    if row is None:
        return None
    words = {k: v for k, v in data.items() if isinstance(v, str)}
    words["actor"] = actor or "the character"
    words.setdefault("choice", "defence")

    def fill(text: str) -> str:
        # A check asked without the usual data still says what it is for: a missing name reads
        # generically ("the target"), never as a raw "{target}".
        return text.format_map(_Generic(words))

    odds = fill(f"{{actor}} {ODDS_WORDS[purpose]}") if purpose in ODDS_WORDS else ""
    return Stakes(purpose=fill(row[0]), on_success=fill(row[1]), on_failure=fill(row[2]), odds_words=odds)


def check_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a GURPS check (the sections' ``CheckSpec.stakes``): the row of its purpose."""
    return gurps_stakes(purpose, actor, data)
