"""Importing a character from a GURPS Character Sheet (GCS) file, version 5, as GCS users save it.

Everything is derived from the file's choices, the way GCS derives it: attributes from ``adj``
plus every enabled ``attribute_bonus`` (on traits, their enabled modifiers and equipped
equipment, ``per_level`` times the trait's levels), Basic Lift (B15) from ST with lifting bonuses,
Dodge/Parry/Block bonuses (Combat Reflexes), DR by location from ``dr_bonus``, skill levels,
every weapon (``gcs_weapons``), carried weight (``gcs_equipment``) and encumbrance. GCS's own
computed values (the ``calc`` blocks) are never copied: when present they are compared with what
was derived, and each difference is reported by field ("dodge: derived 9, GCS says 10").

The importer is pure: it takes the parsed JSON. Bad data (an unknown ``version``, a value of the
wrong type) raises ``InputError`` naming the JSON path and the expected form; nothing is returned
half-done. What the sheet cannot use is listed by JSON path in ``GcsImport.unused``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rulekeeper.core.sheet_format import SheetImport
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.character import HIT_LOCATIONS
from rulekeeper.systems.gurps.encumbrance import basic_lift, encumbrance_level
from rulekeeper.systems.gurps.gcs_compare import (
    ATTRIBUTES,
    compare_with_gcs,
    stored_carried,
    stored_skill_levels,
    stored_torso_dr,
)
from rulekeeper.systems.gurps.gcs_damage import PROGRESSIONS, swing_for, thrust_for
from rulekeeper.systems.gurps.gcs_equipment import carried_weight
from rulekeeper.systems.gurps.gcs_features import Features, collect_features, telekinesis_st
from rulekeeper.systems.gurps.gcs_sheet_weapons import sheet_weapons
from rulekeeper.systems.gurps.gcs_skills import GcsSkill, SkillBook, read_skills, skill_level_from_points
from rulekeeper.systems.gurps.gcs_values import (
    as_mapping,
    opt_bool,
    opt_list,
    opt_mapping,
    opt_number,
    opt_str,
)
from rulekeeper.systems.gurps.gcs_weapons import GcsWeapon, WeaponContext, derive_weapons
from rulekeeper.systems.gurps.sheet import new_character

__all__ = [
    "SUPPORTED_VERSIONS",
    "GcsImport",
    "gcs_basic_lift",
    "import_gcs",
    "sheet_from_gcs",
    "skill_level_from_points",
]

SUPPORTED_VERSIONS = (5,)
_SENSES = {"vision": "per", "hearing": "per", "taste_smell": "per", "touch": "per", "fright_check": "will"}
_USED_TOP = {"version", "profile", "attributes", "traits", "skills", "equipment", "settings", "calc"}
_USED_FEATURES = {
    "attribute_bonus",
    "dr_bonus",
    "skill_bonus",
    "weapon_bonus",
    "weapon_effective_st_bonus",
    "weapon_parry_bonus",
    "weapon_block_bonus",
    "contained_weight_reduction",
}
_USED_ATTRIBUTE_BONUS = {*ATTRIBUTES, *_SENSES, "dodge", "parry", "block"}


@dataclass(frozen=True)
class GcsImport:
    """A GURPS sheet mapping, what it left out (by JSON path) and where GCS's stored values differ."""

    sheet: dict[str, Any]
    unused: list[str] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)
    weapons: tuple[GcsWeapon, ...] = ()
    derived: Mapping[str, Any] = field(default_factory=dict)
    weapon_names: Mapping[str, str] = field(default_factory=dict)  # JSON path -> name on the sheet

    def report(self) -> dict[str, list[str]]:
        """What the table is told about the import: fields left out, and GCS's differing values."""
        return {"unused": list(self.unused), "disagreements": list(self.disagreements)}

    def notes(self, source: str) -> list[str]:
        """The report as lines for a person ("<source>: dodge: derived 9, GCS says 10")."""
        return SheetImport(self.sheet, tuple(self.unused), tuple(self.disagreements)).notes(source)


def gcs_basic_lift(st: int) -> float:
    """Basic Lift (B15) as the engine reckons it (:func:`encumbrance.basic_lift`); 0 below ST 1."""
    return basic_lift(st) if st >= 1 else 0.0


# -- attributes ---------------------------------------------------------------------------------
def _read_attributes(data: Mapping[str, Any], unused: list[str]) -> dict[str, Mapping[str, Any]]:
    entries: dict[str, Mapping[str, Any]] = {}
    for i, raw in enumerate(opt_list(data, "attributes", "")):
        path = f"attributes[{i}]"
        entry = as_mapping(raw, path)
        attr_id = opt_str(entry, "attr_id", path).strip().lower()
        if not attr_id:
            raise InputError(
                "an attribute has no attr_id", expected="an attribute id such as st", where=f"{path}.attr_id"
            )
        opt_number(entry, "adj", path)
        opt_number(entry, "damage", path)
        entries[attr_id] = {**entry, "_path": path}
        if attr_id not in ATTRIBUTES and attr_id not in _SENSES:
            unused.append(f"{path} ({attr_id})")
    return entries


def _attributes(entries: Mapping[str, Mapping[str, Any]], features: Features) -> dict[str, float]:
    def adj(attr_id: str) -> float:
        entry = entries.get(attr_id)
        return 0.0 if entry is None else opt_number(entry, "adj", str(entry["_path"]))

    def value(attr_id: str, base: float, *, decimal: bool = False) -> float:
        total = base + adj(attr_id) + features.attribute_bonus(attr_id)
        return total if decimal else float(math.trunc(total))

    out: dict[str, float] = {}
    for attr_id in ("st", "dx", "iq", "ht"):
        out[attr_id] = value(attr_id, 10)
    out["will"] = value("will", out["iq"])
    out["per"] = value("per", out["iq"])
    out["hp"] = value("hp", out["st"])
    out["fp"] = value("fp", out["ht"])
    out["basic_speed"] = value("basic_speed", (out["dx"] + out["ht"]) / 4, decimal=True)
    out["basic_move"] = value("basic_move", math.floor(out["basic_speed"]))
    for sense, base in _SENSES.items():
        out[sense] = value(sense, out[base])
    return out


def _missing_pools(settings: Mapping[str, Any], entries: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """HP or FP 0 for a pool the file's own attribute definitions leave out: GCS gives a sheet the
    attributes its ``settings.attributes`` define, and a creature defined without FP (an undead's
    "FP: N/A") has no fatigue to lose; see "Attributes of 0" in docs/systems/gurps.md."""
    defined = settings.get("attributes")
    if not isinstance(defined, list) or not defined:
        return {}
    ids = {str(d.get("id") or "").lower() for d in defined if isinstance(d, Mapping)}
    return {pool: 0.0 for pool in ("hp", "fp") if pool not in ids and pool not in entries}


# -- the pieces of the sheet ----------------------------------------------------------------------
def _location_bonuses(settings: Mapping[str, Any]) -> dict[str, int]:
    """DR the body type itself gives a location (the skull's bony +2 on a humanoid)."""
    body = opt_mapping(settings, "body_type", "settings")
    out: dict[str, int] = {}
    for i, raw in enumerate(opt_list(body, "locations", "settings.body_type")):
        path = f"settings.body_type.locations[{i}]"
        loc = as_mapping(raw, path)
        loc_id = opt_str(loc, "id", path)
        if loc_id:
            out[loc_id] = int(opt_number(loc, "dr_bonus", path, 0.0))
    return out


def _progression(settings: Mapping[str, Any]) -> str:
    progression = opt_str(settings, "damage_progression", "settings", "basic_set")
    if progression not in PROGRESSIONS:
        raise InputError(
            f"damage progression {progression!r} is not supported",
            expected="one of " + ", ".join(PROGRESSIONS),
            where="settings.damage_progression",
        )
    return progression


def _unused_features(features: Features) -> list[str]:
    out: list[str] = []
    for f in features.items:
        if f.kind not in _USED_FEATURES:
            out.append(f"{f.path} ({f.kind})")
        elif f.kind == "attribute_bonus" and (
            f.data.get("attribute") not in _USED_ATTRIBUTE_BONUS
            or (f.data.get("limitation") or None) not in (None, "striking_only", "lifting_only")
        ):
            out.append(f"{f.path} (attribute_bonus to {f.data.get('attribute')})")
        elif f.kind == "dr_bonus" and str(f.data.get("specialization") or "all").lower() != "all":
            out.append(f"{f.path} (dr_bonus against {f.data.get('specialization')} only)")
    return out


def _skill_levels(book: SkillBook, unused: list[str]) -> tuple[dict[str, int], dict[str, tuple[str, int | None]]]:
    """Sheet skills by name, and every skill's level by JSON path (for the comparison)."""
    skills: dict[str, int] = {}
    report: dict[str, tuple[str, int | None]] = {}
    for skill in book.skills:
        level = book.level(skill)
        report[skill.path] = (skill.key, level)
        reason = _skill_left_out(skill, level)
        if reason:
            unused.append(f"{skill.path} ({skill.name}: {reason})")
            continue
        assert level is not None
        skills[skill.key] = max(skills.get(skill.key, level), level)
    return skills, report


def _skill_left_out(skill: GcsSkill, level: int | None) -> str:
    if skill.is_technique:
        return "techniques are not used"
    if level is None:
        return "no points and no default"
    return ""


def _current_pools(entries: Mapping[str, Mapping[str, Any]], sheet: Mapping[str, Any]) -> dict[str, int]:
    """Current HP and FP from the ``damage`` GCS records on those pools."""
    out: dict[str, int] = {}
    for pool in ("hp", "fp"):
        entry = entries.get(pool)
        if entry is None:
            continue
        lost = opt_number(entry, "damage", str(entry["_path"]))
        if lost != int(lost):
            raise InputError(
                "damage is not whole", expected="a whole number of points lost", where=f"{entry['_path']}.damage"
            )
        if lost:
            out[f"current_{pool}"] = int(sheet[pool]) - int(lost)
    return out


def _skill_lookup(sheet: Mapping[str, Any]) -> Callable[[str], int | None] | None:
    """How play will read a weapon's skill on this sheet (None if the sheet is not one yet)."""
    try:
        return new_character({**sheet, "weapons": []}).skill
    except InputError:
        return None


def _check_version(data: Mapping[str, Any]) -> None:
    version = data.get("version")
    if version is None:
        raise InputError("no version", expected="a GCS character file with version 5", where="version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise InputError(f"version is {version!r}", expected="the whole number 5", where="version")
    if version not in SUPPORTED_VERSIONS:
        raise InputError(
            f"GCS file version {version} is not supported",
            expected="version 5 (open and save the file in a current GCS to update it)",
            where="version",
        )


def import_gcs(data: Mapping[str, Any]) -> GcsImport:
    """Read a GCS character (parsed JSON) into a GURPS sheet mapping, derived from its choices."""
    if not isinstance(data, Mapping):
        raise InputError("a GCS file holds a JSON object", expected="the parsed contents of a .gcs file")
    _check_version(data)
    if not isinstance(data.get("attributes"), list):
        raise InputError(
            "no attribute list" if "attributes" not in data else "attributes is not a list",
            expected="a list of {attr_id, adj}",
            where="attributes",
        )
    unused: list[str] = [key for key in data if key not in _USED_TOP]
    profile = opt_mapping(data, "profile", "")
    unused.extend(f"profile.{key}" for key in profile if key != "name")
    settings = opt_mapping(data, "settings", "")
    progression = _progression(settings)
    entries = _read_attributes(data, unused)
    features = collect_features(data)
    unused.extend(_unused_features(features))
    attrs = _attributes(entries, features)
    attrs.update(_missing_pools(settings, entries))
    st = int(attrs["st"])
    striking_st = st + math.trunc(features.attribute_bonus("st", "striking_only"))
    lifting_st = st + math.trunc(features.attribute_bonus("st", "lifting_only"))
    lift = gcs_basic_lift(lifting_st)
    equipment = opt_list(data, "equipment", "")
    carried = carried_weight(equipment)
    enc = encumbrance_level(carried, lift) if lift > 0 else (0 if carried == 0 else 5)
    book = SkillBook(read_skills(data), attrs, features, min(enc, 4))
    dodge_bonus = math.trunc(features.attribute_bonus("dodge"))
    parry_bonus = math.trunc(features.attribute_bonus("parry"))
    block_bonus = math.trunc(features.attribute_bonus("block"))
    ctx = WeaponContext(
        st=st,
        striking_st=striking_st,
        lifting_st=lifting_st,
        progression=progression,
        parry_bonus=parry_bonus,
        block_bonus=block_bonus,
        encumbrance=min(enc, 4),
        skills=book,
        features=features,
        dice_plus_adds=opt_bool(settings, "use_modifying_dice_plus_adds", "settings", False),
        tk_st=telekinesis_st(data),
        iq=int(attrs["iq"]),
    )
    weapons = derive_weapons(data, ctx)

    skills, skill_report = _skill_levels(book, unused)

    locations = _location_bonuses(settings)
    dr_by_location = {loc: features.dr(loc) + locations.get(loc, 0) for loc in (*HIT_LOCATIONS, *locations)}
    torso_dr = dr_by_location["torso"]
    basic_dodge = math.floor(attrs["basic_speed"]) + 3 + dodge_bonus

    sheet: dict[str, Any] = {key: int(attrs[key]) for key in ATTRIBUTES if key != "basic_speed"}
    sheet["basic_speed"] = attrs["basic_speed"]
    name = opt_str(profile, "name", "profile").strip()
    if name:
        sheet["name"] = name
    sheet.update(_current_pools(entries, sheet))
    shield = max((lv for key, lv in skills.items() if key.split(" (")[0] in ("shield", "cloak")), default=None)
    sheet["skills"] = {k: v for k, v in skills.items() if k.split(" (")[0] not in ("shield", "cloak")}
    # What each skill is based on, for shock on DX- and IQ-based rolls (seed 004, "Shock").
    bases = {s.key: s.attribute.lower() for s in book.skills if s.key in sheet["skills"] and s.attribute}
    bases = {k: v for k, v in bases.items() if v in ("st", "dx", "iq", "ht", "will", "per")}
    if bases:
        sheet["skill_bases"] = bases
    if shield is not None:
        sheet["shield"] = shield
    weapon_names: dict[str, str] = {}
    sheet["weapons"] = sheet_weapons(
        weapons, st if striking_st == st else None, unused, weapon_names, _skill_lookup(sheet)
    )
    sheet["carried"] = round(carried, 4)
    sheet["dr"] = torso_dr
    others = {loc: dr for loc, dr in dr_by_location.items() if dr != torso_dr and loc in HIT_LOCATIONS}
    unused.extend(
        f"settings.body_type ({loc}: DR {dr}, a location rulekeeper does not target)"
        for loc, dr in dr_by_location.items()
        if dr != torso_dr and loc not in HIT_LOCATIONS
    )
    if others:
        sheet["dr_locations"] = others
    for key, value in (("dodge_bonus", dodge_bonus), ("parry_bonus", parry_bonus), ("block_bonus", block_bonus)):
        if value:
            sheet[key] = value
    if lifting_st != st:
        sheet["lifting_st"] = lifting_st

    derived: dict[str, Any] = {
        **attrs,
        "basic_lift": lift,
        "dodge": basic_dodge,
        "thrust": str(thrust_for(striking_st, progression)),
        "swing": str(swing_for(striking_st, progression)),
        "dr": torso_dr,
        "carried": carried,
        "encumbrance_level": enc,
        "gcs_torso_dr": stored_torso_dr(settings),
        "gcs_carried": stored_carried(equipment),
        "gcs_skill_levels": stored_skill_levels(data),
    }
    disagreements = compare_with_gcs(data, entries, derived, weapons, skill_report)
    return GcsImport(sheet, unused, disagreements, tuple(weapons), derived, weapon_names)


def sheet_from_gcs(
    data: Any, overrides: Mapping[str, Any] | None = None, *, system: str = "gurps", source: str = ""
) -> GcsImport:
    """The one way a GCS file becomes a sheet (CLI ``--gcs``, scenario ``gcs:``, the web import).

    ``system`` is the campaign's: only a GURPS campaign takes a GCS file. The imported sheet has
    ``overrides`` (the other fields given beside the file) laid over it. ``source`` (a file name)
    prefixes an import error so the table knows which file it came from.
    """
    if system != "gurps":
        raise InputError(
            f"a GCS file makes a GURPS character, not a {system} one", expected="a GURPS campaign", where="gcs"
        )
    try:
        imported = import_gcs(data)
    except InputError as exc:
        if not source:
            raise
        raise InputError(f"{source}: {exc.message}", expected=exc.expected, where=exc.where) from None
    sheet = {**imported.sheet, **(overrides or {})}
    return replace(imported, sheet=sheet)
