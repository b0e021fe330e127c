"""Importing a character from GURPS Character Sheet (GCS) JSON, the ``.gcs`` file format.

What is read (GCS 5.x layout; older files with the same keys work too):

* ``profile.name``;
* ``attributes``: each ``{attr_id, adj, damage?, calc?}`` for st, dx, iq, ht, will, per, hp, fp,
  basic_speed and basic_move. GCS stores each as an adjustment over its base (HP over ST, Will
  over IQ, Basic Move over floor(Basic Speed), ...); ``calc.value`` is used when present, and
  ``damage`` (HP or FP lost) gives current HP/FP;
* ``skills`` (containers included): name (with specialization in parentheses), level from
  ``calc.level``, else from ``points`` and ``difficulty`` (``"dx/a"``) by the 4e cost table;
  a skill named Shield or Cloak becomes the Block skill;
* ``equipment`` (containers included): carried weight (``weight`` x ``quantity``, units lb, kg,
  oz, g), melee and ranged weapons (damage, type, skill by their defaults, Acc, Bulk, RoF,
  unbalanced parry "U", parry bonus), and torso DR from ``dr_bonus`` features of equipped items.

Everything else -- traits, spells, notes, other equipment, settings, unknown attributes -- is
returned by name in the list of unused fields, never dropped silently.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from rulekeeper.errors import InputError

__all__ = ["import_gcs", "skill_level_from_points"]

_ATTRS = ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move")
_USED_TOP = {"attributes", "skills", "equipment", "profile"}
_DIFFICULTY = {"e": 0, "a": -1, "h": -2, "vh": -3}
_UNITS = {"lb": 1.0, "lbs": 1.0, "#": 1.0, "kg": 2.0, "oz": 1 / 16, "g": 0.002, "tn": 2000.0, "t": 2205.0}
_WEIGHT = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([a-z#]*)\s*$")
_DAMAGE_TYPES = {"cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "tox", "fat"}


def skill_level_from_points(attribute: int, difficulty: str, points: int) -> int | None:
    """Skill level for points spent (GURPS 4e cost table): 1 pt = attribute + difficulty offset,
    2 pts +1, 4 pts +2, then +1 per further 4 pts. None for 0 points (the skill is not known)."""
    if points <= 0:
        return None
    offset = _DIFFICULTY.get(difficulty, -1)
    if points == 1:
        bonus = 0
    elif points < 4:
        bonus = 1
    else:
        bonus = 1 + points // 4
    return attribute + offset + bonus


def _weight(text: Any) -> float:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    match = _WEIGHT.match(str(text).lower())
    if not match:
        raise InputError(f"cannot read weight {text!r}", expected="a weight such as '3 lb' or '1.5 kg'", where="weight")
    unit = match.group(2) or "lb"
    if unit not in _UNITS:
        raise InputError(f"unknown weight unit {unit!r}", expected="lb, kg, oz, g or tn", where="weight")
    return float(match.group(1)) * _UNITS[unit]


def _walk(items: Any, path: str) -> Iterable[tuple[str, Mapping[str, Any]]]:
    if not isinstance(items, list):
        return
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            continue
        here = f"{path}[{i}]"
        yield here, item
        yield from _walk(item.get("children"), f"{here}.children")


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(float(str(value).strip().lstrip("+")))
    except (TypeError, ValueError):
        return default


def _attributes(data: Mapping[str, Any], unused: list[str]) -> dict[str, Any]:
    raw = {str(a.get("attr_id", "")).lower(): a for a in data.get("attributes") or [] if isinstance(a, Mapping)}
    for attr_id in raw:
        if attr_id not in _ATTRS:
            unused.append(f"attributes.{attr_id}")

    def value(attr_id: str, base: float) -> float:
        entry = raw.get(attr_id)
        if entry is None:
            return base
        calc = entry.get("calc")
        if isinstance(calc, Mapping) and "value" in calc:
            return float(calc["value"])
        return base + float(entry.get("adj", 0) or 0)

    st = int(value("st", 10))
    dx = int(value("dx", 10))
    iq = int(value("iq", 10))
    ht = int(value("ht", 10))
    speed = value("basic_speed", (dx + ht) / 4)
    sheet: dict[str, Any] = {
        "st": st,
        "dx": dx,
        "iq": iq,
        "ht": ht,
        "will": int(value("will", iq)),
        "per": int(value("per", iq)),
        "hp": int(value("hp", st)),
        "fp": int(value("fp", ht)),
        "basic_speed": speed,
        "basic_move": int(value("basic_move", math.floor(speed))),
    }
    for pool in ("hp", "fp"):
        entry = raw.get(pool)
        if entry is not None:
            lost = _int(entry.get("damage", 0))
            if lost:
                sheet[f"current_{pool}"] = sheet[pool] - lost
    return sheet


def _skills(data: Mapping[str, Any], sheet: Mapping[str, Any], unused: list[str]) -> dict[str, int]:
    skills: dict[str, int] = {}
    for path, item in _walk(data.get("skills"), "skills"):
        kind = str(item.get("type", "skill"))
        if kind.endswith("_container"):
            continue
        name = str(item.get("name", "")).strip()
        if not name:
            unused.append(f"{path} (no name)")
            continue
        if kind == "technique":
            unused.append(f"{path} ({name}: techniques are not used)")
            continue
        spec = str(item.get("specialization", "") or "").strip()
        key = (f"{name} ({spec})" if spec else name).lower()
        calc = item.get("calc")
        level: int | None = None
        if isinstance(calc, Mapping) and "level" in calc:
            level = _int(calc["level"])
        else:
            attr, _, diff = str(item.get("difficulty", "dx/a")).lower().partition("/")
            base = sheet.get(attr)
            if isinstance(base, int):
                level = skill_level_from_points(base, diff, _int(item.get("points", 0)))
        if level is None:
            unused.append(f"{path} ({name}: no level and no points)")
            continue
        skills[key] = level
        if name.lower() not in skills:
            skills.setdefault(name.lower(), level)
    return skills


def _weapon_skill(weapon: Mapping[str, Any], skills: Mapping[str, int]) -> str | None:
    best: tuple[int, str] | None = None
    for default in weapon.get("defaults") or []:
        if not isinstance(default, Mapping) or default.get("type") != "skill":
            continue
        name = str(default.get("name", "")).strip()
        spec = str(default.get("specialization", "") or "").strip()
        for key in (f"{name} ({spec})".lower() if spec else None, name.lower()):
            if key and key in skills and (best is None or skills[key] > best[0]):
                best = (skills[key], key)
    return best[1] if best else None


def _damage(weapon: Mapping[str, Any]) -> tuple[str, str]:
    dmg = weapon.get("damage")
    if isinstance(dmg, Mapping):
        base = str(dmg.get("base", "") or "").strip()
        st = str(dmg.get("st", "") or "").strip().lower()
        kind = str(dmg.get("type", "cr") or "cr").strip().lower()
        if st in ("thr", "sw"):
            adds = _int(base) if base else 0
            text = f"{st}{adds:+d}" if adds else st
        else:
            text = base or "0"
        return text, kind
    text = str(dmg or "")
    parts = text.split()
    return (parts[0] if parts else "0"), (parts[1].lower() if len(parts) > 1 else "cr")


def _equipment(
    data: Mapping[str, Any], skills: Mapping[str, int], unused: list[str]
) -> tuple[float, list[dict[str, Any]], int]:
    carried = 0.0
    weapons: list[dict[str, Any]] = []
    dr = 0
    top = data.get("equipment")

    def visit(items: Any, path: str, multiplier: float) -> None:
        nonlocal carried, dr
        if not isinstance(items, list):
            return
        for i, item in enumerate(items):
            if not isinstance(item, Mapping):
                continue
            here = f"{path}[{i}]"
            name = str(item.get("description", item.get("name", "")) or here)
            quantity = float(item.get("quantity", 1) or 0)
            try:
                carried += _weight(item.get("weight", 0) or 0) * quantity * multiplier
            except InputError as exc:
                unused.append(f"{here}.weight ({name}: {exc.message})")
            equipped = item.get("equipped", True) is not False
            for feature in item.get("features") or []:
                if not isinstance(feature, Mapping):
                    continue
                locations = feature.get("locations") or [feature.get("location")]
                if feature.get("type") == "dr_bonus" and equipped and ("torso" in locations or "all" in locations):
                    dr += _int(feature.get("amount", 0))
                else:
                    unused.append(f"{here}.features ({name}: {feature.get('type')})")
            for j, weapon in enumerate(item.get("weapons") or []):
                converted = _weapon(weapon, name, skills, f"{here}.weapons[{j}]", unused)
                if converted is not None:
                    weapons.append(converted)
            visit(item.get("children"), f"{here}.children", multiplier * max(quantity, 0))

    visit(top, "equipment", 1.0)
    return carried, weapons, dr


def _weapon(
    weapon: Any, item_name: str, skills: Mapping[str, int], path: str, unused: list[str]
) -> dict[str, Any] | None:
    if not isinstance(weapon, Mapping):
        return None
    usage = str(weapon.get("usage", "") or "").strip()
    name = f"{item_name} ({usage})" if usage else item_name
    skill = _weapon_skill(weapon, skills)
    if skill is None:
        unused.append(f"{path} ({name}: no skill on the sheet matches its defaults)")
        return None
    damage, damage_type = _damage(weapon)
    if damage_type not in _DAMAGE_TYPES:
        unused.append(f"{path} ({name}: damage type {damage_type!r})")
        damage_type = "cr"
    out: dict[str, Any] = {"name": name, "skill": skill, "damage": damage, "damage_type": damage_type}
    if weapon.get("type") == "ranged_weapon":
        out["kind"] = "missile"
        out["acc"] = max(0, _int(str(weapon.get("accuracy", "0")).split("+")[0]))
        out["bulk"] = _int(weapon.get("bulk", 0))
        out["rof"] = max(1, _int(str(weapon.get("rate_of_fire", "1")).split("x")[0], 1))
    else:
        parry = str(weapon.get("parry", "") or "").strip().lower()
        if parry in ("no", "-", ""):
            out["can_parry"] = False
        else:
            out["unbalanced"] = "u" in parry
            out["parry_bonus"] = max(0, _int(parry.rstrip("uf"), 0))
    return out


def import_gcs(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Read a GCS character (parsed JSON) into a GURPS sheet mapping, and list what it left out."""
    if not isinstance(data, Mapping):
        raise InputError("a GCS file holds a JSON object", expected="the parsed contents of a .gcs file")
    if "attributes" not in data:
        raise InputError("no attributes in this GCS data", expected="a GCS character sheet", where="attributes")
    unused = [key for key in data if key not in _USED_TOP]
    profile = data.get("profile") if isinstance(data.get("profile"), Mapping) else {}
    assert isinstance(profile, Mapping)
    unused.extend(f"profile.{key}" for key in profile if key != "name")
    sheet = _attributes(data, unused)
    if profile.get("name"):
        sheet["name"] = str(profile["name"])
    skills = _skills(data, sheet, unused)
    carried, weapons, dr = _equipment(data, skills, unused)
    shield = max((level for name, level in skills.items() if name.split(" (")[0] in ("shield", "cloak")), default=None)
    sheet["skills"] = {k: v for k, v in skills.items() if k.split(" (")[0] not in ("shield", "cloak")}
    if shield is not None:
        sheet["shield"] = shield
    sheet["weapons"] = weapons
    sheet["carried"] = round(carried, 4)
    if dr:
        sheet["dr"] = dr
    return sheet, unused
