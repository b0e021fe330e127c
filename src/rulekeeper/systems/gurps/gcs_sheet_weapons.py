"""Derived GCS weapons as entries of a GURPS sheet's ``weapons`` list.

A weapon whose damage rulekeeper cannot apply (no dice, a damage type such as ctrl, cold or an
affliction's "HT-2 or KO") is on the sheet with its level and parry and GCS's damage text as its
``effect``: its hit lands and the GM applies what it does. Names: a natural attack takes its usage ("Bite"), an
item "Item (Usage)"; a repeated name gets " #2".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.character import ATTACK_KINDS
from rulekeeper.systems.gurps.damage_table import parse_damage
from rulekeeper.systems.gurps.gcs_weapons import GcsWeapon
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES

__all__ = ["sheet_weapons"]

_SKILL_KINDS = {"guns": "firearm", "beam weapons": "beam", "thrown weapon": "thrown", "throwing": "thrown"}
_UNARMED = {"brawling", "boxing", "karate", "sumo wrestling", "wrestling", "judo", "dx", "st"}


def _weapon_kind(w: GcsWeapon) -> str:
    skill = w.skill.split(" (")[0]
    if w.ranged:
        if w.range.count("/") == 1 and skill in ("thrown weapon", "throwing", "dx", "st"):
            return "thrown"
        return _SKILL_KINDS.get(skill, "missile")
    if w.owner_kind == "trait" or (skill in _UNARMED and w.usage.lower() in ("punch", "kick", "bite", "claw", "slam")):
        return "unarmed"
    return "melee"


def _rof(text: str) -> int:
    match = re.match(r"\s*(\d+)", text)
    return max(1, int(match.group(1))) if match else 1


def _damage_text(w: GcsWeapon, st: int | None) -> str:
    """Thrust/swing-relative damage ("sw+1") when it reads back as the derived dice for the sheet's
    ST, so a change of ST in play (very tired) or a later ``char edit`` of ST still counts; the
    derived dice otherwise (per-die bonuses, a Striking ST bonus -- ``st`` None --, a damage
    progression other than the engine's, ST below 1)."""
    assert w.dice is not None
    if w.st_based and st is not None:
        try:
            base = parse_damage(w.st_based, st)
        except InputError:
            return str(w.dice)
        adds = w.dice.adds - base.adds
        text = f"{w.st_based}{adds:+d}" if adds else w.st_based
        if base.dice == w.dice.dice and parse_damage(text, st) == w.dice:
            return text
    return str(w.dice)


def sheet_weapons(
    weapons: Sequence[GcsWeapon],
    st: int | None,
    unused: list[str],
    names: dict[str, str],
    skill_of: Callable[[str], int | None] | None = None,
) -> list[dict[str, Any]]:
    """Sheet entries for the usable weapons; ``st`` is the ST damage reads against in play, or None
    when damage is struck with another ST (Striking ST) and must stay as dice. ``skill_of`` is the
    sheet's level for a skill (or attribute) as play reads it: a weapon's level is stored relative
    to it (``level_bonus``), so a later edit of DX or the skill carries through; a fixed ``level``
    only when the sheet cannot read the weapon's skill."""
    out: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for w in weapons:
        label = w.usage if w.owner_kind == "trait" and w.usage else (f"{w.owner} ({w.usage})" if w.usage else w.owner)
        applied = w.dice is not None and (w.dice.dice > 0 or w.dice.adds > 0) and w.damage_type in DAMAGE_TYPES
        seen[label.lower()] = seen.get(label.lower(), 0) + 1
        if seen[label.lower()] > 1:
            label = f"{label} #{seen[label.lower()]}"
        kind = _weapon_kind(w)
        assert kind in ATTACK_KINDS
        skill = w.skill or "dx"
        entry: dict[str, Any] = {"name": label, "skill": skill}
        base = None if skill_of is None else skill_of(skill)
        if base is None:
            entry["level"] = w.level
        elif w.level != base:
            entry["level_bonus"] = w.level - base
        if applied:
            entry.update(damage=_damage_text(w, st), damage_type=w.damage_type, kind=kind)
        else:
            entry.update(damage="", effect=w.damage_text or "no damage", kind=kind)
        if w.ranged:
            entry.update(acc=max(0, w.acc), bulk=w.bulk, rof=_rof(w.rof), range=w.range, shots=w.shots)
        else:
            parry = w.parry or "No"
            if parry == "No":
                entry["can_parry"] = False
            else:
                entry["parry_bonus"] = w.parry_modifier
                entry["unbalanced"] = "U" in parry
        out.append(entry)
        names[w.path] = label
    return out
