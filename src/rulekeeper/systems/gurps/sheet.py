"""Reading a character sheet (a mapping of GURPS field names) into a :class:`GurpsCharacter`.

Defaults (seed 004 and the brief's context): attributes 10; HP = ST, FP = HT, Will = Per = IQ;
Basic Speed = (HT + DX) / 4; Basic Move = floor(Basic Speed); current HP/FP = the maxima. Every
bad field raises ``InputError`` naming it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_PARAM_NUMBER
from rulekeeper.systems.gurps.character import ATTACK_KINDS, HIT_LOCATIONS, POSTURES, GurpsCharacter, Weapon
from rulekeeper.systems.gurps.damage_table import parse_damage
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES

__all__ = ["SHEET_FIELDS", "WEAPON_FIELDS", "new_character"]

SHEET_FIELDS: dict[str, str] = {
    "name": "the character's name",
    "st": "Strength (default 10)",
    "dx": "Dexterity (default 10)",
    "iq": "Intelligence (default 10)",
    "ht": "Health (default 10)",
    "hp": "Hit Points (default ST)",
    "fp": "Fatigue Points (default HT)",
    "will": "Will (default IQ)",
    "per": "Perception (default IQ)",
    "basic_speed": "Basic Speed (default (HT + DX) / 4)",
    "basic_move": "Basic Move (default floor(Basic Speed))",
    "current_hp": "HP now (default the maximum)",
    "current_fp": "FP now (default the maximum)",
    "skills": "mapping of skill name to level, e.g. {broadsword: 13}",
    "skill_bases": (
        "mapping of skill name to the attribute it is based on (st, dx, iq, ht, will or per), e.g. "
        "{climbing: dx}; a skill not given one counts as DX- or IQ-based for shock (most are)"
    ),
    "dr": "Damage Resistance (default 0)",
    "carried": "weight carried in lb (default 0)",
    "is_pc": "a player character (default true; NPCs do not use DX in turn-order ties)",
    "weapons": "list of weapons: {name, skill, damage, damage_type, kind, acc, bulk, rof, weight, unbalanced, ...}",
    "shield": "Shield or Cloak skill, for Block",
    "posture": "one of " + ", ".join(POSTURES),
    "dodge_bonus": "Dodge bonus of traits such as Combat Reflexes (default 0)",
    "parry_bonus": "Parry bonus of traits such as Combat Reflexes (default 0)",
    "block_bonus": "Block bonus of traits such as Combat Reflexes (default 0)",
    "lifting_st": "ST for Basic Lift when Lifting ST differs (default ST)",
    "dr_locations": "mapping of hit location to DR where it differs from dr, e.g. {skull: 2}",
}

WEAPON_FIELDS: dict[str, str] = {
    "name": "the weapon's name",
    "skill": "the skill it is used with (default: the name)",
    "damage": "damage such as 2d+1, thr+1 or sw-1 (default thr); empty for a weapon with only an effect",
    "damage_type": "one of " + ", ".join(DAMAGE_TYPES),
    "effect": "what a hit does that rulekeeper does not apply (a grapple's control, an affliction), as printed",
    "kind": "one of " + ", ".join(ATTACK_KINDS),
    "acc": "Accuracy (ranged)",
    "bulk": "Bulk (ranged), e.g. -4",
    "rof": "rate of fire",
    "weight": "weight in lb (thrown weapons of 1 lb or less are parried at -2)",
    "unbalanced": "cannot parry after attacking with it in the same turn",
    "can_parry": "whether it can parry at all (default true for melee)",
    "parry_bonus": "the weapon's Parry modifier: +1 or +2 for long, well-balanced weapons, -1 for poor ones",
    "level": "skill level with this weapon, fixed (default: the skill's level)",
    "level_bonus": "skill level with this weapon relative to its skill's, which it follows (GCS imports)",
    "range": "ranged: Half Damage/Max range in yards, as printed",
    "shots": "ranged: shots before reloading, as printed",
}


def _int(sheet: Mapping[str, Any], key: str, default: int, *, minimum: int | None = None, where: str = "") -> int:
    value = sheet.get(key, default)
    if value is None:
        return default
    return _whole(value, key, minimum=minimum, where=where)


def _whole(value: Any, key: str, *, minimum: int | None = None, where: str = "") -> int:
    """``value`` (the field ``key``) as a whole number, refused by its path otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(f"{key}={value!r} is not a whole number", expected="a whole number", where=where + key)
    if isinstance(value, int):
        out = value  # exact: a float would round a long integer into a different one
    else:
        try:
            number = float(value)
        except ValueError:
            raise InputError(
                f"{key}={value!r} is not a whole number", expected="a whole number", where=where + key
            ) from None
        if not math.isfinite(number) or not number.is_integer():
            raise InputError(f"{key}={value!r} is not a whole number", expected="a whole number", where=where + key)
        out = int(number)
    if abs(out) > MAX_PARAM_NUMBER:
        raise InputError(
            f"{key} is too large", expected=f"a whole number of at most {MAX_PARAM_NUMBER:,}", where=where + key
        )
    if minimum is not None and out < minimum:
        raise InputError(f"{key}={out} is too low", expected=f"at least {minimum}", where=where + key)
    return out


def _float(sheet: Mapping[str, Any], key: str, default: float, *, minimum: float = 0.0, where: str = "") -> float:
    value = sheet.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool):
        raise InputError(f"{key}={value!r} is not a number", expected="a number", where=where + key)
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{key}={value!r} is not a number", expected="a number", where=where + key) from None
    if not math.isfinite(out) or out < minimum or out > MAX_PARAM_NUMBER:
        raise InputError(
            f"{key}={value!r} is out of range",
            expected=f"a number from {minimum:g} to {MAX_PARAM_NUMBER:,}",
            where=where + key,
        )
    return out


def _bool(sheet: Mapping[str, Any], key: str, default: bool, where: str = "") -> bool:
    value = sheet.get(key, default)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise InputError(f"{key}={value!r} is not true or false", expected="true or false", where=where + key)


def _str(sheet: Mapping[str, Any], key: str, default: str, where: str = "") -> str:
    value = sheet.get(key, default)
    if not isinstance(value, str):
        raise InputError(f"{key}={value!r} is not text", expected="text", where=where + key)
    return value


def _weapon(raw: Any, index: int) -> Weapon:
    where = f"weapons[{index}]."
    if not isinstance(raw, Mapping):
        raise InputError(f"weapon #{index + 1} is not a mapping", expected="{name: ..., skill: ...}", where=where[:-1])
    unknown = [k for k in raw if k not in WEAPON_FIELDS]
    if unknown:
        raise InputError(
            f"unknown weapon field {unknown[0]!r}",
            expected="one of " + ", ".join(WEAPON_FIELDS),
            where=where + unknown[0],
        )
    name = _str(raw, "name", "", where).strip()
    if not name:
        raise InputError("a weapon needs a name", expected="text", where=where + "name")
    effect = _str(raw, "effect", "", where).strip()
    damage = _str(raw, "damage", "" if effect else "thr", where).strip()
    if damage:
        parse_damage(damage, 10)  # validates the form; ST is applied when the weapon is used
    elif not effect:
        raise InputError(
            "a weapon without damage needs an effect", expected="damage, or an effect", where=where + "damage"
        )
    damage_type = _str(raw, "damage_type", "cr" if damage else "", where).strip().lower()
    if damage and damage_type not in DAMAGE_TYPES:
        raise InputError(
            f"unknown damage type {damage_type!r}",
            expected="one of " + ", ".join(DAMAGE_TYPES),
            where=where + "damage_type",
        )
    kind = _str(raw, "kind", "melee", where).strip().lower()
    if kind not in ATTACK_KINDS:
        raise InputError(
            f"unknown weapon kind {kind!r}", expected="one of " + ", ".join(ATTACK_KINDS), where=where + "kind"
        )
    ranged = kind in ("missile", "firearm", "beam")
    return Weapon(
        name=name,
        skill=_str(raw, "skill", name, where).strip().lower(),
        damage=damage,
        damage_type=damage_type,
        kind=kind,
        acc=_int(raw, "acc", 0, minimum=0, where=where),
        bulk=-abs(_int(raw, "bulk", 0, where=where)),
        rof=_int(raw, "rof", 1, minimum=1, where=where),
        weight=_float(raw, "weight", 0.0, where=where),
        unbalanced=_bool(raw, "unbalanced", False, where),
        can_parry=_bool(raw, "can_parry", not ranged, where),
        parry_bonus=_int(raw, "parry_bonus", 0, where=where),
        level=None if raw.get("level") is None else _int(raw, "level", 0, minimum=0, where=where),
        level_bonus=_int(raw, "level_bonus", 0, where=where),
        range=_str(raw, "range", "", where),
        shots=_str(raw, "shots", "", where),
        effect=effect,
    )


def _dr_locations(sheet: Mapping[str, Any]) -> dict[str, int]:
    raw = sheet.get("dr_locations") or {}
    if not isinstance(raw, Mapping):
        raise InputError("dr_locations must be a mapping", expected="{location: DR}", where="dr_locations")
    out: dict[str, int] = {}
    for location, value in raw.items():
        key = str(location).strip().lower()
        if key not in HIT_LOCATIONS:
            raise InputError(
                f"unknown hit location {key!r}" if key else "a hit location needs a name",
                expected="one of " + ", ".join(HIT_LOCATIONS),
                where="dr_locations",
            )
        out[key] = _whole(value, key, minimum=0, where="dr_locations.")
    return out


def new_character(sheet: Mapping[str, Any]) -> GurpsCharacter:
    """Build a character from a GURPS sheet mapping, deriving every value the sheet leaves out."""
    if not isinstance(sheet, Mapping):
        raise InputError("a character sheet must be a mapping", expected="{st: 10, dx: 12, ...}")
    aliases = {"pc": "is_pc", "shield_skill": "shield", "hp_now": "current_hp", "fp_now": "current_fp"}
    sheet = {aliases.get(k, k): v for k, v in sheet.items()}
    unknown = [k for k in sheet if k not in SHEET_FIELDS]
    if unknown:
        raise InputError(
            f"unknown sheet field {unknown[0]!r}", expected="one of " + ", ".join(SHEET_FIELDS), where=unknown[0]
        )
    st = _int(sheet, "st", 10, minimum=0)  # ST 0 creatures exist (slimes, skulls)
    dx = _int(sheet, "dx", 10, minimum=1)
    iq = _int(sheet, "iq", 10, minimum=0)  # IQ 0: mindless things
    ht = _int(sheet, "ht", 10, minimum=1)
    # HP 0: an insubstantial being, no body to injure; FP 0: a being that does not tire (both
    # GCS-written creatures; docs/systems/gurps.md "Attributes of 0")
    hp = _int(sheet, "hp", st, minimum=0)
    fp = _int(sheet, "fp", ht, minimum=0)
    basic_speed = _float(sheet, "basic_speed", (ht + dx) / 4)
    basic_move = _int(sheet, "basic_move", math.floor(basic_speed), minimum=0)
    current_hp = _int(sheet, "current_hp", hp)
    current_fp = _int(sheet, "current_fp", fp)
    if current_hp > hp:
        raise InputError(f"current_hp={current_hp} is above HP {hp}", expected=f"at most {hp}", where="current_hp")
    if hp > 0 and current_hp <= -5 * hp:
        raise InputError(f"current_hp={current_hp} is death (-5 x HP)", expected=f"above {-5 * hp}", where="current_hp")
    if not -fp <= current_fp <= fp:
        raise InputError(f"current_fp={current_fp} is out of range", expected=f"from {-fp} to {fp}", where="current_fp")
    raw_skills = sheet.get("skills", {}) or {}
    if not isinstance(raw_skills, Mapping):
        raise InputError("skills must be a mapping", expected="{skill name: level}", where="skills")
    skills: dict[str, int] = {}
    for name, level in raw_skills.items():
        key = str(name).strip().lower()
        if not key:
            raise InputError("a skill needs a name", expected="text", where="skills")
        skills[key] = _whole(level, key, where="skills.")
    skill_bases = _skill_bases(sheet)
    raw_weapons = sheet.get("weapons", ()) or ()
    if isinstance(raw_weapons, (str, Mapping)) or not hasattr(raw_weapons, "__iter__"):
        raise InputError("weapons must be a list", expected="a list of {name, skill, damage, ...}", where="weapons")
    weapons = tuple(_weapon(w, i) for i, w in enumerate(raw_weapons))
    shield = sheet.get("shield")
    posture = _str(sheet, "posture", "standing").strip().lower()
    if posture not in POSTURES:
        raise InputError(f"unknown posture {posture!r}", expected="one of " + ", ".join(POSTURES), where="posture")
    return GurpsCharacter(
        name=_str(sheet, "name", ""),
        st=st,
        dx=dx,
        iq=iq,
        ht=ht,
        hp=hp,
        fp=fp,
        will=_int(sheet, "will", iq, minimum=0),  # Will 0: the mindless
        per=_int(sheet, "per", iq, minimum=1),
        basic_speed=basic_speed,
        basic_move=basic_move,
        current_hp=current_hp,
        current_fp=current_fp,
        skills=skills,
        dr=_int(sheet, "dr", 0, minimum=0),
        carried=_float(sheet, "carried", 0.0),
        is_pc=_bool(sheet, "is_pc", True),
        weapons=weapons,
        shield_skill=None if shield is None else _int(sheet, "shield", 0, minimum=0),
        posture=posture,
        dodge_bonus=_int(sheet, "dodge_bonus", 0),
        parry_bonus=_int(sheet, "parry_bonus", 0),
        block_bonus=_int(sheet, "block_bonus", 0),
        lifting_st=None if sheet.get("lifting_st") is None else _int(sheet, "lifting_st", 0, minimum=0),
        dr_locations=_dr_locations(sheet),
        skill_bases=skill_bases,
    )


_BASES = ("st", "dx", "iq", "ht", "will", "per")


def _skill_bases(sheet: Mapping[str, Any]) -> dict[str, str]:
    raw = sheet.get("skill_bases", {}) or {}
    if not isinstance(raw, Mapping):
        raise InputError("skill_bases must be a mapping", expected="{skill name: dx}", where="skill_bases")
    out: dict[str, str] = {}
    for name, base in raw.items():
        key = str(name).strip().lower()
        value = str(base).strip().lower()
        if not key:
            raise InputError("a skill needs a name", expected="text", where="skill_bases")
        if value not in _BASES:
            raise InputError(
                f"{key} cannot be based on {base!r}", expected="one of " + ", ".join(_BASES), where=f"skill_bases.{key}"
            )
        out[key] = value
    return out
