"""Consciousness: the roll after harm, falling unconscious, semi-consciousness and awakening.

Seed 000, "Injury points (zero survival points)": dropping to zero survival or gaining injuries
calls for an immediate fortitude (physical harm) or willpower (mental harm) roll at the injury
penalty; failure means unconsciousness at the end of the round for as many minutes as the
character has injuries. A player may always choose unconsciousness. Awakening rolls suffer the
injury penalty, and one mojo brings an unconscious character to semi-consciousness.

Reading (unconfirmed, a table option): the "normal" awakening roll is a health roll, made when
the unconsciousness runs out; a failure means another ``injuries`` minutes (at least one).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.check import CheckResult
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import MINUTE, format_duration
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import Condition, PendingCheck
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import dying, stakes
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.checks import gm_roll
from rulekeeper.systems.gods_monsters.rules import INJURIES, rule

__all__ = [
    "AWAKENING_OPTION",
    "CONSCIOUSNESS_SECTION",
    "ask_awakening_roll",
    "ask_consciousness_roll",
    "become_semi_conscious",
    "choose_unconsciousness",
    "fall_unconscious",
    "on_awakening_roll",
    "on_consciousness_roll",
    "on_unconsciousness_end",
]

AWAKENING_OPTION = "awakening_reaction"  # which reaction an awakening roll uses (unconfirmed)


def consciousness_reaction(physical: bool) -> str:
    return "fortitude" if physical else "willpower"


def ask_consciousness_roll(play: Play[GmCharacter], actor: str, *, physical: bool = True) -> None:
    """The immediate roll to stay conscious (skipped if already out or already falling this round)."""
    if cond.is_out(play, actor) or dying.falls_unconscious_this_round(play, actor):
        return
    character = play.char(actor)
    reaction = consciousness_reaction(physical)
    check = gm_roll(play, character, kind="gm.consciousness", label=reaction, score=reaction, actor=actor)
    play.check(
        check,
        purpose="consciousness",
        rule=rule(INJURIES),
        actor=actor,
        data={"physical": physical},
    )


def on_consciousness_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_out(play, actor):
        return
    character = play.char(actor)
    play.result["conscious"] = result.success
    if result.success:
        play.explain(
            f"{actor} stays conscious and acts on, at {-character.injuries:+d} on every roll",
            rule(INJURIES),
            actor=actor,
        )
        return
    dying.schedule_round_end(play, actor, fall_unconscious=True)
    play.explain(f"{actor} will fall unconscious at the end of the round", rule(INJURIES), actor=actor)


def fall_unconscious(play: Play[GmCharacter], actor: str, seconds: int | None, cite: Rule, *, reason: str) -> None:
    """Make ``actor`` unconscious for ``seconds`` (``None``: until woken), with its effects:
    a dying timer slows from minutes to hours, and seed 002 rules may react (phantasmal damage)."""
    play.remove_condition(actor, cond.SEMI_CONSCIOUS, quiet=True)
    span = f" for {format_duration(seconds)}" if seconds is not None else ""
    condition = play.add_condition(
        actor, cond.UNCONSCIOUS, cite, duration=seconds, text=f"{actor} falls unconscious{span}: {reason}"
    )
    dying.slow_dying(play, actor)
    play.ruleset.on_condition_start(play, condition)


def choose_unconsciousness(play: Play[GmCharacter], actor: str, minutes: int | None) -> None:
    """The player chooses to let the character pass out (seed 000: always allowed)."""
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead (seed 000, A time to die)")
    if play.has(actor, cond.UNCONSCIOUS) or play.has(actor, cond.SHOCK):
        raise RuleRefusal(f"{actor} is already unconscious")
    length = minutes if minutes is not None else max(1, play.char(actor).injuries)
    fall_unconscious(
        play,
        actor,
        length * MINUTE,
        rule(INJURIES, reading="chosen unconsciousness lasts the injury total in minutes (at least 1) by default"),
        reason="the player chooses it",
    )


def become_semi_conscious(play: Play[GmCharacter], actor: str) -> None:
    """Spend one mojo to bring an unconscious character to semi-consciousness."""
    cite = rule(INJURIES)
    if play.has(actor, cond.SHOCK):
        raise RuleRefusal(
            f"{actor} is in shock; only a full night's rest or magical healing ends it "
            "(seed 002, Actions and consequences: Illusions)"
        )
    condition = play.state.condition(actor, cond.UNCONSCIOUS)
    if condition is None:
        raise RuleRefusal(
            f"{actor} is not unconscious; only an unconscious character can be brought to "
            f"semi-consciousness (seed 000, {INJURIES})"
        )
    character = play.char(actor)
    if character.mojo < 1:
        raise RuleRefusal(f"{actor} has no mojo to spend (seed 000, {INJURIES})")
    play.put(actor, _spend_mojo(character, 1))
    remaining = None if condition.until is None else max(0, condition.until - play.now)
    play.remove_condition(actor, cond.UNCONSCIOUS, quiet=True)
    play.add_condition(
        actor,
        cond.SEMI_CONSCIOUS,
        cite,
        duration=remaining or None,
        data={"source": "mojo"},
        text=f"{actor} spends 1 mojo ({character.mojo} → {character.mojo - 1}) and is semi-conscious",
    )
    play.result["mojo"] = character.mojo - 1


def _spend_mojo(character: GmCharacter, n: int) -> GmCharacter:
    return replace(character, mojo=character.mojo - n)


def on_unconsciousness_end(play: Play[GmCharacter], condition: Condition) -> None:
    """Unconsciousness ran out: unhurt characters wake; injured ones roll to awaken."""
    actor = condition.actor
    if actor not in play.state.characters or cond.is_dead(play, actor):
        return
    character = play.char(actor)
    if character.injuries <= 0:
        play.explain(f"{actor} wakes up", rule(INJURIES), actor=actor)
        return
    ask_awakening_roll(play, actor, was=condition.name)


def ask_awakening_roll(play: Play[GmCharacter], actor: str, *, was: str = cond.UNCONSCIOUS) -> None:
    character = play.char(actor)
    reaction = str(play.option(AWAKENING_OPTION, "health"))
    check = gm_roll(play, character, kind="gm.awaken", label=f"{reaction} to awaken", score=reaction, actor=actor)
    play.check(check, purpose="awaken", rule=rule(INJURIES), actor=actor, data={"was": was})


def on_awakening_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor) or cond.counts_as_unconscious(play, actor):
        return
    play.result["awake"] = result.success
    if result.success:
        play.explain(f"{actor} awakens", rule(INJURIES), actor=actor)
        return
    minutes = max(1, play.char(actor).injuries)
    fall_unconscious(
        play,
        actor,
        minutes * MINUTE,
        rule(INJURIES, reading="a failed awakening roll means another injuries minutes (at least 1)"),
        reason="the awakening roll failed",
    )


#: Injuries (seed 000): staying conscious after an injury, and awakening.
CONSCIOUSNESS_SECTION = Section(
    "consciousness",
    check_kinds=(
        CheckKind("gm.consciousness", "fortitude/willpower roll to stay conscious after damage (seed 000)"),
        CheckKind("gm.awaken", "roll to awaken from injury unconsciousness (seed 000)"),
    ),
    checks=(
        CheckSpec("consciousness", on_consciousness_roll, stakes.check_stakes),
        CheckSpec("awaken", on_awakening_roll, stakes.check_stakes),
    ),
    condition_end={cond.UNCONSCIOUS: on_unconsciousness_end, cond.SEMI_CONSCIOUS: on_unconsciousness_end},
)
