"""Damage, Determination, Wounds, Annihilation and Dying: what one attack does to each target.

The flow for one target (seed 003, Damage / Determination / Wounds / Mortal Wounds / Dying):
damage against Resilience (or Mortal Wounds straight through) -> Determination on any Wounds
(each Icon turns one into Shock) -> Annihilation (order an option) -> Wounds, or one Traumatic
Injury if already Dying -> Dying on passing Max Wounds, with a Memorable Injury and Prone.
Determination is a check, so everything after it runs in :func:`on_determination`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult
from rulekeeper.core.citation import Rule
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.wrath_glory import citations, conditions, formulas, options
from rulekeeper.systems.wrath_glory.character import Death
from rulekeeper.systems.wrath_glory.death import kill
from rulekeeper.systems.wrath_glory.injuries import suffer_memorable_injury, suffer_traumatic_injury
from rulekeeper.systems.wrath_glory.rest import note_dying
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.stakes import DETERMINATION_STAKES

__all__ = [
    "DETERMINATION_KIND",
    "DETERMINATION_PURPOSE",
    "DETERMINATION_SECTION",
    "determination_check",
    "on_determination",
    "strike",
    "suffer_shock",
    "suffer_wounds",
]

DETERMINATION_KIND = "wg.determination"
DETERMINATION_PURPOSE = "determination"


def _record(play: WGPlay, actor: str, **values: Any) -> None:
    """Note a target's figures in the result; flat too when the command concerns one target."""
    targets: dict[str, dict[str, Any]] = play.result.setdefault("targets", {})
    targets.setdefault(actor, {}).update(values)
    if len(targets) == 1:
        play.result.update(values)


def determination_check(actor: str, toughness: int, wounds: int) -> PoolTest:
    """Toughness dice; the DN is the Wounds suffered, so a pass means every Wound is turned to Shock.

    Reading: Determination is a roll, not a Test, so it has no Wrath die and no DN penalties.
    """
    return PoolTest(
        kind=DETERMINATION_KIND,
        label=f"{actor}'s Determination (Toughness {toughness}) against {wounds} Wound(s)",
        pool=toughness,
        dn=wounds,
        wrath_dice=0,
    )


def strike(play: WGPlay, targets: Sequence[str], damage: int, *, mortal: bool, mortal_determination: bool) -> None:
    """One attack's damage (already rolled once) against every target (seed 003, Damage Against Multiple Targets)."""
    play.result["damage"] = damage
    play.result["targets"] = {t: {} for t in targets}
    if len(targets) > 1:
        play.explain(
            f"one damage roll of {damage} serves all {len(targets)} targets: {', '.join(targets)}",
            citations.MULTIPLE_TARGETS,
        )
    for actor in targets:
        _strike_one(play, actor, damage, mortal=mortal, mortal_determination=mortal_determination)


def _strike_one(play: WGPlay, actor: str, damage: int, *, mortal: bool, mortal_determination: bool) -> None:
    character = play.char(actor)
    if character.dead:
        play.explain(f"{actor} is already dead; the attack changes nothing", citations.WOUNDS, actor=actor)
        _record(play, actor, skipped="dead")
        return
    if mortal:
        wounds, shock = damage, 0
        play.explain(
            f"{damage} Mortal Wound(s) strike {actor}, ignoring Resilience", citations.MORTAL_WOUNDS, actor=actor
        )
    else:
        hit = formulas.damage_against_resilience(damage, character.resilience)
        wounds, shock = hit.wounds, hit.shock
        if wounds:
            text = f"damage {damage} exceeds {actor}'s Resilience {character.resilience} by {wounds}: {wounds} Wound(s)"
        elif shock:
            text = f"damage {damage} equals {actor}'s Resilience {character.resilience}: 1 Shock"
        else:
            text = f"damage {damage} is below {actor}'s Resilience {character.resilience}: no effect"
        play.explain(text, citations.DAMAGE, actor=actor)
    _record(play, actor, resilience=character.resilience, wounds_inflicted=wounds, shock_inflicted=shock)
    if shock:
        suffer_shock(play, actor, shock, citations.DAMAGE)
    if wounds == 0:
        return
    if options.annihilation_before_determination(play) and _annihilates(play, actor, wounds):
        return
    if mortal and not mortal_determination:
        play.explain(
            f"Determination cannot negate Mortal Wounds; {actor} suffers all {wounds}",
            citations.MORTAL_WOUNDS,
            actor=actor,
        )
        suffer_wounds(play, actor, wounds)
        return
    play.check(
        determination_check(actor, character.toughness, wounds),
        purpose=DETERMINATION_PURPOSE,
        rule=citations.DETERMINATION,
        actor=actor,
        data={"wounds": wounds},
    )


def on_determination(play: WGPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None:
        return
    wounds = int(pending.data["wounds"])
    character = play.char(actor)
    if character.dead:
        play.explain(f"{actor} is already dead; Determination changes nothing", citations.WOUNDS, actor=actor)
        return
    converted = formulas.wounds_converted(result.total, wounds)
    play.explain(
        f"{result.total} Icon(s) on Determination turn {converted} of {wounds} Wound(s) into Shock",
        citations.DETERMINATION,
        actor=actor,
    )
    _record(play, actor, icons=result.total, wounds_converted=converted)
    if converted:
        suffer_shock(play, actor, converted, citations.DETERMINATION)
    suffer_wounds(play, actor, wounds - converted)


def suffer_shock(play: WGPlay, actor: str, shock: int, rule: Rule) -> None:
    character = play.char(actor)
    play.put(actor, replace(character, shock=character.shock + shock))
    play.explain(f"{actor} suffers {shock} Shock ({character.shock + shock} in all)", rule, actor=actor)
    conditions.sync_conditions(play, actor)


def _annihilates(play: WGPlay, actor: str, wounds: int) -> bool:
    character = play.char(actor)
    if not formulas.is_annihilated(wounds, character.max_wounds):
        return False
    _record(play, actor, annihilated=True)
    play.put(actor, replace(character, wounds=character.wounds + wounds))
    kill(
        play,
        actor,
        Death.ANNIHILATED,
        citations.ANNIHILATION,
        f"{wounds} Wounds from one attack exceed twice {actor}'s Max Wounds ({2 * character.max_wounds}): "
        "Annihilated, dead outright",
    )
    return True


def suffer_wounds(play: WGPlay, actor: str, wounds: int) -> None:
    """Wounds that got past Determination (or that it could not touch)."""
    _record(play, actor, wounds_suffered=wounds)
    if wounds <= 0:
        play.explain(f"{actor} suffers no Wounds from the attack", citations.DETERMINATION, actor=actor)
        return
    if not options.annihilation_before_determination(play) and _annihilates(play, actor, wounds):
        return
    character = play.char(actor)
    if character.dying:
        play.explain(
            f"{actor} is Dying: the {wounds} Wound(s) become one Traumatic Injury instead",
            citations.DYING_TRAUMA,
            actor=actor,
        )
        suffer_traumatic_injury(play, actor, "Wounds taken while Dying")
        return
    total = character.wounds + wounds
    # Suffering Wounds above Max Wounds makes a character Dying again, even one whose Dying a heal ended.
    play.put(actor, replace(character, wounds=total, dying_ended=False))
    play.explain(
        f"{actor} suffers {wounds} Wound(s): {total} of Max Wounds {character.max_wounds}",
        citations.WOUNDS,
        actor=actor,
    )
    if formulas.is_dying(total, character.max_wounds):
        _enter_dying(play, actor)
    else:
        conditions.sync_conditions(play, actor)


def _enter_dying(play: WGPlay, actor: str) -> None:
    conditions.sync_conditions(play, actor)
    note_dying(play, actor)
    _record(play, actor, dying=True)
    suffer_memorable_injury(play, actor)
    play.add_condition(
        actor, conditions.PRONE, citations.DYING, text=f"{actor} falls Prone and cannot stand while Dying"
    )


#: Determination (seed 003): Toughness dice whose Icons turn Wounds just suffered into Shock.
DETERMINATION_SECTION = Section(
    "determination",
    check_kinds=(
        CheckKind(DETERMINATION_KIND, "Determination: Toughness dice whose Icons turn Wounds just suffered into Shock"),
    ),
    checks=(CheckSpec(DETERMINATION_PURPOSE, on_determination, DETERMINATION_STAKES),),
)
