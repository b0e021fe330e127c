"""What semi-consciousness allows (seed 002, the untitled passage after "Searching").

Seed 000 lets a player spend mojo to bring an unconscious character to semi-consciousness (the
``semi-conscious`` condition, put on by the survival rules). This module says what that means:

* no agility bonus to defence (agility penalties still count), and no bonus for attackers as
  against an unconscious target;
* the character may start no action but movement (at the semi-conscious speed: half movement a
  round, for endurance rounds -- see :mod:`.movement`);
* told to do something or asked a question, they may follow or answer, but the player must
  make a willpower roll or the character takes d4 rounds to react;
* for death rolls they count as unconscious (the survival rules give the +2).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SemiConsciousLimits", "semi_conscious_allows", "semi_conscious_limits"]

# Action kinds (ActionSpec.kind) a semi-conscious character may still take.
_ALLOWED_KINDS = frozenset({"move", "movement", "reply", "rest", "damage", "heal", "condition"})


@dataclass(frozen=True)
class SemiConsciousLimits:
    defense_agility_bonus: bool
    attackers_bonus: bool
    may_start: tuple[str, ...]
    movement_fraction: tuple[int, int]
    reply_roll: str
    reply_delay_dice: str
    counts_as_unconscious_for_death_rolls: bool


def semi_conscious_limits() -> SemiConsciousLimits:
    """The limits on a semi-conscious character, for rules and front ends to show or enforce."""
    return SemiConsciousLimits(
        defense_agility_bonus=False,
        attackers_bonus=False,
        may_start=("movement",),
        movement_fraction=(1, 2),
        reply_roll="willpower",
        reply_delay_dice="1d4",
        counts_as_unconscious_for_death_rolls=True,
    )


def semi_conscious_allows(action_kind: str) -> bool:
    """Whether a semi-conscious character may take an action of this kind on their own.

    Things done *to* them (damage, healing) and movement are allowed; attacks, spells and
    other feats are not.
    """
    return action_kind in _ALLOWED_KINDS
