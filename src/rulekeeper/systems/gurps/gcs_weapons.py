"""Weapons from a GCS file: every melee and ranged weapon of enabled traits (natural attacks such
as Bite, Claws, Punch, Kick), of skills and of equipped equipment, with the level, damage, parry
and block GCS would show.

GCS 5 has no weapon ``type`` key: a ranged weapon is the one with ranged fields (``range``,
``accuracy``, ``rate_of_fire``, ``shots``, ``bulk``, ``recoil``) or an id starting with "W"
(melee ids start with "w"). Level: the best of the weapon's defaults (an attribute, capped at 20,
or a skill, each plus its modifier), less 1 per point of ST under the weapon's minimum, plus
``skill_bonus`` features naming the weapon or ``this_weapon``; never below 0. Damage: thrust or
swing for the striking ST plus the weapon's base, ``modifier_per_die`` and ``weapon_bonus``
features (a per-die bonus times the dice). Parry and Block: 3 + half the level (rounded down) +
the weapon's modifier + Dodge/Parry/Block bonuses of traits (Combat Reflexes).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice
from rulekeeper.systems.gurps.gcs_damage import add_dice, adds_to_dice, parse_gcs_dice, swing_for, thrust_for
from rulekeeper.systems.gurps.gcs_features import Feature, Features, enabled_traits, equipped_equipment, walk_items
from rulekeeper.systems.gurps.gcs_match import number_matches, tags_match, text_matches
from rulekeeper.systems.gurps.gcs_skills import SkillBook
from rulekeeper.systems.gurps.gcs_values import (
    as_mapping,
    criterion_text,
    opt_list,
    opt_mapping,
    opt_number,
    opt_str,
    read_default,
    signed_number,
)

__all__ = ["GcsWeapon", "WeaponContext", "derive_weapons", "is_ranged"]

RANGED_FIELDS = ("range", "accuracy", "rate_of_fire", "shots", "bulk", "recoil")
_LEADING_INT = re.compile(r"^\s*([+-]?\d+)")
_FIREARM_SKILLS = {"guns", "gunner", "liquid projector"}


def is_ranged(weapon: Mapping[str, Any]) -> bool:
    """GCS 5 tells ranged from melee by the fields present and by the id's first letter."""
    if any(key in weapon for key in RANGED_FIELDS):
        return True
    return str(weapon.get("id") or "").startswith("W")


@dataclass(frozen=True)
class WeaponContext:
    """What a weapon's numbers depend on, derived from the rest of the sheet."""

    st: int
    striking_st: int
    lifting_st: int
    progression: str
    parry_bonus: int
    block_bonus: int
    encumbrance: int
    skills: SkillBook
    features: Features
    dice_plus_adds: bool = False
    tk_st: int = 0  # the ST of Telekinesis, for ``tk_thr``/``tk_sw`` damage
    iq: int = 10  # for ``iq_thr``/``iq_sw`` damage


@dataclass(frozen=True)
class GcsWeapon:
    """One weapon as derived, with GCS's stored ``calc`` beside it for comparison."""

    path: str
    owner: str
    owner_kind: str  # trait, skill or equipment
    usage: str
    ranged: bool
    level: int
    skill: str  # the default it is used with: a skill name, or an attribute such as "dx"
    dice: DamageDice | None
    damage_type: str
    armor_divisor: str
    parry: str | None  # as GCS prints it: "11", "10U", "9F", "No"; None for ranged weapons
    block: str | None
    acc: int
    range: str
    rof: str
    shots: str
    bulk: int
    calc: Mapping[str, Any]
    parry_modifier: int = 0  # the weapon's own Parry modifier (0, -1, +2 ...)
    st_based: str = ""  # "thr" or "sw" when the damage grows with the wielder's ST
    fragmentation: str = ""  # as GCS prints it after the damage: "[2d tox]", "[2d(0.5) cut]"

    @property
    def damage_text(self) -> str:
        """Damage as GCS prints it ("1d+2 cr", "1d+1(2) pi")."""
        dice = "" if self.dice is None or (self.dice.dice == 0 and self.dice.adds == 0) else str(self.dice)
        text = f"{dice}{self.armor_divisor}"
        return " ".join(part for part in (text, self.damage_type, self.fragmentation) if part)


@dataclass(frozen=True)
class _Site:
    """One weapon entry with what its owner (trait, skill or item) lends it."""

    weapon: Mapping[str, Any]
    path: str
    owner: str
    owner_path: str
    owner_level: float
    usage: str
    tags: tuple[str, ...]
    defaults: tuple[Mapping[str, Any], ...]
    ranged: bool

    def named(self, f: Feature) -> bool:
        """A ``weapons_with_name`` feature naming this weapon (by owner name, usage and tags)."""
        return (
            text_matches(f.data.get("name"), self.owner)
            and text_matches(f.data.get("specialization"), self.usage)
            and tags_match(f.data.get("tags"), self.tags)
        )

    def this(self, f: Feature) -> bool:
        """A ``this_weapon`` feature of this weapon's own owner, for this usage."""
        return f.owner_path == self.owner_path and text_matches(f.data.get("specialization"), self.usage)


def _min_st(weapon: Mapping[str, Any], path: str) -> int:
    text = opt_str(weapon, "strength", path)
    match = _LEADING_INT.match(text)
    return int(match.group(1)) if match else 0


def _best_skill_default(ctx: WeaponContext, defaults: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    best: tuple[float, str, str] | None = None
    for default in defaults:
        if str(default.get("type")) != "skill":
            continue
        level = ctx.skills.default_level(default, require_points=False, rule_of_20=True)
        if level is not None and (best is None or level > best[0]):
            best = (level, criterion_text(default.get("name")), criterion_text(default.get("specialization")))
    return None if best is None else (best[1], best[2])


def _rsl(ctx: WeaponContext, name: str, specialization: str) -> int:
    rsl = 0
    for skill in ctx.skills.named(name, specialization, require_points=True):
        relative = ctx.skills.relative(skill)
        if relative is not None and relative > rsl:
            rsl = relative
    return rsl


def _defaults(weapon: Mapping[str, Any], path: str, replacements: Mapping[str, str]) -> tuple[Mapping[str, Any], ...]:
    """The weapon's defaults with the owner's ``@name@`` placeholders filled in."""
    out: list[Mapping[str, Any]] = []
    for i, raw in enumerate(opt_list(weapon, "defaults", path)):
        default = read_default(raw, f"{path}.defaults[{i}]")
        for key in ("name", "specialization"):
            if isinstance(default.get(key), str):
                default[key] = _replace(default[key], replacements)
        out.append(default)
    return tuple(out)


def _replace(text: str, replacements: Mapping[str, str]) -> str:
    return re.sub(r"@([^@]+)@", lambda m: replacements.get(m.group(1), m.group(0)), text)


def _level(ctx: WeaponContext, w: _Site, parry_text: str) -> tuple[int, str]:
    adj = 0.0
    muscle = w.ranged and "x" in opt_str(w.weapon, "range", w.path).lower()
    st = ctx.striking_st if (not w.ranged or muscle) else ctx.lifting_st
    shortfall = _min_st(w.weapon, w.path) - st
    if shortfall > 0:
        adj -= shortfall
    for f in ctx.features.of("skill_bonus"):
        selection = str(f.data.get("selection_type") or "")
        if (selection == "weapons_with_name" and w.named(f)) or (selection == "this_weapon" and w.this(f)):
            adj += f.amount
    if not w.ranged and "f" in parry_text.lower():
        adj -= ctx.encumbrance  # fencing weapons are hampered by encumbrance (B404)
    best: tuple[float, str] | None = None
    for default in w.defaults:
        level = ctx.skills.default_level(default, require_points=False, rule_of_20=True)
        if level is None:
            continue
        kind = str(default.get("type") or "")
        if kind == "skill":
            spec = criterion_text(default.get("specialization"))
            name = criterion_text(default.get("name"))
            label = f"{name} ({spec})" if spec else name
        else:
            label = kind
        if best is None or level + adj > best[0]:
            best = (level + adj, label.lower())
    if best is None:
        return 0, ""
    return max(0, math.trunc(best[0])), best[1]


def _applies(ctx: WeaponContext, w: _Site, f: Feature) -> bool:
    """Whether a weapon feature (damage, effective ST, Parry or Block bonus) selects this weapon."""
    selection = str(f.data.get("selection_type") or "")
    if selection == "weapons_with_required_skill":
        best = _best_skill_default(ctx, w.defaults)
        if best is None:
            return False
        name, spec = best
        return (
            text_matches(f.data.get("name"), name)
            and text_matches(f.data.get("specialization"), spec)
            and number_matches(f.data.get("level"), _rsl(ctx, name, spec))
            and text_matches(f.data.get("usage"), w.usage)
            and tags_match(f.data.get("tags"), w.tags)
        )
    if selection == "weapons_with_name":
        return w.named(f)
    if selection == "this_weapon":
        return w.this(f)
    return False


def _weapon_bonus(ctx: WeaponContext, w: _Site, dice: int, kind: str = "weapon_bonus") -> int:
    """The sum of a kind of weapon feature for this weapon (per die ones times ``dice``)."""
    total = 0.0
    for f in ctx.features.of(kind):
        if not _applies(ctx, w, f) or f.data.get("percent"):
            continue
        amount = f.amount
        if f.data.get("per_die"):
            amount *= dice
        total += amount
    return math.trunc(total)


def _damage(ctx: WeaponContext, w: _Site) -> tuple[DamageDice | None, str, str]:
    dpath = f"{w.path}.damage"
    level_of_owner = w.owner_level
    damage = opt_mapping(w.weapon, "damage", w.path)
    kind = opt_str(damage, "type", dpath).strip()
    st_kind = opt_str(damage, "st", dpath).strip().lower()
    dice: DamageDice | None = None
    if st_kind and st_kind != "none":
        dice = _st_damage(ctx, w, st_kind, damage, dpath)
        if st_kind.endswith("_leveled") or damage.get("leveled") is True:
            lv = math.trunc(level_of_owner)
            dice = replace(dice, dice=dice.dice * lv, adds=dice.adds * lv)
    base_text = opt_str(damage, "base", dpath).strip()
    if base_text:
        base = parse_gcs_dice(base_text, f"{dpath}.base")
        dice = base if dice is None else add_dice(base, dice)
    leveled_text = opt_str(damage, "base_leveled", dpath).strip()
    if leveled_text:
        lv = math.trunc(level_of_owner)
        extra = parse_gcs_dice(leveled_text, f"{dpath}.base_leveled")
        extra = replace(extra, dice=extra.dice * lv, adds=extra.adds * lv)
        if extra.dice or extra.adds:
            dice = extra if dice is None else add_dice(dice, extra)
    if dice is not None:
        per_die = math.trunc(opt_number(damage, "modifier_per_die", dpath, 0.0))
        dice = dice.per_die(per_die)
        dice = dice.plus(_weapon_bonus(ctx, w, dice.dice))
        if ctx.dice_plus_adds:
            dice = adds_to_dice(dice)
    divisor = opt_number(damage, "armor_divisor", dpath, 0.0, text=True)
    divisor_text = f"({divisor:g})" if divisor and divisor != 1 else ""
    return dice, kind, divisor_text


#: GCS's ST-based damage forms (``damage.st``, GCS ``stdmg.Option``): thrust or swing read for which ST.
#: Lifting ST and Striking ST are the parts of ST that count only for lifting or striking (B88);
#: "tk" is the ST of Telekinesis (B75), "iq" reads IQ as if it were ST (a GCS option for psionic
#: and magical attacks); "_leveled" multiplies the dice by the trait's level (GCS's older form).
ST_DAMAGE: dict[str, tuple[str, str]] = {
    "thr": ("thrust", "striking"),
    "sw": ("swing", "striking"),
    "lift_thr": ("thrust", "lifting"),
    "lift_sw": ("swing", "lifting"),
    "tk_thr": ("thrust", "telekinetic"),
    "tk_sw": ("swing", "telekinetic"),
    "iq_thr": ("thrust", "iq"),
    "iq_sw": ("swing", "iq"),
    "thr_leveled": ("thrust", "striking"),
    "sw_leveled": ("swing", "striking"),
}


def _st_damage(ctx: WeaponContext, w: _Site, st_kind: str, damage: Mapping[str, Any], dpath: str) -> DamageDice:
    form = ST_DAMAGE.get(st_kind)
    if form is None:
        raise InputError(
            f"unknown ST damage {st_kind!r}", expected="one of " + ", ".join(ST_DAMAGE), where=f"{dpath}.st"
        )
    which, source = form
    st = {"striking": ctx.striking_st, "lifting": ctx.lifting_st, "telekinetic": ctx.tk_st, "iq": ctx.iq}[source]
    # a skill's "effective ST" bonus (DFRPG's Wrestling: +1 ST per level of mastery) counts for the
    # weapon's damage only, and never lifts ST past three times the weapon's minimum, as in GCS
    st += _weapon_bonus(ctx, w, 1, "weapon_effective_st_bonus")
    percent = sum(
        f.amount for f in ctx.features.of("weapon_effective_st_bonus") if f.data.get("percent") and _applies(ctx, w, f)
    )
    st = max(0, st + math.trunc(st * percent / 100))
    cap = 3 * _min_st(w.weapon, w.path)
    if cap > 0:
        st = min(st, cap)
    multiplier = opt_number(damage, "st_mul", dpath, 0.0)
    if multiplier > 0:  # GCS ignores a multiplier of 0
        st = math.trunc(st * multiplier)
    return thrust_for(st, ctx.progression) if which == "thrust" else swing_for(st, ctx.progression)


def _fragmentation(weapon: Mapping[str, Any], path: str) -> str:
    """Fragmentation damage (B414) as GCS prints it after the main damage: "[2d cut]"."""
    damage = opt_mapping(weapon, "damage", path)
    dpath = f"{path}.damage"
    text = opt_str(damage, "fragmentation", dpath).strip()
    if not text:
        return ""
    dice = parse_gcs_dice(text, f"{dpath}.fragmentation")
    if dice.dice == 0 and dice.adds == 0:
        return ""
    divisor = opt_number(damage, "fragmentation_armor_divisor", dpath, 0.0, text=True)
    div = f"({divisor:g})" if divisor and divisor != 1 else ""
    kind = opt_str(damage, "fragmentation_type", dpath).strip()
    return f"[{dice}{div}{' ' + kind if kind else ''}]"


def _defense(text: str, level: int, bonus: int, path: str) -> str:
    """Parry or Block as GCS prints it: 3 + level/2 + modifier + bonus, with its F/U letters."""
    stripped = text.strip()
    if not stripped or stripped.lower() == "no" or stripped == "-":
        return "No"
    match = _LEADING_INT.match(stripped)
    if not match:
        raise InputError(f"cannot read {stripped!r}", expected="a modifier such as 0, -1, 0U or No", where=path)
    value = 3 + level // 2 + int(match.group(1)) + bonus
    letters = "".join(ch for ch in stripped[match.end() :].upper() if ch in "FU")
    return f"{value}{letters}"


def _st_based(weapon: Mapping[str, Any], path: str) -> str:
    damage = opt_mapping(weapon, "damage", path)
    kind = opt_str(damage, "st", f"{path}.damage").strip().lower()
    return kind if kind in ("thr", "sw") and not damage.get("st_mul") and not damage.get("leveled") else ""


def _modifier(text: str) -> int:
    match = _LEADING_INT.match(text)
    return int(match.group(1)) if match else 0


def _accuracy(text: str, path: str) -> int:
    """Acc as GCS reads it: "3", "3+1" (a scope's bonus added), or "Jet" (GCS's mark for a jet,
    which has no Acc to add)."""
    if "jet" in text.lower():
        return 0
    total = 0
    for part in re.findall(r"[+-]?\d+", text):
        total += int(part)
    if text.strip() and not re.search(r"\d", text):
        raise InputError(f"cannot read accuracy {text!r}", expected="e.g. 2 or 3+1", where=path)
    return total


def _range(text: str, st: int) -> str:
    """Muscle-powered ranges ("x1/x1.5") become yards for the wielder's ST, as GCS shows them."""

    def one(part: str) -> str:
        part = part.strip()
        if part.lower().startswith("x"):
            try:
                return str(math.trunc(float(part[1:]) * st))
            except ValueError:
                return part
        return part

    return "/".join(one(p) for p in text.split("/")) if text else ""


def _owners(data: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any], float]]:
    for path, trait in enabled_traits(data):
        levels = opt_number(trait, "levels", path, 0.0) if trait.get("can_level") else 0.0
        yield "trait", path, trait, levels
    for path, skill, _ in walk_items(opt_list(data, "skills", ""), "skills"):
        yield "skill", path, skill, 0.0
    for path, item in equipped_equipment(data):
        yield "equipment", path, item, 0.0


def derive_weapons(data: Mapping[str, Any], ctx: WeaponContext) -> list[GcsWeapon]:
    """Every weapon GCS lists for the sheet, derived from the file's choices."""
    out: list[GcsWeapon] = []
    for owner_kind, owner_path, owner, owner_level in _owners(data):
        weapons = opt_list(owner, "weapons", owner_path)
        if not weapons:
            continue
        name = opt_str(owner, "description", owner_path) or opt_str(owner, "name", owner_path)
        tags = tuple(str(t) for t in opt_list(owner, "tags", owner_path))
        replacements = {str(k): str(v) for k, v in opt_mapping(owner, "replacements", owner_path).items()}
        for i, raw in enumerate(weapons):
            path = f"{owner_path}.weapons[{i}]"
            weapon = as_mapping(raw, path)
            usage = _replace(opt_str(weapon, "usage", path).strip(), replacements)
            ranged = is_ranged(weapon)
            site = _Site(
                weapon, path, name, owner_path, owner_level, usage, tags, _defaults(weapon, path, replacements), ranged
            )
            parry_text = "" if ranged else opt_str(weapon, "parry", path)
            level, skill = _level(ctx, site, parry_text)
            dice, kind, divisor = _damage(ctx, site)
            block_text = opt_str(weapon, "block", path)
            # Enhanced Parry (B51) and the like: GCS's weapon_parry_bonus on this weapon's Parry
            parry_extra = _weapon_bonus(ctx, site, 0, "weapon_parry_bonus")
            out.append(
                GcsWeapon(
                    path=path,
                    owner=name,
                    owner_kind=owner_kind,
                    usage=usage,
                    ranged=ranged,
                    level=level,
                    skill=skill,
                    dice=dice,
                    damage_type=kind,
                    armor_divisor=divisor,
                    parry=None
                    if ranged
                    else _defense(parry_text, level, ctx.parry_bonus + parry_extra, f"{path}.parry"),
                    block=None
                    if ranged or not block_text
                    else _defense(
                        block_text,
                        level,
                        ctx.block_bonus + _weapon_bonus(ctx, site, 0, "weapon_block_bonus"),
                        f"{path}.block",
                    ),
                    acc=_accuracy(opt_str(weapon, "accuracy", path), f"{path}.accuracy") if ranged else 0,
                    range=_range(opt_str(weapon, "range", path), ctx.st) if ranged else "",
                    rof=opt_str(weapon, "rate_of_fire", path) if ranged else "",
                    shots=opt_str(weapon, "shots", path) if ranged else "",
                    bulk=signed_number(opt_str(weapon, "bulk", path), f"{path}.bulk") if ranged else 0,
                    calc=opt_mapping(weapon, "calc", path),
                    parry_modifier=_modifier(parry_text) + parry_extra,
                    st_based=_st_based(weapon, path),
                    fragmentation=_fragmentation(weapon, path),
                )
            )
    return out
