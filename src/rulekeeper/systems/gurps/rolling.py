"""Damage that needs no roll: the maximum of a critical hit, or a total typed in at the table.

Damage that is rolled is a plain roll of kind ``gurps.damage`` (see :func:`.attack.ask_damage`),
so it follows the automation level; nothing here takes dice from the source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["damage_without_dice"]


def damage_without_dice(
    play: Play[GurpsCharacter],
    dice: DamageDice,
    reason: str,
    rule: Rule,
    *,
    actor: str | None,
    typed: int | None,
    maximum: bool,
) -> int:
    """Damage without dice: the maximum (critical 3), or the total typed in at the table."""
    if maximum:
        play.explain(f"{reason}: maximum damage {dice.maximum} ({dice})", rule, actor=actor)
        return dice.maximum
    if typed is None:
        raise ValueError("roll_damage needs the maximum or a typed total; rolled damage is a gurps.damage roll")
    if not dice.minimum <= typed <= dice.maximum:
        raise InputError(
            f"{typed} cannot be rolled on {dice}",
            expected=f"a total from {dice.minimum} to {dice.maximum}",
            where="amount",
        )
    play.explain(f"{reason}: {typed} (rolled at the table on {dice})", rule, actor=actor)
    return typed
