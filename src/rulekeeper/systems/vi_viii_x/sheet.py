"""Reading a VI·VIII·X character sheet, naming every field that is wrong.

Sheet fields (every stat 1–10; a stat is a number, or ``{original: 6, current: 4}``)::

    name: Ranger
    BU: 6          # the four known stats, required (bu, co, in, em also accepted)
    CO: 5
    IN: 4
    EM: {original: 5, current: 3}
    us:            # unknown stats: VIG sits under BU (the one pairing the brief confirms);
      VIG: 3       # every other US names its KS
      REF: {ks: CO, value: 4, current: 2}
    es:            # exclusive skills, each resting on a declared US
      stamina: {us: VIG, level: 3}
      education-literature: {us: MEM, level: 5, language: common}
    som: 5         # state of mind 1–10 (default 5)
    burden: none   # none, light, medium, heavy, full, overloaded
    agility: 7     # for jumping (layer unconfirmed)
    age: 30        # years; magic_weeks: weeks already added by magical healing
    mov: 10        # base movement; actions: actions per turn (default 1)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import KS_NAMES, Burden, Character, Score, Skill, UnknownStat

__all__ = ["KNOWN_US_KS", "SHEET_FIELDS", "normalize_skill", "parse_sheet"]

# The only US whose KS the brief confirms (rules brief, "Context": BU -> Vigor).
KNOWN_US_KS: Mapping[str, str] = {"VIG": "BU"}

SHEET_FIELDS: tuple[str, ...] = (
    "name",
    *KS_NAMES,
    "us",
    "es",
    "som",
    "burden",
    "agility",
    "age",
    "magic_weeks",
    "mov",
    "actions",
)
# Lower-cased US names become view keys, so none may clash with another key of the view.
_RESERVED = {name.lower() for name in SHEET_FIELDS} | {
    "actor",
    "ailments",
    "conditions",
    "effort",
    "fatalities",
    "fatigue",
    "injured",
    "literacy",
    "lowered",
    "regimen",
    "skills",
}
_US_NAME = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")
_SKILL_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
_STAT_RANGE = (1, 10)


def normalize_skill(name: str) -> str:
    """``Body Control`` and ``body_control`` both name the skill ``body-control``."""
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def _int(value: Any, where: str, lo: int, hi: int | None = None) -> int:
    expected = f"a whole number from {lo} to {hi}" if hi is not None else f"a whole number of at least {lo}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{value!r} is not a whole number", expected=expected, where=where)
    if value < lo or (hi is not None and value > hi):
        raise InputError(f"{value} is out of range", expected=expected, where=where)
    return value


def _mapping(value: Any, where: str, expected: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{value!r} is not a mapping", expected=expected, where=where)
    return value


def _only(raw: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise InputError(f"unknown field {key!r}", expected="fields " + ", ".join(allowed), where=where)


def _score(value: Any, where: str, *, lowest_current: int) -> tuple[int, int]:
    """An original and current value; the current one may be lowered but never above the original."""
    if isinstance(value, Mapping):
        _only(value, ("original", "current"), where)
        if "original" not in value:
            raise InputError("missing original", expected="original: 1 to 10", where=where)
        original = _int(value["original"], f"{where}.original", *_STAT_RANGE)
        current = _int(value.get("current", original), f"{where}.current", lowest_current, original)
        return original, current
    original = _int(value, where, *_STAT_RANGE)
    return original, original


def _known_stats(sheet: Mapping[str, Any]) -> dict[str, Score]:
    out: dict[str, Score] = {}
    for name in KS_NAMES:
        keys = [k for k in (name, name.lower()) if k in sheet]
        if not keys:
            raise InputError(f"missing known stat {name}", expected=f"{name}: 1 to 10", where=f"field {name}")
        if len(keys) > 1:
            raise InputError(f"{name} is given twice", expected=f"one {name} field", where=f"field {name}")
        original, current = _score(sheet[keys[0]], f"field {name}", lowest_current=1)
        out[name] = Score(original=original, current=current)
    return out


def _unknown_stats(raw: Any) -> dict[str, UnknownStat]:
    expected = "a mapping such as {VIG: 3, REF: {ks: CO, value: 4}}"
    out: dict[str, UnknownStat] = {}
    for key, value in _mapping(raw, "field us", expected).items():
        name = str(key).upper()
        where = f"field us.{key}"
        if not _US_NAME.match(name) or name in KS_NAMES or name.lower() in _RESERVED:
            raise InputError(
                f"{key!r} cannot name an unknown stat",
                expected="2-8 letters or digits starting with a letter, not a KS or sheet field name",
                where=where,
            )
        if name in out:
            raise InputError(f"unknown stat {name} is declared twice", expected="each US once", where=where)
        if isinstance(value, Mapping):
            _only(value, ("ks", "value", "original", "current"), where)
            ks = str(value.get("ks", KNOWN_US_KS.get(name, ""))).upper()
            if ks not in KS_NAMES:
                raise InputError(f"US {name} needs its known stat", expected="ks: BU, CO, IN or EM", where=where)
            if name in KNOWN_US_KS and ks != KNOWN_US_KS[name]:
                raise InputError(
                    f"{name} belongs to {KNOWN_US_KS[name]}", expected=f"ks: {KNOWN_US_KS[name]}", where=where
                )
            if "value" in value and "original" in value:
                raise InputError("both value and original given", expected="one of value or original", where=where)
            score = {"original": value.get("value", value.get("original"))}
            if "current" in value:
                score["current"] = value["current"]
            original, current = _score(score, where, lowest_current=0)
        else:
            if name not in KNOWN_US_KS:
                raise InputError(
                    f"the sheet must say which known stat {name} belongs to",
                    expected=f"{name}: {{ks: CO, value: 4}}",
                    where=where,
                )
            ks = KNOWN_US_KS[name]
            original, current = _score(value, where, lowest_current=0)
        out[name] = UnknownStat(ks=ks, original=original, current=current)
    return out


def _skills(raw: Any, us: Mapping[str, UnknownStat]) -> dict[str, Skill]:
    out: dict[str, Skill] = {}
    expected = "a mapping such as {stamina: {us: VIG, level: 3}}"
    for key, value in _mapping(raw, "field es", expected).items():
        name = normalize_skill(str(key))
        where = f"field es.{key}"
        if not _SKILL_NAME.match(name):
            raise InputError(f"{key!r} cannot name a skill", expected="words such as body-control", where=where)
        entry = _mapping(value, where, "{us: VIG, level: 3}")
        _only(entry, ("us", "level", "language"), where)
        tied = str(entry.get("us", "")).upper()
        if tied not in us:
            declared = ", ".join(us) or "none declared"
            raise InputError(
                f"skill {name} must rest on a declared unknown stat",
                expected=f"us: one of {declared}",
                where=where,
            )
        level = _int(entry.get("level", 1), f"{where}.level", *_STAT_RANGE)
        language = entry.get("language")
        if language is not None and (not isinstance(language, str) or not language.strip()):
            raise InputError(f"language {language!r}", expected="the language's name", where=where)
        out[name] = Skill(us=tied, level=level, language=language.strip() if language else None)
    return out


def _burden(value: Any) -> Burden:
    try:
        return Burden(str(value).strip().lower())
    except ValueError:
        raise InputError(
            f"burden {value!r}", expected="one of " + ", ".join(b.value for b in Burden), where="field burden"
        ) from None


def parse_sheet(sheet: Mapping[str, Any]) -> Character:
    """A :class:`Character` from sheet fields; raises ``InputError`` naming the first bad field."""
    if not isinstance(sheet, Mapping):
        raise InputError("a sheet must be a mapping of fields", expected="fields " + ", ".join(SHEET_FIELDS))
    allowed = {f.lower() for f in SHEET_FIELDS}
    for key in sheet:
        if str(key).lower() not in allowed or (str(key).upper() not in KS_NAMES and key != str(key).lower()):
            raise InputError(
                f"unknown field {key!r}", expected="fields " + ", ".join(SHEET_FIELDS), where=f"field {key}"
            )
    name = sheet.get("name", "")
    if not isinstance(name, str):
        raise InputError(f"name {name!r}", expected="text", where="field name")
    us = _unknown_stats(sheet.get("us") or {})
    ks = _known_stats(sheet)
    optional_int = {"agility": (0, 30), "age": (0, 10_000), "mov": (0, 1000)}
    extras: dict[str, int | None] = {
        key: (None if sheet.get(key) is None else _int(sheet[key], f"field {key}", lo, hi))
        for key, (lo, hi) in optional_int.items()
    }
    return Character(
        name=name,
        ks=ks,
        us=us,
        es=_skills(sheet.get("es") or {}, us),
        som=_int(sheet.get("som", 5), "field som", 1, 10),
        burden=_burden(sheet.get("burden", "none")),
        agility=extras["agility"],
        age=extras["age"],
        magic_weeks=_int(sheet.get("magic_weeks", 0), "field magic_weeks", 0),
        mov=extras["mov"],
        actions=_int(sheet.get("actions", 1), "field actions", 1, 20),
    )
