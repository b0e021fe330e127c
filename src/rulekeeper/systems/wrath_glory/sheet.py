"""Reading a character sheet (a mapping of Wrath & Glory field names) into a character.

Each bad field raises ``InputError`` naming the field and the form expected; derived values
(Resilience, Max Wounds, Max Shock) are computed, never stored, unless Resilience is overridden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter
from rulekeeper.systems.wrath_glory.memorable_injuries import MEMORABLE_INJURIES, MemorableInjury, memorable_row_by_name
from rulekeeper.systems.wrath_glory.traumatic_injuries import TraumaticInjury, parse_injury_label

__all__ = ["SHEET_FIELDS", "new_character"]

# name -> (minimum, maximum or None, default, help)
_INT_FIELDS: dict[str, tuple[int, int | None, int | None, str]] = {
    "tier": (1, 5, 1, "the campaign's power Tier"),
    "rank": (1, 5, 1, "the character's Rank"),
    "toughness": (1, None, None, "Toughness attribute"),
    "willpower": (1, None, None, "Willpower attribute"),
    "intellect": (1, None, 1, "Intellect attribute"),
    "agility": (1, None, None, "Agility attribute (Initiative; Defence is Initiative - 1)"),
    "medicae": (0, None, 0, "Medicae skill rating"),
    "armour": (0, None, 0, "armour rating"),
    "resilience": (0, None, None, "Resilience, replacing Toughness + 1 + armour"),
    "wounds": (0, None, 0, "current Wounds"),
    "shock": (0, None, 0, "current Shock"),
    "wrath": (0, None, 2, "current Wrath points"),
}
_LIST_FIELDS = {
    "memorable_injuries": "Memorable Injuries by name, e.g. Battle Scar or Missing Fingers",
    "traumatic_injuries": "Traumatic Injuries such as 'left hand', 'torso' or 'right eye (replaced)'",
}
SHEET_FIELDS: dict[str, str] = {
    **{name: spec[3] for name, spec in _INT_FIELDS.items()},
    **_LIST_FIELDS,
    "name": "the character's name",
}
_REQUIRED = ("toughness", "willpower")


def _int_field(sheet: Mapping[str, Any], name: str) -> int | None:
    low, high, default, _ = _INT_FIELDS[name]
    raw = sheet.get(name)
    bounds = f"a whole number of at least {low}" + (f" and at most {high}" if high is not None else "")
    where = f"field {name}"
    if raw is None:
        if name in _REQUIRED:
            raise InputError(f"the sheet needs {name}", expected=bounds, where=where)
        return default
    if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
        raise InputError(f"{name}={raw!r} is not a whole number", expected=bounds, where=where)
    try:
        value = int(raw.strip()) if isinstance(raw, str) else int(raw)
    except (TypeError, ValueError):
        raise InputError(f"{name}={raw!r} is not a whole number", expected=bounds, where=where) from None
    if value < low or (high is not None and value > high):
        raise InputError(f"{name}={value} is out of range", expected=bounds, where=where)
    return value


def _names(sheet: Mapping[str, Any], name: str) -> tuple[str, ...]:
    raw = sheet.get(name)
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [part for part in raw.split(",") if part.strip()]
    if not isinstance(raw, (list, tuple)) or not all(isinstance(item, str) for item in raw):
        raise InputError(f"{name} must be a list of names", expected=_LIST_FIELDS[name], where=f"field {name}")
    return tuple(raw)


def _memorable(sheet: Mapping[str, Any]) -> tuple[MemorableInjury, ...]:
    out: list[MemorableInjury] = []
    for text in _names(sheet, "memorable_injuries"):
        found = memorable_row_by_name(text)
        where = "field memorable_injuries"
        if found is None:
            names = ", ".join(f"{r.name} / {r.escalation}" for r in MEMORABLE_INJURIES)
            raise InputError(f"unknown Memorable Injury {text!r}", expected=f"one of {names}", where=where)
        row, escalated = found
        if any(i.key == row.key for i in out):
            raise InputError(
                f"{row.name} is listed twice",
                expected=f"each row once; an escalated {row.name} is written {row.escalation}",
                where=where,
            )
        out.append(MemorableInjury(key=row.key, escalated=escalated))
    return tuple(out)


def _traumatic(sheet: Mapping[str, Any]) -> tuple[TraumaticInjury, ...]:
    out: list[TraumaticInjury] = []
    for text in _names(sheet, "traumatic_injuries"):
        injury = parse_injury_label(text)
        if injury is None:
            raise InputError(
                f"cannot read Traumatic Injury {text!r}",
                expected=_LIST_FIELDS["traumatic_injuries"],
                where="field traumatic_injuries",
            )
        out.append(injury)
    return tuple(out)


def new_character(sheet: Mapping[str, Any]) -> WrathGloryCharacter:
    """A character from sheet fields named as in :data:`SHEET_FIELDS`."""
    if not isinstance(sheet, Mapping):
        raise InputError("a character sheet must be a mapping of field names to values", expected="a mapping")
    unknown = sorted(str(k) for k in sheet if k not in SHEET_FIELDS)
    if unknown:
        raise InputError(
            f"unknown sheet field {unknown[0]!r}",
            expected="fields " + ", ".join(SHEET_FIELDS),
            where=f"field {unknown[0]}",
        )
    ints = {name: _int_field(sheet, name) for name in _INT_FIELDS}
    name = sheet.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"name={name!r} is not text", expected="text", where="field name")

    def required(field: str) -> int:
        value = ints[field]
        assert value is not None  # tier, rank, ... all have defaults or are required
        return value

    return WrathGloryCharacter(
        tier=required("tier"),
        rank=required("rank"),
        toughness=required("toughness"),
        willpower=required("willpower"),
        intellect=required("intellect"),
        medicae=required("medicae"),
        armour=required("armour"),
        resilience_override=ints["resilience"],
        wounds=required("wounds"),
        shock=required("shock"),
        wrath=required("wrath"),
        memorable_injuries=_memorable(sheet),
        traumatic_injuries=_traumatic(sheet),
        name=name,
        agility=ints["agility"],
    )
