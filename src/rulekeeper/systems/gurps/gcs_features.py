"""The features a GCS file's choices switch on: what traits, their modifiers, skills and equipped
equipment grant (attribute, Dodge/Parry/Block, DR, skill and weapon bonuses).

GCS counts a feature only when its owner is in play: a trait (and each trait container above it)
not disabled, a trait modifier not disabled, equipment carried and equipped (with every container
above it), an equipment modifier not disabled. A ``per_level`` amount is multiplied by the owner's
level -- the trait's ``levels`` when it can level, a modifier's own ``levels`` or, with
``use_level_from_trait``, its trait's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.gcs_values import as_mapping, opt_bool, opt_list, opt_mapping, opt_number, opt_str

__all__ = [
    "MAX_DEPTH",
    "Feature",
    "Features",
    "collect_features",
    "enabled_traits",
    "equipped_equipment",
    "telekinesis_st",
    "walk_items",
]

#: Deepest nesting of containers read; GCS files nest a few levels, a hostile file could nest thousands.
MAX_DEPTH = 64


@dataclass(frozen=True)
class Feature:
    """One enabled feature: its ``type``, its JSON, the amount with levels applied, and its owner."""

    kind: str
    data: Mapping[str, Any]
    amount: float
    path: str
    owner_path: str


@dataclass(frozen=True)
class Features:
    """Every enabled feature of a sheet, with the queries the importer needs."""

    items: tuple[Feature, ...] = ()

    def of(self, kind: str) -> Iterator[Feature]:
        return (f for f in self.items if f.kind == kind)

    def attribute_bonus(self, attribute: str, limitation: str | None = None) -> float:
        """Sum of ``attribute_bonus`` amounts for an attribute; ``limitation`` None means unlimited ones."""
        total = 0.0
        for f in self.of("attribute_bonus"):
            lim = f.data.get("limitation") or None
            if f.data.get("attribute") == attribute and lim == limitation:
                total += f.amount
        return total

    def dr(self, location: str) -> int:
        """DR against every damage type at a location (``all`` covers every location)."""
        total = 0.0
        for f in self.of("dr_bonus"):
            spec = str(f.data.get("specialization") or "all").lower()
            if spec != "all":
                continue
            locations = f.data.get("locations") or [f.data.get("location")]
            if location in locations or "all" in locations:
                total += f.amount
        return int(total)


def walk_items(items: Sequence[Any], path: str) -> Iterator[tuple[str, Mapping[str, Any], int]]:
    """Every item of a GCS list and of its ``children``, with its JSON path and depth."""

    def visit(seq: Sequence[Any], where: str, depth: int) -> Iterator[tuple[str, Mapping[str, Any], int]]:
        if depth > MAX_DEPTH:
            raise InputError("containers nest too deep", expected=f"at most {MAX_DEPTH} levels", where=where)
        for i, raw in enumerate(seq):
            here = f"{where}[{i}]"
            item = as_mapping(raw, here)
            yield here, item, depth
            yield from visit(opt_list(item, "children", here), f"{here}.children", depth + 1)

    yield from visit(items, path, 0)


def _levels(item: Mapping[str, Any], path: str) -> float:
    if not opt_bool(item, "can_level", path, False):
        return 0.0
    return opt_number(item, "levels", path, 0.0)


def _features_of(
    owner: Mapping[str, Any],
    path: str,
    level: float,
    out: list[Feature],
    owner_path: str,
    replacements: Mapping[str, Any] | None = None,
) -> None:
    for j, raw in enumerate(opt_list(owner, "features", path)):
        here = f"{path}.features[{j}]"
        feature = as_mapping(raw, here)
        kind = opt_str(feature, "type", here)
        _check_feature(feature, here)
        feature = _replaced(feature, replacements or {})
        amount = opt_number(feature, "amount", here, 0.0)
        # GCS writes "per_level" on most features and "leveled" on weapon defence bonuses
        if opt_bool(feature, "per_level", here, False) or opt_bool(feature, "leveled", here, False):
            amount *= level
        out.append(Feature(kind, feature, amount, here, owner_path))


def _replaced(feature: Mapping[str, Any], replacements: Mapping[str, Any]) -> Mapping[str, Any]:
    """A trait's ``@placeholder@`` texts (Enhanced Parry's "@Melee weapon skill@") filled in from its
    ``replacements``, in the criteria GCS matches them with."""
    if not replacements:
        return feature
    out = dict(feature)
    for key in ("name", "specialization", "usage"):
        criterion = out.get(key)
        if isinstance(criterion, Mapping) and isinstance(criterion.get("qualifier"), str):
            text = re.sub(r"@([^@]+)@", lambda m: str(replacements.get(m.group(1), m.group(0))), criterion["qualifier"])
            out[key] = {**criterion, "qualifier": text}
    return out


def _check_feature(feature: Mapping[str, Any], path: str) -> None:
    """The keys the importer reads have the types GCS writes, or the file is refused here."""
    for key in ("attribute", "limitation", "selection_type", "situation"):
        opt_str(feature, key, path)
    if feature.get("type") == "dr_bonus":
        opt_str(feature, "specialization", path)  # the damage type the DR is limited to
    else:
        for key in ("name", "specialization", "level", "tags", "usage"):
            opt_mapping(feature, key, path)
    for i, location in enumerate(opt_list(feature, "locations", path)):
        if not isinstance(location, str):
            raise InputError(
                "a location is not text", expected="a location id such as torso", where=f"{path}.locations[{i}]"
            )


def _modifiers(
    owner: Mapping[str, Any], path: str, trait_level: float, out: list[Feature], replacements: Mapping[str, Any]
) -> None:
    for here, mod, _ in walk_items(opt_list(owner, "modifiers", path), f"{path}.modifiers"):
        if opt_bool(mod, "disabled", here, False):
            continue
        if opt_bool(mod, "use_level_from_trait", here, False):
            level = trait_level
        else:
            level = opt_number(mod, "levels", here, 0.0)
        _features_of(mod, here, level, out, path, replacements)


def _enabled_tree(
    items: Sequence[Any], path: str, switch: str, on_when: bool
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Items whose own flag and every ancestor's flag say they are in play."""

    def visit(seq: Sequence[Any], where: str, depth: int = 0) -> Iterator[tuple[str, Mapping[str, Any]]]:
        if depth > MAX_DEPTH:
            raise InputError("containers nest too deep", expected=f"at most {MAX_DEPTH} levels", where=where)
        for i, raw in enumerate(seq):
            here = f"{where}[{i}]"
            item = as_mapping(raw, here)
            if opt_bool(item, switch, here, on_when) != on_when:
                continue
            yield here, item
            yield from visit(opt_list(item, "children", here), f"{here}.children", depth + 1)

    yield from visit(items, path)


def enabled_traits(data: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    yield from _enabled_tree(opt_list(data, "traits", ""), "traits", "disabled", False)


def equipped_equipment(data: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    yield from _enabled_tree(opt_list(data, "equipment", ""), "equipment", "equipped", True)


def collect_features(data: Mapping[str, Any]) -> Features:
    """Every enabled feature of traits, skills and equipped equipment."""
    out: list[Feature] = []
    for path, trait in enabled_traits(data):
        level = _levels(trait, path)
        replacements = opt_mapping(trait, "replacements", path)
        _features_of(trait, path, level, out, path, replacements)
        _modifiers(trait, path, level, out, replacements)
    for path, skill, _ in walk_items(opt_list(data, "skills", ""), "skills"):
        _features_of(skill, path, 0.0, out, path, opt_mapping(skill, "replacements", path))
    for path, item in equipped_equipment(data):
        _features_of(item, path, opt_number(item, "levels", path, 0.0), out, path)
        _modifiers(item, path, 0.0, out, {})
    return Features(tuple(out))


def telekinesis_st(data: Mapping[str, Any]) -> int:
    """Telekinesis's ST (B75: its level is the ST it lifts and strikes with): the levels of every
    enabled trait named Telekinesis, as GCS sums them for ``tk_thr``/``tk_sw`` damage."""
    total = 0.0
    for path, trait in enabled_traits(data):
        if str(trait.get("name") or "").strip().lower() == "telekinesis" and trait.get("can_level"):
            total += max(0.0, opt_number(trait, "levels", path, 0.0))
    return int(total)
