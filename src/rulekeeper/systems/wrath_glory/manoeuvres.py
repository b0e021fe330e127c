"""What a character may do on their turn, given Dying and lasting Traumatic Injuries.

Seed 003, Actions Whilst Dying: a Dying character may only crawl, take a basic Combat Action
(with none of its options) or fall back, and cannot stand up. Traumatic Injuries: with both
hands or arms lost no weapon can be held; with both feet or legs lost the character may only
crawl (W&G Core p.180). Readings: falling back and charging need walking, so crawl-only refuses
them; standing up is not walking, so crawl-only allows it.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.wrath_glory import citations, conditions
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.traumatic_injuries import cannot_hold_weapons, crawl_only

__all__ = ["COMBAT_OPTIONS", "DYING_ALLOWED", "MANOEUVRES", "MOVEMENT", "NEEDS_WALKING", "take_action"]

MOVEMENT = ("walk", "run", "sprint", "crawl", "fall_back", "stand")
COMBAT_OPTIONS = (
    "aim",
    "all_out_attack",
    "brace",
    "called_shot",
    "charge",
    "disarm",
    "full_defence",
    "grapple",
    "hold_action",
    "multi_attack",
    "pinning_attack",
)
MANOEUVRES = (*MOVEMENT, "combat_action", *COMBAT_OPTIONS)
DYING_ALLOWED = ("crawl", "combat_action", "fall_back")
NEEDS_WALKING = ("walk", "run", "sprint", "fall_back", "charge")


def _refuse(text: str, rule: Rule) -> RuleRefusal:
    return RuleRefusal(f"{text} ({rule})")


def take_action(play: WGPlay, actor: str, manoeuvre: str, *, weapon: bool) -> None:
    """Check ``manoeuvre`` is allowed for ``actor`` and record it; refusals name the rule."""
    character = play.char(actor)
    injuries = character.traumatic_injuries
    name = manoeuvre.replace("_", " ")
    if character.dying and manoeuvre == "stand":
        raise _refuse(f"{actor} cannot stand up while Dying", citations.DYING)
    if character.dying and manoeuvre not in DYING_ALLOWED:
        raise _refuse(
            f"{actor} is Dying and may only crawl, take a basic combat action (no options) or fall back, not {name}",
            citations.ACTIONS_WHILST_DYING,
        )
    if manoeuvre in NEEDS_WALKING and crawl_only(injuries):
        raise _refuse(f"{actor} has lost both feet or legs and may only crawl, not {name}", citations.CRAWL_ONLY)
    if weapon and cannot_hold_weapons(injuries):
        raise _refuse(
            f"{actor} has lost both hands or arms and cannot hold a weapon or similar gear", citations.TRAUMATIC_INJURY
        )
    rule = (
        citations.ACTIONS_WHILST_DYING
        if character.dying
        else citations.rule("Actions Whilst Dying", reading="not Dying: only lasting injuries limit actions")
    )
    if manoeuvre == "stand":
        if play.has(actor, conditions.PRONE):
            play.remove_condition(actor, conditions.PRONE, citations.DYING)
        else:
            play.explain(f"{actor} is already standing", rule, actor=actor)
    else:
        play.explain(f"{actor}: {name}" + (" with a weapon" if weapon else ""), rule, actor=actor)
    play.result.update(action=manoeuvre, allowed=True)
    play.event("manoeuvre", actor, action=manoeuvre, weapon=weapon)
