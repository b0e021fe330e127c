"""Illusions and phantasmal damage: what is regained, and the rolls to disbelieve.

Seed 002, "Actions and consequences: Illusions". Phantasmal damage works like real damage until
the victim falls unconscious or sees through it; then all but a tenth of it (rounded up, so at
least one point stays lost) comes back over one full round. A death roll lost to phantasmal
damage means shock, not death (handled by the survival rules' death roll).

Disbelieving: a perception roll while looking for flaws (one round, no attacking or
concentrating meanwhile), or a willpower roll while standing and accepting the illusion's
effects; penalties to disbelieve are halved for the willpower roll, and a willpower success
gives everyone else +2 on their perception rolls to disbelieve. A reaction against an invisible
phantasmal effect (an illusory poison) gets +10.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.errors import InputError

__all__ = [
    "DISBELIEF_METHODS",
    "INVISIBLE_EFFECT_BONUS",
    "WILLPOWER_HELP_BONUS",
    "PhantasmalRegain",
    "disbelief_penalty",
    "phantasmal_regain",
]

DISBELIEF_METHODS: tuple[str, ...] = ("perception", "willpower")
INVISIBLE_EFFECT_BONUS = 10
WILLPOWER_HELP_BONUS = 2


@dataclass(frozen=True)
class PhantasmalRegain:
    total: int
    kept: int
    regained: int


def phantasmal_regain(total: int) -> PhantasmalRegain:
    """How much of ``total`` phantasmal damage comes back: all but a tenth, rounded up."""
    if total < 0:
        raise InputError(f"phantasmal damage {total} is not valid", expected="0 or more")
    kept = -(-total // 10)
    return PhantasmalRegain(total=total, kept=kept, regained=total - kept)


def disbelief_penalty(penalty: int, method: str) -> int:
    """The penalty (a positive size) a disbeliever suffers: halved, rounded down, for willpower."""
    if method not in DISBELIEF_METHODS:
        raise InputError(f"unknown way to disbelieve {method!r}", expected="perception or willpower")
    if penalty < 0:
        raise InputError(f"penalty {penalty} is not valid", expected="0 or more (the size of the penalty)")
    return penalty // 2 if method == "willpower" else penalty
