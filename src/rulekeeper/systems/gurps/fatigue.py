"""Fatigue: losing and regaining FP (seed 004, "Lost Fatigue Points", "Recovering FP")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["lose_fp"]


def lose_fp(play: Play[GurpsCharacter], actor: str, amount: int, rule: Rule) -> None:
    """Take ``amount`` FP from ``actor`` because of ``rule`` and apply every fatigue threshold.

    Below 1/3 FP: very tired (half Move, Dodge, ST). At 0 FP or below each FP lost also costs
    1 HP (through ``take_injury``) and a Will roll to keep going. At -FP the character falls
    unconscious, FP stops falling and further costs come off HP.
    """
    raise NotImplementedError  # implemented in the next stretch of work
