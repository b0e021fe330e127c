"""Recovering Wounds and Shock: healing (which ends Dying), and the Combat Action + Wrath Shock restore."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.citation import Rule
from rulekeeper.systems.wrath_glory import citations, conditions, formulas, options
from rulekeeper.systems.wrath_glory.rolls import WGPlay

__all__ = ["recover", "restore_shock"]


def recover(play: WGPlay, actor: str, wounds: int, shock: int, rule: Rule) -> None:
    """``actor`` regains ``wounds`` Wounds and ``shock`` Shock; any Wounds regained end Dying."""
    character = play.char(actor)
    was_dying = character.dying
    caps = options.dying_recovery_caps(play)
    new_wounds = formulas.wounds_after_recovery(character.wounds, wounds, character.max_wounds, cap=caps)
    new_shock = max(0, character.shock - shock)
    # Literal reading: Dying ends on any recovery though Wounds may still exceed Max Wounds.
    ended = (character.dying_ended or (was_dying and wounds > 0)) and new_wounds > character.max_wounds
    play.put(actor, replace(character, wounds=new_wounds, shock=new_shock, dying_ended=ended))
    if wounds:
        play.explain(
            f"{actor} recovers {wounds} Wound(s): {character.wounds} -> {new_wounds}",
            citations.DYING_RECOVERY if was_dying else rule,
            actor=actor,
        )
    if was_dying and wounds:
        above = new_wounds > character.max_wounds
        play.explain(
            f"{actor} is no longer Dying"
            + (f" (Wounds {new_wounds} stay above Max Wounds {character.max_wounds})" if above else ""),
            citations.DYING_RECOVERY_CAP if caps else citations.DYING_RECOVERY,
            actor=actor,
        )
    if shock:
        play.explain(f"{actor} recovers {shock} Shock: {character.shock} -> {new_shock}", rule, actor=actor)
    play.result.update(wounds=new_wounds, shock=new_shock, wounds_recovered=character.wounds - new_wounds)
    conditions.sync_conditions(play, actor)


def restore_shock(play: WGPlay, actor: str) -> None:
    """A Combat Action and a point of Wrath restore Rank + Tier Shock (seed 003, Shock)."""
    character = play.char(actor)
    amount = formulas.shock_restored(character.rank, character.tier)
    new_shock = max(0, character.shock - amount)
    play.put(actor, replace(character, shock=new_shock, wrath=character.wrath - 1))
    play.explain(
        f"{actor} spends a Combat Action and 1 Wrath ({character.wrath} -> {character.wrath - 1}) to restore "
        f"Rank {character.rank} + Tier {character.tier} = {amount} Shock: {character.shock} -> {new_shock}",
        citations.SHOCK,
        actor=actor,
    )
    play.result.update(shock=new_shock, shock_restored=character.shock - new_shock, wrath=character.wrath - 1)
    conditions.sync_conditions(play, actor)
