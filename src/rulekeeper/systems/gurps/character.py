"""The GURPS character sheet: attributes, secondary characteristics, skills, weapons, load.

Secondary characteristics are derived by ``new_character`` (seed 004 and the brief's context:
HP = ST, FP = HT, Will = Per = IQ, Basic Speed = (HT + DX) / 4, Basic Move = floor(Basic
Speed)) and stored, so a sheet may override any of them. Everything here is a frozen dataclass
of JSON-friendly values so a state serialises and replays exactly.
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
from rulekeeper.systems.gurps.thresholds import is_reeling, is_very_tired

__all__ = [
    "ATTACK_KINDS",
    "HIT_LOCATIONS",
    "POSTURES",
    "SKILL_DEFAULTS",
    "AimState",
    "EvaluateState",
    "FeintState",
    "GurpsCharacter",
    "IncomingAttack",
    "TurnState",
    "Weapon",
    "half_round_up",
]

#: Skill defaults the seed gives: skill name -> (attribute, modifier).
SKILL_DEFAULTS: Mapping[str, tuple[str, int]] = {
    "climbing": ("dx", -5),  # seed 004, "Climbing"
    "hiking": ("ht", -5),  # seed 004, "Hiking"
}

#: What an attack is, for the defenses allowed against it (seed 004, "Dodging", "Blocking", "Perry").
ATTACK_KINDS = ("melee", "unarmed", "thrown", "missile", "firearm", "beam")
RANGED_KINDS = ("thrown", "missile", "firearm", "beam")

#: Hit locations an attack may target and a sheet's ``dr_locations`` may name.
HIT_LOCATIONS = ("torso", "skull", "face", "neck", "vitals", "groin", "arm", "leg", "hand", "foot", "eye")

#: Postures of the Change Posture maneuver.
POSTURES = ("standing", "sitting", "kneeling", "crawling", "prone", "face up")


def half_round_up(value: int) -> int:
    """Halve, rounding up (reeling and very tired halve Move, Dodge and ST this way)."""
    return -(-value // 2)


@dataclass(frozen=True)
class Weapon:
    """A weapon on the sheet: the skill it is used with and what the combat rules need of it.

    ``damage`` is GURPS dice text ("2d+1", or "sw+2"/"thr" relative to ST), ``damage_type``
    one of cr, cut, imp, pi-, pi, pi+, pi++, burn, cor, tox, fat. ``kind`` is one of
    ``ATTACK_KINDS``. ``acc`` and ``bulk`` serve ranged attacks (Bulk as the book prints it,
    e.g. -4). ``unbalanced`` weapons cannot parry after attacking in the same turn.
    """

    name: str
    skill: str
    damage: str = "thr"
    damage_type: str = "cr"
    kind: str = "melee"
    acc: int = 0
    bulk: int = 0
    rof: int = 1
    weight: float = 0.0
    unbalanced: bool = False
    can_parry: bool = True
    parry_bonus: int = 0
    level: int | None = None  # a fixed skill level with this weapon, else the skill's level
    level_bonus: int = 0  # added to the skill's level (GCS imports: defaults, minimum ST, bonuses)
    range: str = ""  # ranged: "Half Damage/Max" in yards, as the sheet prints it
    shots: str = ""
    # What a hit does that rulekeeper does not apply (GCS: a grapple's "ctrl", an affliction's
    # "HT-2 or KO", a breath of "cold"); with no ``damage`` the hit lands and the GM applies it.
    effect: str = ""

    @property
    def ranged(self) -> bool:
        return self.kind in RANGED_KINDS


@dataclass(frozen=True)
class AimState:
    """Turns of Aim so far at one target with one weapon; ``turn`` is the last Aim turn's number."""

    weapon: str
    target: str
    turns: int
    turn: int


@dataclass(frozen=True)
class EvaluateState:
    """Consecutive Evaluates of one opponent (bonus up to +3); ``turn`` is the last one's number."""

    target: str
    bonus: int
    turn: int


@dataclass(frozen=True)
class FeintState:
    """A won Feint: ``margin`` comes off ``target``'s defense against attacks in turn ``applies_turn``."""

    target: str
    margin: int
    applies_turn: int


@dataclass(frozen=True)
class TurnState:
    """The maneuver a character chose on their last turn and what it allows until their next.

    ``number`` counts the character's turns in this fight.
    """

    number: int = 0
    maneuver: str | None = None
    option: str | None = None
    defense: str | None = None
    weapon: str | None = None
    target: str | None = None
    trigger: str | None = None
    wait_action: str | None = None
    task: str | None = None
    attacks_allowed: int = 0
    attacks_made: int = 0
    block_used: bool = False
    attacked_with: tuple[str, ...] = ()
    aim: AimState | None = None
    evaluate: EvaluateState | None = None
    feint: FeintState | None = None


@dataclass(frozen=True)
class IncomingAttack:
    """A successful attack roll waiting for the defender's ``defend`` action."""

    id: int
    attacker: str
    weapon: str
    kind: str
    damage: str
    damage_type: str
    hits: int = 1
    defense_penalty: int = 0
    small_thrown: bool = False
    dr: int | None = None
    location: str = "torso"
    damage_roll: int | None = None
    effect: str = ""  # a weapon with only an effect: what its hit does (the GM applies it)
    half_damage: bool = False  # a ranged attack from 1/2D range or farther: its damage is halved


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
    posture: str = "standing"
    dodge_bonus: int = 0  # Dodge, Parry and Block bonuses of traits such as Combat Reflexes
    parry_bonus: int = 0
    block_bonus: int = 0
    lifting_st: int | None = None  # ST for Basic Lift when Lifting ST differs
    dr_locations: Mapping[str, int] = field(default_factory=dict)  # DR where it differs from ``dr``
    dead: bool = False
    turn: TurnState = field(default_factory=TurnState)
    #: The attribute each skill is based on ("climbing": "dx"), where the sheet or GCS gives it.
    skill_bases: Mapping[str, str] = field(default_factory=dict)
    incoming: tuple[IncomingAttack, ...] = ()

    # -- load -----------------------------------------------------------------------------
    @property
    def basic_lift(self) -> float:
        return basic_lift(self.st if self.lifting_st is None else self.lifting_st)

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
        """Less than 1/3 of HP left (seed 004, "General Damage")."""
        return is_reeling(self.hp, self.current_hp)

    @property
    def very_tired(self) -> bool:
        """Less than 1/3 of FP left (seed 004, "Lost Fatigue Points"; the brief reads "less than")."""
        return is_very_tired(self.fp, self.current_fp)

    # -- movement and defence ---------------------------------------------------------------
    @property
    def encumbered_move(self) -> int:
        """Basic Move x the encumbrance factor, fractions dropped, at least 1 (0 when overloaded)."""
        return encumbered_move(self.basic_move, self.encumbrance_level)

    @property
    def move(self) -> int:
        """Move after encumbrance, then halved (round up) for reeling and again for very tired.

        The seed says low-FP effects are cumulative; we read reeling and very tired as two
        separate halvings. An overloaded character has Move 0.
        """
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
        """Basic Speed + 3, fractions dropped (seed 004, "Dodging"), plus a trait's Dodge bonus."""
        return math.floor(self.basic_speed) + 3 + self.dodge_bonus

    @property
    def encumbered_dodge(self) -> int:
        return encumbered_dodge(self.basic_dodge, self.encumbrance_level)

    @property
    def dodge(self) -> int:
        """Dodge less encumbrance (min 1), halved (round up) for reeling and for very tired."""
        dodge = self.encumbered_dodge
        if self.reeling:
            dodge = half_round_up(dodge)
        if self.very_tired:
            dodge = half_round_up(dodge)
        return max(1, dodge)

    @property
    def effective_st(self) -> int:
        """ST halved (round up) while very tired; HP and damage stay on the full ST."""
        return half_round_up(self.st) if self.very_tired else self.st

    def parry(self, skill_name: str, parry_bonus: int = 0) -> int | None:
        """Parry with a weapon skill: 3 + floor(skill / 2), plus a balanced weapon's bonus and a
        trait's Parry bonus."""
        return self.parry_at(self.skill(skill_name), parry_bonus)

    def parry_at(self, level: int | None, parry_bonus: int = 0) -> int | None:
        """Parry for a skill level (None: no skill, no parry), by the one formula above."""
        if level is None:
            return None
        return 3 + level // 2 + parry_bonus + self.parry_bonus

    def weapon_level(self, weapon: Weapon) -> int | None:
        """Skill level with a weapon: its own fixed level when the sheet gives one, else its skill's
        now plus the weapon's ``level_bonus`` (never below 0, as GCS reckons it), so an edit of the
        skill or attribute carries through."""
        if weapon.level is not None:
            return weapon.level
        level = self.skill(weapon.skill)
        if level is None or not weapon.level_bonus:
            return level
        return max(0, level + weapon.level_bonus)

    def weapon_parry(self, weapon: Weapon) -> int | None:
        """Parry with a weapon: :meth:`parry_at` its level, with its Parry modifier."""
        return self.parry_at(self.weapon_level(weapon), weapon.parry_bonus)

    def dr_at(self, location: str) -> int:
        """DR at a hit location: the location's own when the sheet gives one, else ``dr``."""
        return self.dr_locations.get(location, self.dr)

    @property
    def block(self) -> int | None:
        """Block with Shield (or Cloak) skill: 3 + floor(skill / 2)."""
        if self.shield_skill is None:
            return None
        return 3 + self.shield_skill // 2 + self.block_bonus

    @property
    def weapon_parries(self) -> dict[str, int]:
        """Parry for each weapon skill on the sheet (every weapon's skill, plus skills of weapons)."""
        out: dict[str, int] = {}
        for w in self.weapons:
            if not w.can_parry or w.ranged:
                continue
            level = self.weapon_parry(w)
            if level is not None:
                out[w.name.lower()] = level
        return out

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
        if key in ("shield", "cloak") and self.shield_skill is not None:
            return self.shield_skill
        if key in ("dx", "st", "iq", "ht", "will", "per"):
            return self.attribute(key)
        default = SKILL_DEFAULTS.get(key)
        if default is not None:
            attr, mod = default
            return self.attribute(attr) + mod
        return None

    def skill_base(self, name: str) -> str | None:
        """The attribute a skill is based on: the sheet's word, else the seed's default for it
        (Climbing DX, Hiking HT), else None (unknown)."""
        key = name.strip().lower()
        if key in self.skill_bases:
            return self.skill_bases[key]
        default = SKILL_DEFAULTS.get(key)
        return default[0] if default is not None else None

    def weapon(self, name: str) -> Weapon | None:
        key = name.strip().lower()
        for w in self.weapons:
            if w.name.lower() == key:
                return w
        return None
