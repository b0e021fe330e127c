"""Plain dice rolls the rules make without a target number: damage and turn-order ties.

These are not checks (nothing succeeds or fails), so they go straight to the injected dice
source and are explained with every die; a table that rolls its own damage passes the total
(``damage_roll``) instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["roll_damage", "roll_dice"]


def roll_dice(play: Play[GurpsCharacter], dice: DamageDice, reason: str, rule: Rule, *, actor: str | None) -> int:
    """Roll ``dice`` (d6s plus adds), never below 0, and explain it."""
    values = tuple(play.dice.roll(6) for _ in range(dice.dice))
    total = max(0, sum(values) + dice.adds)
    shown = f"{dice} ({', '.join(map(str, values))}) = {total}" if values else f"{dice} = {total}"
    play.explain(f"{reason}: {total}", rule, actor=actor, roll=shown, dice=values)
    return total


def roll_damage(
    play: Play[GurpsCharacter],
    dice: DamageDice,
    reason: str,
    rule: Rule,
    *,
    actor: str | None,
    typed: int | None = None,
    maximum: bool = False,
) -> int:
    """A damage roll: the maximum (critical 3), the total typed in at the table, or rolled now."""
    if maximum:
        play.explain(f"{reason}: maximum damage {dice.maximum} ({dice})", rule, actor=actor)
        return dice.maximum
    if typed is not None:
        if not dice.minimum <= typed <= dice.maximum:
            raise InputError(
                f"{typed} cannot be rolled on {dice}",
                expected=f"a total from {dice.minimum} to {dice.maximum}",
                where="amount",
            )
        play.explain(f"{reason}: {typed} (rolled at the table on {dice})", rule, actor=actor)
        return typed
    return roll_dice(play, dice, reason, rule, actor=actor)
