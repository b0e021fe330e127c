"""Suffering Memorable and Traumatic Injuries: the table rolls and what they leave on the sheet.

Each table roll is a check kind (``wg.memorable-injury``, ``wg.traumatic-injury``), so a table
that rolls its own dice is asked for it, and what it leaves on the sheet waits for the die.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.section import CheckHandler, CheckKind, CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.systems.wrath_glory import citations, conditions, formulas, options
from rulekeeper.systems.wrath_glory.character import Death
from rulekeeper.systems.wrath_glory.death import kill
from rulekeeper.systems.wrath_glory.memorable_injuries import MemorableStep, roll_memorable
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.stakes import POOL_STAKES
from rulekeeper.systems.wrath_glory.traumatic_injuries import TraumaticInjury, side_for_roll, traumatic_row

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.state import PendingCheck

__all__ = [
    "INJURY_SECTION",
    "MEMORABLE_KIND",
    "TRAUMATIC_KIND",
    "suffer_memorable_injury",
    "suffer_traumatic_injury",
]

MEMORABLE_KIND = "wg.memorable-injury"
TRAUMATIC_KIND = "wg.traumatic-injury"
_MEMORABLE, _PART, _SIDE = "memorable-injury", "traumatic-part", "traumatic-side"


def _d6(
    play: WGPlay, kind: str, label: str, purpose: str, actor: str, stakes: Stakes, rule: Rule, **data: object
) -> None:
    play.roll_check(
        DiceRoll(kind=kind, label=label, notation="1d6", style="sum"),
        purpose=purpose,
        rule=rule,
        actor=actor,
        data=data,
        stakes=stakes,
    )


def _rolled(step: Callable[[WGPlay, str, PendingCheck, int], None]) -> CheckHandler:
    """What an injury d6 does, for a character still alive (nothing happens to the dead)."""

    def on_roll(play: WGPlay, pending: PendingCheck, result: CheckResult) -> None:
        actor = pending.actor
        if actor is not None and not play.char(actor).dead:
            step(play, actor, pending, result.total)

    return on_roll


def suffer_memorable_injury(play: WGPlay, actor: str) -> None:
    """Roll on the Memorable Injury table (d6)."""
    _d6(
        play,
        MEMORABLE_KIND,
        f"{actor} rolls on the Memorable Injury table",
        _MEMORABLE,
        actor,
        Stakes(
            purpose=f"{actor}'s Memorable Injury: the d6 picks the row of the table",
            on_success="a new injury, or one already borne escalates",
        ),
        citations.MEMORABLE_INJURY,
    )


def _memorable(play: WGPlay, actor: str, roll: int) -> None:
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
    _d6(
        play,
        TRAUMATIC_KIND,
        f"{actor}: {why}; Traumatic Injury part",
        _PART,
        actor,
        Stakes(
            purpose=f"{actor}'s Traumatic Injury: the d6 picks the part of the body",
            on_success="an arm, hand, leg or foot also needs a d6 for the side",
        ),
        citations.TRAUMATIC_INJURY,
        why=why,
    )


def _traumatic_part(play: WGPlay, actor: str, why: str, part_roll: int) -> None:
    row = traumatic_row(part_roll)
    if not row.sided:
        _traumatic(play, actor, part_roll, None)
        return
    _d6(
        play,
        TRAUMATIC_KIND,
        f"{actor}: side of the {row.part.value}",
        _SIDE,
        actor,
        Stakes(purpose=f"{actor}'s Traumatic Injury: the d6 picks the side of the {row.part.value}"),
        row.rule,
        part=part_roll,
    )


def _traumatic(play: WGPlay, actor: str, part_roll: int, side_roll: int | None) -> None:
    row = traumatic_row(part_roll)
    side = None if side_roll is None else side_for_roll(side_roll)
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


def _memorable_rolled(play: WGPlay, actor: str, pending: PendingCheck, d6: int) -> None:
    _memorable(play, actor, d6)


def _part_rolled(play: WGPlay, actor: str, pending: PendingCheck, d6: int) -> None:
    _traumatic_part(play, actor, str(pending.data["why"]), d6)


def _side_rolled(play: WGPlay, actor: str, pending: PendingCheck, d6: int) -> None:
    _traumatic(play, actor, int(pending.data["part"]), d6)


#: Memorable and Traumatic Injuries (seed 003): the d6 rolls on their tables.
INJURY_SECTION = Section(
    "injuries",
    check_kinds=(
        CheckKind(MEMORABLE_KIND, "the d6 on the Memorable Injury table (on falling Dying, or by a rule)"),
        CheckKind(TRAUMATIC_KIND, "the d6 for a Traumatic Injury's part, and the d6 for its side"),
    ),
    checks=(
        CheckSpec(_MEMORABLE, _rolled(_memorable_rolled), POOL_STAKES),
        CheckSpec(_PART, _rolled(_part_rolled), POOL_STAKES),
        CheckSpec(_SIDE, _rolled(_side_rolled), POOL_STAKES),
    ),
)
