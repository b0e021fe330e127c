"""What every feat does the same way: asking for checks, finding skill levels, reading state.

Recurring rolls (climbing, running, swimming) chain themselves: each roll's consequence, in
``on_feat_check``, schedules the next one. A table that only *notes* a kind of roll never runs
that hook, so :func:`ask` tells the caller when the roll was only noted and the chain must be
kept going without a result.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.play import Play
from rulekeeper.core.state import AnyCheck, AutomationLevel, PendingCheck, Timer
from rulekeeper.core.success_roll import QuickContest, SuccessRoll
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.character import GurpsCharacter
from rulekeeper.systems.gurps.injury import shock_modifier
from rulekeeper.systems.gurps.rules import SUCCESS_ROLL
from rulekeeper.systems.gurps.status import incapacity

__all__ = [
    "SHOCKED_KINDS",
    "CheckHandler",
    "GurpsPlay",
    "TimerHandler",
    "ask",
    "ask_roll",
    "gm_modifier",
    "is_incapable",
    "members",
    "noted",
    "say_verdict",
    "skill_level",
    "with_shock",
]

GurpsPlay = Play[GurpsCharacter]
CheckHandler = Callable[[GurpsPlay, PendingCheck, CheckResult], None]
TimerHandler = Callable[[GurpsPlay, Timer], None]


def ask(
    play: GurpsPlay,
    check: AnyCheck,
    *,
    purpose: str,
    rule: Rule,
    actor: str | None,
    data: Mapping[str, Any] | None = None,
) -> CheckResult | None:
    """Ask for a feat's check; purposes are namespaced ``feat.`` for the ruleset's dispatcher.
    A roll against DX, IQ or a skill based on them carries the actor's shock, if any."""
    if not purpose.startswith("feat."):
        raise ValueError(f"feat purposes start with 'feat.', not {purpose!r}")
    if actor is not None and check.kind in SHOCKED_KINDS:
        check = with_shock(play, actor, check)
    return play.check(check, purpose=purpose, rule=rule, actor=actor, data=data)


#: The feats' rolls against DX, IQ or a skill based on them, which shock penalises on the turn
#: after an injury (seed 004, "Shock"): throwing (DX), Climbing (DX-based), the Influence skills
#: (IQ-based) and the comprehension roll after a Sense roll (IQ, or a skill: read as IQ-based).
#: HT, Per and Will rolls (running, swimming, hiking, senses, Will, Fright) are not DX or IQ.
SHOCKED_KINDS = frozenset({"gurps.throwing", "gurps.climbing", "gurps.influence", "gurps.sense.comprehension"})


def with_shock(play: GurpsPlay, actor: str, check: AnyCheck) -> AnyCheck:
    """``check`` with the actor's shock penalty on the actor's own roll (a contest's first side)."""
    shock = shock_modifier(play, actor)
    if shock is None or not shock.value:
        return check
    if isinstance(check, SuccessRoll):
        return replace(check, modifiers=(*check.modifiers, shock))
    if isinstance(check, QuickContest):
        return replace(check, first=replace(check.first, modifiers=(*check.first.modifiers, shock)))
    return check


def noted(play: GurpsPlay, kind: str) -> bool:
    """True when the table only notes this kind of roll (so no consequence hook will run)."""
    return play.state.settings.level_for(kind) is AutomationLevel.NOTE


def gm_modifier(value: int | None, reason: str = "GM's modifier") -> tuple[Modifier, ...]:
    return (Modifier(value, reason),) if value else ()


def ask_roll(
    play: GurpsPlay,
    actor: str,
    *,
    kind: str,
    label: str,
    base: int,
    modifier: int,
    shocked: bool,
    purpose: str,
    data: Mapping[str, Any],
) -> None:
    """A success roll asked for by itself (an attribute or a skill from the sheet): the GM's
    modifier, and the actor's shock where it reaches (DX, IQ and what is based on them)."""
    check: AnyCheck = SuccessRoll(kind=kind, label=label, base=base, modifiers=gm_modifier(modifier))
    if shocked:
        check = with_shock(play, actor, check)
    ask(play, check, purpose=purpose, rule=SUCCESS_ROLL, actor=actor, data=data)


def say_verdict(play: GurpsPlay, pending: PendingCheck, result: CheckResult, at: str = "") -> None:
    """A roll asked by itself has no consequence but its verdict: said, and put in the result."""
    actor = str(pending.actor)
    verdict = "succeeds" if result.success else "fails"
    play.explain(f"{play.char(actor).name} {verdict}{at}", SUCCESS_ROLL, actor=actor)
    play.result["success"] = result.success


def skill_level(character: GurpsCharacter, names: tuple[str, ...], override: int | None, title: str) -> int:
    """The character's level in a skill (first name found), or the level given at the table.

    The seed gives defaults only for Climbing and Hiking (the character applies those); for any
    other skill the sheet must have it or the action must say the level.
    """
    if override is not None:
        return override
    for name in names:
        level = character.skill(name)
        if level is not None:
            return level
    raise InputError(
        f"{character.name} has no {title} skill on the sheet and seed 004 gives it no default",
        expected=f"a {title} skill on the sheet, or skill_level=N",
        where="skill_level",
    )


def is_incapable(play: GurpsPlay, actor: str) -> bool:
    """Dead, unconscious or collapsed: no roll can be made, no feat kept up."""
    return incapacity(play, actor) is not None


def members(play: GurpsPlay, text: str | None, where: str) -> tuple[str, ...]:
    """Character ids from comma-separated text, each checked to exist."""
    if not text:
        return ()
    ids = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    for cid in ids:
        if cid not in play.state.characters:
            known = ", ".join(sorted(play.state.characters)) or "none yet"
            raise InputError(f"unknown character {cid!r}", expected=f"ids among: {known}", where=where)
    return ids
