"""Damage to a KS and US pair: points come off the US first, then off the KS (seed 001, VIII.1).

Pure functions over :class:`Character`; the stateful side (states at zero, the fatality
countdown, explanations) is in :mod:`.effects`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import KS_NAMES, Character

__all__ = ["DAMAGE_KINDS", "StatChange", "choose_us", "split_damage", "take_damage"]

# Which KS each kind of damage may land on (VIII.1): physical on BU or CO, mental on IN or EM;
# other damage (poison, disease, burns, magic) names its own stats.
DAMAGE_KINDS: Mapping[str, tuple[str, ...]] = {
    "physical": ("BU", "CO"),
    "mental": ("IN", "EM"),
    "other": KS_NAMES,
}


@dataclass(frozen=True)
class StatChange:
    """One stat moved from ``before`` to ``after``; ``secret`` marks an unknown stat."""

    stat: str
    before: int
    after: int
    secret: bool

    def render(self) -> str:
        return f"{self.stat} {self.before} → {self.after}"


def split_damage(us_current: int, ks_current: int, amount: int) -> tuple[int, int]:
    """``(us, ks)`` after ``amount`` damage: the US absorbs what it can down to 0, the KS the rest."""
    from_us = min(max(us_current, 0), amount)
    return us_current - from_us, ks_current - (amount - from_us)


def choose_us(character: Character, ks: str, us: str | None) -> str | None:
    """The US paired with ``ks``: the one named, or the only one declared, or none if none is declared."""
    declared = character.us_of(ks)
    if us is not None:
        name = us.strip().upper()
        if name not in declared:
            choices = ", ".join(declared) or "none"
            raise InputError(f"{name} is not an unknown stat of {ks}", expected=f"one of: {choices}", where="us")
        return name
    if len(declared) > 1:
        raise InputError(
            f"{ks} has several unknown stats; name the one hit",
            expected="us: one of " + ", ".join(declared),
            where="us",
        )
    return declared[0] if declared else None


def take_damage(character: Character, ks: str, us: str | None, amount: int) -> tuple[Character, tuple[StatChange, ...]]:
    """The character after ``amount`` damage to the ``ks``/``us`` pair, and the stats that moved."""
    ks_before = character.ks[ks].current
    us_before = character.us[us].current if us else 0
    us_after, ks_after = split_damage(us_before, ks_before, amount)
    changes: list[StatChange] = []
    new_us = dict(character.us)
    if us and us_after != us_before:
        new_us[us] = replace(character.us[us], current=us_after)
        changes.append(StatChange(us, us_before, us_after, secret=True))
    new_ks = dict(character.ks)
    if ks_after != ks_before:
        new_ks[ks] = replace(character.ks[ks], current=ks_after)
        changes.append(StatChange(ks, ks_before, ks_after, secret=False))
    return replace(character, ks=new_ks, us=new_us), tuple(changes)
