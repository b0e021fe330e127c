"""Carried weight from a GCS file's ``equipment`` list (``other_equipment`` is not carried).

An item weighs its ``base_weight`` changed by its enabled modifiers, times its ``quantity``, plus
what it contains (nested ``children``), less a container's ``contained_weight_reduction``. Modifier
weights are "+2 lb", "-10%" (of the weight so far) or "x6.25", applied in GCS's order: to the
original weight, to the base weight, to the final base weight, to the final weight.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.gcs_features import MAX_DEPTH, walk_items
from rulekeeper.systems.gurps.gcs_values import as_mapping, opt_bool, opt_list, opt_number, opt_str, parse_weight

__all__ = ["carried_weight", "item_weight"]

_ORDER = ("to_original_weight", "to_base_weight", "to_final_base_weight", "to_final_weight")
_MULTIPLY = re.compile(r"^\s*x\s*(\d+(?:\.\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?\s*$", re.IGNORECASE)
_PERCENT = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*%\s*$")


def _apply(weight: float, text: str, path: str) -> float:
    multiply = _MULTIPLY.match(text)
    if multiply:
        factor = float(multiply.group(1)) / (float(multiply.group(2)) if multiply.group(2) else 1.0)
        return weight * factor
    percent = _PERCENT.match(text)
    if percent:
        return weight * (1 + float(percent.group(1)) / 100)
    return weight + parse_weight(text.replace("+", "", 1), path)


def _own_weight(item: Mapping[str, Any], path: str) -> float:
    weight = parse_weight(item.get("base_weight", item.get("weight", 0)) or 0, f"{path}.base_weight")
    modifiers = [
        (here, mod)
        for here, mod, _ in walk_items(opt_list(item, "modifiers", path), f"{path}.modifiers")
        if not opt_bool(mod, "disabled", here, False) and mod.get("weight") not in (None, "")
    ]
    for stage in _ORDER:
        for here, mod in modifiers:
            kind = opt_str(mod, "weight_type", here, "to_original_weight")
            if kind not in _ORDER:
                raise InputError(
                    f"unknown weight_type {kind!r}", expected="one of " + ", ".join(_ORDER), where=f"{here}.weight_type"
                )
            if kind == stage:
                weight = _apply(weight, opt_str(mod, "weight", here), f"{here}.weight")
    return max(weight, 0.0)


def _reduction(item: Mapping[str, Any], path: str, contents: float) -> float:
    reduced = contents
    for j, raw in enumerate(opt_list(item, "features", path)):
        here = f"{path}.features[{j}]"
        feature = as_mapping(raw, here)
        if feature.get("type") != "contained_weight_reduction":
            continue
        text = opt_str(feature, "reduction", here).strip()
        percent = _PERCENT.match(text)
        if percent:
            reduced -= contents * float(percent.group(1)) / 100
        else:
            reduced -= parse_weight(text, f"{here}.reduction")
    return max(reduced, 0.0)


def item_weight(item: Mapping[str, Any], path: str, depth: int = 0) -> float:
    """An item's extended weight: its own weight times quantity plus its contents."""
    if depth > MAX_DEPTH:
        raise InputError("containers nest too deep", expected=f"at most {MAX_DEPTH} levels", where=path)
    quantity = opt_number(item, "quantity", path, 1.0)
    if quantity < 0:
        raise InputError("a negative quantity", expected="a quantity of 0 or more", where=f"{path}.quantity")
    contents = sum(
        item_weight(as_mapping(child, f"{path}.children[{i}]"), f"{path}.children[{i}]", depth + 1)
        for i, child in enumerate(opt_list(item, "children", path))
    )
    return _own_weight(item, path) * quantity + _reduction(item, path, contents)


def carried_weight(items: Sequence[Any], path: str = "equipment") -> float:
    return sum(item_weight(as_mapping(raw, f"{path}[{i}]"), f"{path}[{i}]") for i, raw in enumerate(items))
