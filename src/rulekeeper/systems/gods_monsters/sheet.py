"""Reading a character sheet: the system's own field names, defaults derived, each bad field named.

Sheet fields (all optional):

* ``name``; the abilities ``strength agility endurance wisdom intelligence charisma`` and the
  reactions ``evasion fortitude perception reason willpower health`` (whole numbers, default 10);
* ``archetype`` (warrior, thief, sorceror, prophet, monk, or empty), ``level`` (default 1);
* ``survival`` / ``max_survival`` and ``verve`` / ``max_verve`` (each defaults to the other, and
  to 0 when neither is given for a player character);
* ``injuries``, ``unhealable_injuries``, ``mojo``, ``movement`` (default 10), ``age`` (default 20),
  ``size`` (default medium), ``fields`` (a mapping of field name to bonus);
* ``is_npc``; for NPCs ``survival_bonus`` (per-die bonus) and ``survival_dice`` (e.g. ``4d8``).

NPC defaults (seed 000, "Non-player characters"): no verve; endurance 10 + level/2 (+ per-die
bonus) when not given; survival dice d6 per level (d10 for warriors) when survival is not given,
rolled later (see :mod:`.npc`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.dice import parse
from rulekeeper.errors import DiceError, InputError
from rulekeeper.systems.gods_monsters.character import ARCHETYPES, SCORES, GmCharacter
from rulekeeper.systems.gods_monsters.npc import estimated_endurance, survival_dice

__all__ = ["SHEET_FIELDS", "SIZES", "new_character"]

# Creature sizes, smallest to largest (seed 002 "Actions and consequences: Jumping" names them).
SIZES: tuple[str, ...] = ("fine", "tiny", "small", "medium", "large", "huge", "gigantic", "titanic")

_INT_FIELDS: dict[str, tuple[int, int]] = {
    **{score: (0, 99) for score in SCORES},
    "level": (0, 99),
    "survival": (0, 100_000),
    "max_survival": (0, 100_000),
    "verve": (0, 100_000),
    "max_verve": (0, 100_000),
    "injuries": (0, 10_000),
    "unhealable_injuries": (0, 10_000),
    "mojo": (0, 1_000_000),
    "movement": (0, 10_000),
    "age": (0, 100_000),
    "survival_bonus": (-99, 99),
}
SHEET_FIELDS: tuple[str, ...] = (
    "name",
    *_INT_FIELDS,
    "archetype",
    "is_npc",
    "size",
    "fields",
    "survival_dice",
)


def _int(sheet: Mapping[str, Any], key: str) -> int | None:
    if key not in sheet or sheet[key] is None:
        return None
    value = sheet[key]
    low, high = _INT_FIELDS[key]
    expected = f"a whole number from {low} to {high}"
    if isinstance(value, bool) or not isinstance(value, (int, str, float)):
        raise InputError(f"{key}={value!r} is not a whole number", expected=expected, where=f"field {key}")
    try:
        number = int(value.strip()) if isinstance(value, str) else int(value)
    except (ValueError, OverflowError):
        raise InputError(f"{key}={value!r} is not a whole number", expected=expected, where=f"field {key}") from None
    if isinstance(value, float) and not value.is_integer():
        raise InputError(f"{key}={value!r} is not a whole number", expected=expected, where=f"field {key}")
    if not low <= number <= high:
        raise InputError(f"{key}={number} is out of range", expected=expected, where=f"field {key}")
    return number


def _choice(sheet: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = sheet.get(key, default)
    text = "" if value is None else str(value).strip().lower()
    if text not in choices:
        shown = ", ".join(c or '""' for c in choices)
        raise InputError(f"{key}={value!r} is not known", expected=f"one of {shown}", where=f"field {key}")
    return text


def _bool(sheet: Mapping[str, Any], key: str) -> bool:
    value = sheet.get(key, False)
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off", ""):
        return False
    raise InputError(f"{key}={value!r} is not true or false", expected="true or false", where=f"field {key}")


def _fields(sheet: Mapping[str, Any]) -> dict[str, int]:
    raw = sheet.get("fields") or {}
    if not isinstance(raw, Mapping):
        raise InputError("fields must map field names to bonuses", expected="e.g. {falling: 2}", where="field fields")
    out: dict[str, int] = {}
    for name, bonus in raw.items():
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"field name {name!r} is not text", expected="a field name", where="field fields")
        if isinstance(bonus, bool) or not isinstance(bonus, int):
            raise InputError(
                f"bonus of field {name!r} is {bonus!r}", expected="a whole-number bonus", where=f"field fields.{name}"
            )
        out[name.strip().lower()] = bonus
    return out


def new_character(sheet: Mapping[str, Any]) -> GmCharacter:
    """Build a :class:`GmCharacter` from a sheet; raises ``InputError`` naming the bad field."""
    if not isinstance(sheet, Mapping):
        raise InputError("a character sheet must be a mapping of field names to values", expected="a mapping")
    unknown = [k for k in sheet if k not in SHEET_FIELDS]
    if unknown:
        raise InputError(
            f"unknown field {unknown[0]!r}",
            expected="fields: " + ", ".join(SHEET_FIELDS),
            where=f"field {unknown[0]}",
        )
    ints = {key: _int(sheet, key) for key in _INT_FIELDS}
    is_npc = _bool(sheet, "is_npc")
    archetype = _choice(sheet, "archetype", ARCHETYPES, "")
    level = ints["level"] if ints["level"] is not None else 1
    bonus = ints["survival_bonus"] or 0
    survival, max_survival = ints["survival"], ints["max_survival"]
    dice = str(sheet.get("survival_dice") or "").strip().lower()
    if dice:
        if not is_npc:
            raise InputError("only NPCs roll survival dice", expected="is_npc: true", where="field survival_dice")
        try:
            dice = str(parse(dice))
        except DiceError as exc:
            raise InputError(
                f"cannot read survival dice {dice!r}: {exc.message}",
                expected=exc.expected or "dice such as 4d8+4",
                where="field survival_dice",
            ) from None
    if survival is None and max_survival is None:
        # A player character's survival comes from character creation, outside these seeds:
        # without it the sheet holds none (0), which the view shows plainly.
        if is_npc:
            dice = dice or survival_dice(level, archetype, bonus)
        survival = max_survival = 0
    else:
        if dice:
            raise InputError("give survival or survival_dice, not both", where="field survival_dice")
        survival = survival if survival is not None else max_survival
        max_survival = max_survival if max_survival is not None else survival
    assert survival is not None and max_survival is not None
    if survival > max_survival:
        raise InputError(
            f"survival {survival} is above max_survival {max_survival}",
            expected=f"at most {max_survival}",
            where="field survival",
        )
    verve, max_verve = ints["verve"], ints["max_verve"]
    if is_npc and (verve or max_verve):
        raise InputError(
            "NPCs have no verve (seed 000, Non-player characters)", expected="0 or nothing", where="field verve"
        )
    verve = verve if verve is not None else (max_verve or 0)
    max_verve = max_verve if max_verve is not None else verve
    if verve > max_verve:
        raise InputError(
            f"verve {verve} is above max_verve {max_verve}", expected=f"at most {max_verve}", where="field verve"
        )
    injuries = ints["injuries"] or 0
    unhealable = ints["unhealable_injuries"] or 0
    if unhealable > injuries:
        raise InputError(
            f"unhealable_injuries {unhealable} is more than injuries {injuries}",
            expected="at most the injury total (unhealable injuries are counted in injuries)",
            where="field unhealable_injuries",
        )
    scores: dict[str, int] = {}
    for score in SCORES:
        given = ints[score]
        scores[score] = given if given is not None else 10
    if ints["endurance"] is None and is_npc:
        scores["endurance"] = estimated_endurance(level, bonus)
    name = sheet.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"name={name!r} is not text", expected="text", where="field name")
    return GmCharacter(
        name=name,
        strength=scores["strength"],
        agility=scores["agility"],
        endurance=scores["endurance"],
        wisdom=scores["wisdom"],
        intelligence=scores["intelligence"],
        charisma=scores["charisma"],
        evasion=scores["evasion"],
        fortitude=scores["fortitude"],
        perception=scores["perception"],
        reason=scores["reason"],
        willpower=scores["willpower"],
        health=scores["health"],
        archetype=archetype,
        level=level,
        survival=survival,
        max_survival=max_survival,
        verve=verve,
        max_verve=max_verve,
        injuries=injuries,
        unhealable_injuries=unhealable,
        mojo=ints["mojo"] or 0,
        movement=ints["movement"] if ints["movement"] is not None else 10,
        fields=_fields(sheet),
        is_npc=is_npc,
        age=ints["age"] if ints["age"] is not None else 20,
        size=_choice(sheet, "size", SIZES, "medium"),
        survival_bonus=bonus,
        survival_dice=dice,
    )
