"""Comparing a derived sheet with the values GCS computed and stored in the file (``calc`` blocks).

GCS's values are never used for the sheet: each difference is reported by field, as
``dodge: derived 9, GCS says 10``, so a GM sees where rulekeeper and GCS part ways.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulekeeper.systems.gurps.gcs_features import walk_items
from rulekeeper.systems.gurps.gcs_values import opt_list, parse_weight
from rulekeeper.systems.gurps.gcs_weapons import GcsWeapon

__all__ = ["ATTRIBUTES", "compare_with_gcs", "stored_carried", "stored_skill_levels", "stored_torso_dr"]

ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move")
_ATTRS = ATTRIBUTES


def _differ(out: list[str], label: str, derived: Any, stored: Any) -> None:
    if derived != stored:
        out.append(f"{label}: derived {derived}, GCS says {stored}")


def compare_with_gcs(
    data: Mapping[str, Any],
    entries: Mapping[str, Mapping[str, Any]],
    derived: Mapping[str, Any],
    weapons: Sequence[GcsWeapon],
    skills: Mapping[str, tuple[str, int | None]],
) -> list[str]:
    out: list[str] = []
    for attr_id in _ATTRS:
        entry = entries.get(attr_id)
        calc = entry.get("calc") if entry else None
        if isinstance(calc, Mapping) and isinstance(calc.get("value"), (int, float)):
            _differ(out, attr_id, _num(derived[attr_id]), _num(calc["value"]))
    calc = data.get("calc")
    if isinstance(calc, Mapping):
        if isinstance(calc.get("basic_lift"), (str, int, float)):
            stored = parse_weight(calc["basic_lift"], "calc.basic_lift")
            _differ(out, "basic_lift", _num(derived["basic_lift"]), _num(stored))
        dodge = calc.get("dodge")
        if isinstance(dodge, list) and dodge and isinstance(dodge[0], (int, float)):
            _differ(out, "dodge", derived["dodge"], dodge[0])
        for key in ("thrust", "swing"):
            if isinstance(calc.get(key), str):
                _differ(out, key, derived[key], calc[key])
    torso = derived.get("gcs_torso_dr")
    if torso is not None:
        _differ(out, "dr (torso)", derived["dr"], torso)
    stored_weight = derived.get("gcs_carried")
    if stored_weight is not None:
        _differ(out, "carried", _num(round(derived["carried"], 4)), _num(round(stored_weight, 4)))
    for path, (label, level) in skills.items():
        stored_level = derived["gcs_skill_levels"].get(path)
        if stored_level is not None:
            _differ(out, f"{path} ({label}) level", level, stored_level)
    for w in weapons:
        name = f"{w.path} ({w.owner}{' ' + w.usage if w.usage else ''})"
        if isinstance(w.calc.get("level"), (int, float)):
            _differ(out, f"{name} level", w.level, _num(w.calc["level"]))
        if isinstance(w.calc.get("damage"), str):
            _differ(out, f"{name} damage", w.damage_text, w.calc["damage"].strip())
        if isinstance(w.calc.get("parry"), str) and w.parry is not None:
            _differ(out, f"{name} parry", w.parry, w.calc["parry"])
    return out


def _num(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def stored_torso_dr(settings: Mapping[str, Any]) -> int | None:
    body = settings.get("body_type")
    if not isinstance(body, Mapping):
        return None
    for loc in body.get("locations") or []:
        if isinstance(loc, Mapping) and loc.get("id") == "torso":
            dr = (loc.get("calc") or {}).get("dr") if isinstance(loc.get("calc"), Mapping) else None
            if isinstance(dr, Mapping) and isinstance(dr.get("all"), (int, float)):
                return int(dr["all"])
    return None


def stored_carried(equipment: Sequence[Any]) -> float | None:
    total = 0.0
    for raw in equipment:
        calc = raw.get("calc") if isinstance(raw, Mapping) else None
        if not isinstance(calc, Mapping) or "extended_weight" not in calc:
            return None
        total += parse_weight(calc["extended_weight"], "calc.extended_weight")
    return total


def stored_skill_levels(data: Mapping[str, Any]) -> dict[str, int]:
    """GCS's level of each skill by JSON path (0 means GCS could not use it)."""
    out: dict[str, int] = {}
    for path, item, _ in walk_items(opt_list(data, "skills", ""), "skills"):
        calc = item.get("calc")
        if isinstance(calc, Mapping) and isinstance(calc.get("level"), (int, float)) and calc["level"] > 0:
            out[path] = int(calc["level"])
    return out
