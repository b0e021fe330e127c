"""Building Gods & Monsters rolls: d20 roll-under with the injury penalty on every roll.

Injury points are a penalty on attack, reaction and ability rolls (seed 000, "Injury points
(zero survival points)"). Every roll the system asks for goes through :func:`gm_roll`, which
adds that penalty unless the rule says otherwise (the heroic last effort ignores it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulekeeper.core.check import Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.roll_under import RollUnder
from rulekeeper.systems.gods_monsters.character import GmCharacter

__all__ = ["NATURAL_EXTREMES_OPTION", "gm_roll", "injury_modifier", "injury_penalty"]

# Unconfirmed house rule (rules brief, "Context"): natural 1 always succeeds, natural 20 fails.
NATURAL_EXTREMES_OPTION = "natural_extremes"


def injury_penalty(character: GmCharacter) -> int:
    """The modifier injuries put on every roll: ``-injuries`` (0 when unhurt, never positive)."""
    return -character.injuries


def injury_modifier(character: GmCharacter) -> Modifier | None:
    """The injury penalty as a roll modifier, or ``None`` when the character has no injuries."""
    if character.injuries <= 0:
        return None
    return Modifier(injury_penalty(character), f"{character.injuries} injur{'y' if character.injuries == 1 else 'ies'}")


def gm_roll(
    play: Play[Any],
    character: GmCharacter,
    *,
    kind: str,
    label: str,
    score: int | str,
    modifiers: Iterable[Modifier] = (),
    ignore_injuries: bool = False,
    actor: str | None = None,
) -> RollUnder:
    """A d20 roll-under against ``score`` (a number, or an ability/reaction name).

    The injury penalty is added unless ``ignore_injuries``; zero modifiers are dropped so the
    description stays short. The table's ``natural_extremes`` option is honoured. With
    ``actor`` and a named score, the modifiers seed 002 state puts on that score (ailments,
    moving at speed) are added too.
    """
    value = character.score(score) if isinstance(score, str) else score
    mods = [m for m in modifiers if m.value]
    if actor is not None and isinstance(score, str):
        # Asked of the ruleset: the sections that put modifiers on rolls (seed 002 ailments,
        # moving at speed) sit above this module and hook in there.
        mods.extend(m for m in play.ruleset.roll_modifiers(play.state, actor, score) if m.value)
    if not ignore_injuries:
        injury = injury_modifier(character)
        if injury is not None:
            mods.append(injury)
    return RollUnder(
        kind=kind,
        label=label,
        score=value,
        modifiers=tuple(mods),
        natural_extremes=bool(play.option(NATURAL_EXTREMES_OPTION, False)),
    )
