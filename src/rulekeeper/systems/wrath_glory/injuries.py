"""Suffering Memorable and Traumatic Injuries: the table rolls and what they leave on the sheet."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.systems.wrath_glory import citations, conditions, formulas, options
from rulekeeper.systems.wrath_glory.character import Death
from rulekeeper.systems.wrath_glory.death import kill
from rulekeeper.systems.wrath_glory.memorable_injuries import MemorableStep, roll_memorable
from rulekeeper.systems.wrath_glory.rolls import WGPlay, roll_d6
from rulekeeper.systems.wrath_glory.traumatic_injuries import TraumaticInjury, side_for_roll, traumatic_row

__all__ = ["suffer_memorable_injury", "suffer_traumatic_injury"]


def suffer_memorable_injury(play: WGPlay, actor: str) -> None:
    roll = roll_d6(play, f"{actor} rolls on the Memorable Injury table", citations.MEMORABLE_INJURY, actor=actor)
    character = play.char(actor)
    injuries, row, step = roll_memorable(character.memorable_injuries, roll)
    if step is MemorableStep.NEW:
        text = f"{actor} suffers a Memorable Injury: {row.name}"
        name = row.name
    elif step is MemorableStep.ESCALATED:
        text = f"{actor} already bears {row.name}; it escalates to {row.escalation}"
        name = row.escalation
    else:
        text = f"{actor} already bears {row.escalation} (escalated {row.name}); the roll is ignored"
        name = row.escalation
    play.put(actor, replace(character, memorable_injuries=injuries))
    play.explain(text, row.rule, actor=actor)
    play.event("memorable-injury", actor, row=row.key, step=step.value)
    play.result["memorable_injury"] = name
    play.result["memorable_step"] = step.value


def suffer_traumatic_injury(play: WGPlay, actor: str, why: str) -> None:
    """Roll the part (and side) of one Traumatic Injury, then check death by trauma."""
    part_roll = roll_d6(play, f"{actor}: {why}; Traumatic Injury part", citations.TRAUMATIC_INJURY, actor=actor)
    row = traumatic_row(part_roll)
    side = None
    if row.sided:
        side = side_for_roll(roll_d6(play, f"{actor}: side of the {row.part.value}", row.rule, actor=actor))
    injury = TraumaticInjury(part=row.part, side=side)
    character = play.char(actor)
    character = replace(character, traumatic_injuries=(*character.traumatic_injuries, injury))
    play.put(actor, character)
    play.explain(f"{actor} suffers a Traumatic Injury to the {injury.label}: {row.effect}", row.rule, actor=actor)
    play.event("traumatic-injury", actor, part=row.part.value, side=None if side is None else side.value)
    play.result.setdefault("traumatic_injuries", []).append(injury.label)
    count = character.traumatic_count(count_replaced=options.count_replaced_injuries(play))
    if formulas.dies_of_trauma(count, character.tier):
        threshold = formulas.trauma_death_threshold(character.tier)
        kill(
            play,
            actor,
            Death.TRAUMA,
            citations.TRAUMA_DEATH,
            f"{actor} has {count} Traumatic Injuries, more than Tier + 1 = {threshold}, and dies",
        )
        return
    conditions.sync_conditions(play, actor)
