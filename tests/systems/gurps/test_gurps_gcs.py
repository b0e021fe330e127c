"""Importing a GURPS Character Sheet (.gcs) file: what is used, and every field that is not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps import import_gcs, new_character
from rulekeeper.systems.gurps.gcs import skill_level_from_points

FIXTURE = Path(__file__).parent / "fixtures" / "sample.gcs"


def _load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_attributes_with_adjustments_and_damage() -> None:
    sheet, _ = import_gcs(_load())
    assert sheet["name"] == "Dai Blackthorn"
    assert (sheet["st"], sheet["dx"], sheet["iq"], sheet["ht"]) == (11, 13, 10, 12)
    assert (sheet["hp"], sheet["fp"], sheet["will"], sheet["per"]) == (13, 12, 11, 12)
    assert sheet["basic_speed"] == pytest.approx(6.5)
    assert sheet["basic_move"] == 7
    assert (sheet["current_hp"], sheet["current_fp"]) == (10, 10)


def test_skills_by_level_or_points_and_shield() -> None:
    sheet, _ = import_gcs(_load())
    assert sheet["skills"] == {"broadsword": 15, "climbing": 12, "hiking": 13, "bow": 13}
    assert sheet["shield"] == 14


def test_weapons_and_carried_weight_and_dr() -> None:
    sheet, _ = import_gcs(_load())
    names = [w["name"] for w in sheet["weapons"]]
    assert names == ["Broadsword (Swung)", "Broadsword (Thrust)", "Short Bow"]
    assert sheet["weapons"][0]["damage"] == "sw+1"
    assert sheet["weapons"][2]["kind"] == "missile"
    assert sheet["weapons"][2]["acc"] == 1
    assert sheet["weapons"][2]["damage"] == "thr"
    # 3 + 4 + 2 + 3 + 20 x 0.1 + 2 x 0.5 kg (2 lb/kg) + 10
    assert sheet["carried"] == pytest.approx(26.0)
    assert sheet["dr"] == 2


def test_every_unused_field_is_named() -> None:
    _, unused = import_gcs(_load())
    for field in (
        "traits",
        "notes",
        "other_equipment",
        "settings",
        "profile.player_name",
        "attributes.fright_check",
        "attributes.vision",
    ):
        assert field in unused
    assert any("Feint" in u and "technique" in u for u in unused)
    assert any("Stealth" in u for u in unused)
    assert any("Axe" in u and "no skill" in u for u in unused)
    assert any("attribute_bonus" in u for u in unused)


def test_the_imported_sheet_builds_a_character() -> None:
    sheet, _ = import_gcs(_load())
    char = new_character(sheet)
    assert char.encumbrance_level == 1  # 26 lb over BL 24
    assert char.parry("broadsword") == 10
    assert char.block == 10
    assert char.skill("climbing") == 12


def test_points_to_level() -> None:
    assert skill_level_from_points(12, "a", 1) == 11
    assert skill_level_from_points(12, "a", 2) == 12
    assert skill_level_from_points(12, "a", 4) == 13
    assert skill_level_from_points(12, "a", 8) == 14
    assert skill_level_from_points(12, "h", 12) == 14
    assert skill_level_from_points(12, "e", 0) is None


def test_not_a_gcs_file() -> None:
    with pytest.raises(InputError):
        import_gcs({"name": "x"})
    with pytest.raises(InputError):
        import_gcs([])  # type: ignore[arg-type]
