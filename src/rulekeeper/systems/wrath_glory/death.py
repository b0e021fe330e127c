"""Death: Annihilation by one overwhelming attack, or more Traumatic Injuries than Tier + 1."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.citation import Rule
from rulekeeper.systems.wrath_glory import conditions
from rulekeeper.systems.wrath_glory.character import Death
from rulekeeper.systems.wrath_glory.rolls import WGPlay

__all__ = ["kill"]


def kill(play: WGPlay, actor: str, cause: Death, rule: Rule, text: str) -> None:
    """Mark ``actor`` dead; everything that only matters to the living (Dying, rests, pending rolls) ends."""
    character = play.char(actor)
    if character.rest is not None:
        play.cancel_timers(actor=actor, kind="wg.rest")
    play.put(actor, replace(character, death=cause, rest=None))
    play.explain(text, rule, actor=actor)
    play.remove_condition(actor, conditions.RESTING, quiet=True)
    for name in conditions.DERIVED_CONDITIONS:
        if name != conditions.DEAD:
            play.remove_condition(actor, name, quiet=True)
    play.drop_pending(actor=actor)
    play.add_condition(actor, conditions.DEAD, rule, text=f"{actor} is dead ({cause.value})")
    play.event("death", actor, cause=cause.value)
    play.result.setdefault("deaths", {})[actor] = cause.value
