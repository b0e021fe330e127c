"""The reaction table (GURPS Lite p. 3, given in the brief; seed 004's Influence Rolls points to it).

Reactions are ordered from worst to best, so "the better of two reactions" is a comparison.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.feats.citations import REACTION

__all__ = ["REACTIONS", "Reaction", "ReactionRow", "reaction_for"]


class Reaction(enum.IntEnum):
    DISASTROUS = 0
    VERY_BAD = 1
    BAD = 2
    POOR = 3
    NEUTRAL = 4
    GOOD = 5
    VERY_GOOD = 6
    EXCELLENT = 7

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


@dataclass(frozen=True)
class ReactionRow:
    """Totals from ``low`` to ``high`` (None = no bound) give ``reaction``."""

    low: int | None
    high: int | None
    reaction: Reaction
    rule: Rule


REACTIONS: tuple[ReactionRow, ...] = (
    ReactionRow(None, 0, Reaction.DISASTROUS, REACTION),
    ReactionRow(1, 3, Reaction.VERY_BAD, REACTION),
    ReactionRow(4, 6, Reaction.BAD, REACTION),
    ReactionRow(7, 9, Reaction.POOR, REACTION),
    ReactionRow(10, 12, Reaction.NEUTRAL, REACTION),
    ReactionRow(13, 15, Reaction.GOOD, REACTION),
    ReactionRow(16, 18, Reaction.VERY_GOOD, REACTION),
    ReactionRow(19, None, Reaction.EXCELLENT, REACTION),
)


def reaction_for(total: int) -> Reaction:
    """The reaction for a reaction roll's total (3d6 plus modifiers)."""
    for row in REACTIONS:
        if (row.low is None or total >= row.low) and (row.high is None or total <= row.high):
            return row.reaction
    raise AssertionError("the reaction table covers every total")
