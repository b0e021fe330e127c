"""GCS as a sheet format of the GURPS ruleset: read a .gcs document into a sheet, and write the
table's current HP and FP back into the character's original document.

GCS keeps a pool's current value as the ``damage`` taken on its attribute (``{"attr_id": "hp",
"adj": 0, "damage": 3}``, GCS ``AttributeData``; left out when 0), and its ``calc.current`` as the
maximum less that damage. Writing back sets exactly those two on ``hp`` and ``fp`` and leaves every
other byte of meaning (unknown fields, portraits, notes, GCS's other computed values) as it was,
so GCS opens the file as the player saved it, with the evening's damage.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulekeeper.core.sheet_format import SheetFormat, SheetImport
from rulekeeper.errors import InputError

__all__ = ["GCS_FORMAT", "write_gcs"]


def read_gcs(document: Any, overrides: Mapping[str, Any], source: str) -> SheetImport:
    from rulekeeper.systems.gurps.gcs import sheet_from_gcs

    imported = sheet_from_gcs(document, overrides, source=source)
    return SheetImport(imported.sheet, tuple(imported.unused), tuple(imported.disagreements))


def write_gcs(document: Mapping[str, Any], character: Any) -> dict[str, Any]:
    """``document`` with ``character``'s HP and FP damage in GCS's fields, otherwise unchanged."""
    out: dict[str, Any] = copy.deepcopy(dict(document))
    attributes = out.get("attributes")
    if not isinstance(attributes, list):
        raise InputError("the kept GCS document has no attribute list", expected="a GCS character", where="attributes")
    for pool, maximum, current in (
        ("hp", int(character.hp), int(character.current_hp)),
        ("fp", int(character.fp), int(character.current_fp)),
    ):
        damage = maximum - current
        entry = next((a for a in attributes if isinstance(a, dict) and a.get("attr_id") == pool), None)
        if entry is None:
            if damage == 0:
                continue
            entry = {"attr_id": pool, "adj": 0}
            attributes.append(entry)
        if damage:
            entry["damage"] = damage
        else:
            entry.pop("damage", None)  # GCS leaves a pool's damage out when it is 0
        calc = entry.get("calc")
        if isinstance(calc, dict) and isinstance(calc.get("value"), (int, float)) and "current" in calc:
            calc["current"] = calc["value"] - damage
    return out


GCS_FORMAT = SheetFormat(name="gcs", title="GURPS Character Sheet (GCS)", suffix=".gcs", read=read_gcs, write=write_gcs)
