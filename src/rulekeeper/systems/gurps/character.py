"""The GURPS character sheet: attributes, secondary characteristics, skills, weapons, load.

Secondary characteristics are derived by :func:`new_character` (seed 004 and the brief's
context: HP = ST, FP = HT, Will = Per = IQ, Basic Speed = (HT + DX) / 4, Basic Move =
floor(Basic Speed)) and stored, so a sheet may override any of them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from rulekeeper.systems.gurps.encumbrance import (
    OVERLOADED,
    basic_lift,
    encumbered_dodge,
    encumbered_move,
    encumbrance_level,
)

__all__ = ["SKILL_DEFAULTS", "GurpsCharacter", "Weapon", "half_round_up"]

#: Skill defaults the seed gives: skill name -> (attribute, modifier).
SKILL_DEFAULTS: Mapping[str, tuple[str, int]] = {
    "climbing": ("dx", -5),  # seed 004, "Climbing"
    "hiking": ("ht", -5),  # seed 004, "Hiking"
}


def half_round_up(value: int) -> int:
    """Halve, rounding up (reeling and very tired halve Move, Dodge and ST this way)."""
    return -(-value // 2)


@dataclass(frozen=True)
class Weapon:
    """A weapon on the sheet: the skill it is used with and what the combat rules need of it.

    ``damage`` is GURPS dice text ("2d+1", or "sw+2"/"thr" relative to ST), ``damage_type`` one
    of cr, cut, imp, pi-, pi, pi+, pi++, burn, ... ``acc`` and ``bulk`` serve ranged attacks;
    ``unbalanced`` weapons cannot parry after attacking in the same turn; ``kind`` is
    "melee", "ranged" or "thrown".
    """

    name: str
    skill: str
    damage: str = "thr"
    damage_type: str = "cr"
    kind: str = "melee"
    acc: int = 0
    bulk: int = 0
    rof: int = 1
    unbalanced: bool = False
    can_parry: bool = True
    parry_bonus: int = 0
    beam: bool = False


@dataclass(frozen=True)
class GurpsCharacter:
    """One character. Maxima (hp, fp, will, per, basic_speed, basic_move) are stored, not derived
    on the fly, so a sheet may override them; current HP and FP are tracked separately."""

    name: str
    st: int
    dx: int
    iq: int
    ht: int
    hp: int
    fp: int
    will: int
    per: int
    basic_speed: float
    basic_move: int
    current_hp: int
    current_fp: int
    skills: Mapping[str, int] = field(default_factory=dict)
    dr: int = 0
    carried: float = 0.0
    is_pc: bool = True
    weapons: tuple[Weapon, ...] = ()
    shield_skill: int | None = None  # Shield or Cloak skill, for Block
    shield_db: int = 0  # a shield's Defense Bonus adds to every active defense
    dead: bool = False

    # -- load -----------------------------------------------------------------------------
    @property
    def basic_lift(self) -> float:
        return basic_lift(self.st)

    @property
    def encumbrance_level(self) -> int:
        """0-4; 5 (``OVERLOADED``) means the load is over 10 x BL and the character cannot move."""
        return encumbrance_level(self.carried, self.basic_lift)

    @property
    def overloaded(self) -> bool:
        return self.encumbrance_level >= OVERLOADED

    # -- injury and fatigue states ----------------------------------------------------------
    @property
    def reeling(self) -> bool:
        """Less than 1/3 of HP left (seed 004, "General Injury", B419)."""
        return self.current_hp * 3 < self.hp

    @property
    def very_tired(self) -> bool:
        """Less than 1/3 of FP left (seed 004, "Lost Fatigue Points"; the brief reads "less than")."""
        return self.current_fp * 3 < self.fp

    # -- movement and defence ---------------------------------------------------------------
    @property
    def encumbered_move(self) -> int:
        return encumbered_move(self.basic_move, self.encumbrance_level)

    @property
    def move(self) -> int:
        """Move after encumbrance, then halved (round up) once each for reeling and very tired."""
        move = self.encumbered_move
        if move == 0:
            return 0
        if self.reeling:
            move = half_round_up(move)
        if self.very_tired:
            move = half_round_up(move)
        return max(1, move)

    @property
    def basic_dodge(self) -> int:
        return math.floor(self.basic_speed) + 3

    @property
    def dodge(self) -> int:
        """Basic Speed + 3, less encumbrance (min 1), halved for reeling / very tired."""
        dodge = encumbered_dodge(self.basic_dodge, self.encumbrance_level)
        if self.reeling:
            dodge = half_round_up(dodge)
        if self.very_tired:
            dodge = half_round_up(dodge)
        return max(1, dodge)

    @property
    def effective_st(self) -> int:
        """ST halved (round up) while very tired; HP and damage stay on the full ST."""
        return half_round_up(self.st) if self.very_tired else self.st

    def parry(self, skill_name: str) -> int | None:
        """Parry with a weapon skill: 3 + floor(skill / 2), plus a shield's DB."""
        level = self.skill(skill_name)
        if level is None:
            return None
        return 3 + level // 2 + self.shield_db

    @property
    def block(self) -> int | None:
        """Block with Shield (or Cloak) skill: 3 + floor(skill / 2), plus the shield's DB."""
        if self.shield_skill is None:
            return None
        return 3 + self.shield_skill // 2 + self.shield_db

    # -- skills -----------------------------------------------------------------------------
    def attribute(self, name: str) -> int:
        return {
            "st": self.st,
            "dx": self.dx,
            "iq": self.iq,
            "ht": self.ht,
            "will": self.will,
            "per": self.per,
        }[name]

    def skill(self, name: str) -> int | None:
        """A skill's level: the sheet's, else the seed's default, else None (no default)."""
        key = name.strip().lower()
        if key in self.skills:
            return self.skills[key]
        if key == "shield" and self.shield_skill is not None:
            return self.shield_skill
        default = SKILL_DEFAULTS.get(key)
        if default is not None:
            attr, mod = default
            return self.attribute(attr) + mod
        return None

    def weapon(self, name: str) -> Weapon | None:
        key = name.strip().lower()
        for w in self.weapons:
            if w.name.lower() == key:
                return w
        return None
