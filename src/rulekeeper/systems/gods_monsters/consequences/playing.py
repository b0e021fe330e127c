"""Small helpers the seed 002 rules share when they act on a game through a Play."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.play import Play
from rulekeeper.core.roll_under import RollUnder
from rulekeeper.core.stakes import Stakes
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.checks import gm_roll
from rulekeeper.systems.gods_monsters.consequences.state_effects import score_modifiers

__all__ = [
    "ask",
    "c_roll",
    "drop_pending_where",
    "refuse_if_dead",
    "refuse_if_unable",
    "roll_amount",
    "round_length",
    "set_condition_data",
    "to_round_end",
]


def c_roll(
    play: Play[Any],
    actor: str,
    *,
    kind: str,
    score: str,
    label: str | None = None,
    modifiers: Iterable[Modifier] = (),
    score_value: int | None = None,
) -> RollUnder:
    """A d20 roll-under for ``actor`` against ``score``, with the injury penalty (survival
    rules) and seed 002 state (ailments, speed) on top of ``modifiers``."""
    character: GmCharacter = play.char(actor)
    mods = [*modifiers, *score_modifiers(play.state, actor, score)]
    return gm_roll(
        play,
        character,
        kind=kind,
        label=label or score,
        score=character.score(score) if score_value is None else score_value,
        modifiers=mods,
    )


def ask(
    play: Play[Any],
    actor: str,
    check: RollUnder,
    *,
    purpose: str,
    rule: Rule,
    data: Mapping[str, Any] | None = None,
) -> CheckResult | None:
    """Ask for a check; its consequence is the handler its purpose names in the topic's section."""
    return play.check(check, purpose=purpose, rule=rule, actor=actor, data=data)


def roll_amount(
    play: Play[Any],
    notation: str,
    reason: str,
    rule: Rule,
    *,
    actor: str,
    kind: str,
    purpose: str,
    data: Mapping[str, Any],
    stakes: Stakes,
    land: Callable[[Play[Any], str, Mapping[str, Any], int], None],
) -> None:
    """A rolled amount (``1d4``), or a plain number without rolling (``1``), handed to ``land``.

    A rolled amount is a plain roll of kind ``kind`` (see :meth:`Play.roll_check`), so under
    ``prompt`` it waits for the table; the consequence check handler for ``purpose`` must call
    ``land`` with its total.
    """
    text = notation.strip()
    if text.lstrip("-").isdigit():
        land(play, actor, data, int(text))
        return
    play.roll_check(
        DiceRoll(kind=kind, label=reason, notation=text),
        purpose=purpose,
        rule=rule,
        actor=actor,
        data=data,
        stakes=stakes,
    )


def set_condition_data(play: Play[Any], actor: str, name: str, data: Mapping[str, Any]) -> None:
    """Replace a condition's data in place (no new id, no new explanation)."""
    play.state = replace(
        play.state,
        conditions=tuple(
            replace(c, data=dict(data)) if c.actor == actor and c.name == name else c for c in play.state.conditions
        ),
    )


def drop_pending_where(play: Play[Any], actor: str, purpose_prefix: str, **match: Any) -> None:
    """Withdraw this actor's pending checks whose purpose starts with ``purpose_prefix`` and
    whose data has every ``match`` value."""
    play.state = replace(
        play.state,
        pending=tuple(
            p
            for p in play.state.pending
            if not (
                p.actor == actor
                and p.purpose.startswith(purpose_prefix)
                and all(p.data.get(k) == v for k, v in match.items())
            )
        ),
    )


def refuse_if_dead(play: Play[Any], actor: str, what: str) -> None:
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead and cannot {what}")


# Conditions in which a character does nothing of their own accord.
_OUT = (cond.UNCONSCIOUS, cond.SHOCK, "sleeping", "paralyzed")


def refuse_if_unable(play: Play[Any], actor: str, what: str, *, movement: bool = False) -> None:
    """Refuse an action the character would have to start themselves when they cannot:
    dead, unconscious (or in shock, asleep from an ailment, paralyzed); semi-conscious, or
    concentrating, for anything but movement (seed 002, semi-consciousness and concentration)."""
    refuse_if_dead(play, actor, what)
    for name in _OUT:
        if play.has(actor, name):
            raise RuleRefusal(f"{actor} is {name} and cannot {what}")
    if movement:
        return
    if play.has(actor, cond.SEMI_CONSCIOUS):
        raise RuleRefusal(
            f"{actor} is semi-conscious and may start no action but movement, so cannot {what} "
            "(seed 002, semi-consciousness)"
        )
    if play.has(actor, "concentrating"):
        raise RuleRefusal(
            f"{actor} is concentrating and may start no other action, so cannot {what} (seed 002, concentration); "
            "stop concentrating first"
        )


def round_length(play: Play[Any]) -> int:
    """Seconds in one round at this table (option ``round_seconds``; seed 002: six rounds a minute)."""
    return int(play.option("round_seconds", 10))


def to_round_end(play: Play[Any], rounds: int = 1) -> int:
    """Seconds until the end of the round ``rounds - 1`` rounds after the current one."""
    length = round_length(play)
    return length - play.now % length + (rounds - 1) * length
