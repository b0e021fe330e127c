"""Injury: losing HP and its thresholds (seed 004, "Injuries", "General Injury", B419)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["take_injury"]


def take_injury(play: Play[GurpsCharacter], actor: str, injury: int, rule: Rule) -> None:
    """Take ``injury`` HP from ``actor`` because of ``rule`` and apply every HP threshold.

    Shock (next turn only, capped at -4), major wound (> HP/2 in one go: HT roll or stunned and
    knocked down), reeling below 1/3 HP, consciousness rolls at 0 HP and below, death checks at
    each multiple of -HP, death at -5 x HP. ``injury`` is already after DR and wounding.
    """
    raise NotImplementedError  # implemented in the next stretch of work
