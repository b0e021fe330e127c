"""Importing GCS files: refusing bad ones by JSON path, and reporting what is not used."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from tests.systems.gurps.gcs_library import load, without_calc

from rulekeeper.errors import InputError
from rulekeeper.scenario import run_file
from rulekeeper.systems.gurps import import_gcs, new_character
from rulekeeper.systems.gurps.damage_table import DamageDice, parse_damage
from rulekeeper.systems.gurps.gcs import sheet_from_gcs, skill_level_from_points

OGRE = "Home Brew/Enraged Eggplant/Monsters/Orc Warrior.gcs"


def _refused(data: Any, where: str) -> InputError:
    with pytest.raises(InputError) as caught:
        import_gcs(data)
    assert caught.value.where == where, str(caught.value)
    assert "\n" not in str(caught.value)
    return caught.value


def _file() -> dict[str, Any]:
    return copy.deepcopy(load(OGRE))


def test_unknown_or_missing_version_is_refused() -> None:
    data = _file()
    data["version"] = 4
    assert "version 5" in str(_refused(data, "version"))
    del data["version"]
    _refused(data, "version")
    data["version"] = "5"
    _refused(data, "version")


def test_wrong_types_name_the_json_path() -> None:
    data = _file()
    data["attributes"] = "none"
    _refused(data, "attributes")

    data = _file()
    data["attributes"][0]["adj"] = "three"
    assert "a number" in str(_refused(data, "attributes[0].adj"))

    data = _file()
    hp = next(i for i, a in enumerate(data["attributes"]) if a["attr_id"] == "hp")
    data["attributes"][hp]["damage"] = "lots"
    _refused(data, f"attributes[{hp}].damage")

    data = _file()
    data["traits"] = {"Combat Reflexes": True}
    _refused(data, "traits")

    data = _file()
    data["equipment"][0]["quantity"] = "2"
    _refused(data, "equipment[0].quantity")

    data = _file()
    data["equipment"][0]["base_weight"] = "heavy"
    _refused(data, "equipment[0].base_weight")

    data = _file()
    data["traits"][0]["features"][1]["amount"] = [1]
    _refused(data, "traits[0].features[1].amount")


def test_not_a_gcs_file() -> None:
    with pytest.raises(InputError):
        import_gcs({"name": "x"})
    with pytest.raises(InputError):
        import_gcs([])  # type: ignore[arg-type]


def test_unused_fields_are_reported_by_json_path() -> None:
    result = import_gcs(load(OGRE))
    # Combat Reflexes (traits[0]) gives Dodge/Parry/Block +1 and Fast-Draw +1, which are used, and
    # two conditional modifiers (fright checks, surprise), which a GURPS sheet here cannot hold
    assert "traits[0].features[5] (conditional_modifier)" in result.unused
    assert "traits[0].features[1]" not in " ".join(result.unused)
    assert "attributes[15] (fdg)" in result.unused  # a house attribute of this sheet
    assert "profile.height" in result.unused
    assert "created_date" in result.unused
    assert not any(u.startswith(("attributes[0]", "skills[", "equipment[")) for u in result.unused)


def test_a_disagreement_with_gcs_is_reported_not_hidden() -> None:
    data = _file()
    dodge = data["calc"]["dodge"][0]
    data["calc"]["dodge"][0] = dodge + 1
    result = import_gcs(data)
    assert f"dodge: derived {dodge}, GCS says {dodge + 1}" in result.disagreements
    assert new_character(result.sheet).basic_dodge == dodge


def test_points_to_level() -> None:
    assert skill_level_from_points(12, "a", 1) == 11
    assert skill_level_from_points(12, "a", 2) == 12
    assert skill_level_from_points(12, "a", 4) == 13
    assert skill_level_from_points(12, "a", 8) == 14
    assert skill_level_from_points(12, "h", 12) == 14
    assert skill_level_from_points(12, "e", 0) is None


def test_an_st_0_creature_imports() -> None:
    data = _file()
    before = import_gcs(data).sheet
    st = next(a for a in data["attributes"] if a["attr_id"] == "st")
    hp = next(a for a in data["attributes"] if a["attr_id"] == "hp")
    st["adj"] -= before["st"]  # ST 0 whatever the traits add
    hp["adj"] += before["st"] - before["hp"] + 5  # HP = ST 0 + 5: a skull or a slime still has HP
    result = import_gcs(without_calc(data))
    char = new_character(result.sheet)
    assert (char.st, char.hp) == (0, 5)
    assert char.basic_lift == 0  # B15: 0 x 0 / 5
    punch = char.weapon("Punch")
    assert punch is not None
    # thrust for ST 0 continues the B16 table down (ST 1-2: 1d-6, so ST 0: 1d-6); Punch thr-1: 1d-7
    assert parse_damage(punch.damage, char.effective_st) == DamageDice(1, -7)



def test_a_scenario_reports_what_its_gcs_import_left_out() -> None:
    path = Path(__file__).resolve().parents[2] / "scenarios" / "gurps" / "gcs-bow-and-bite.yaml"
    report = run_file(path)
    assert report.passed, report.failures
    notes = [line for line in report.transcript if line.startswith("note: ")]
    assert any(line.startswith("note: characters.archer: fields not used from") for line in notes), notes
    assert "created_date" in " ".join(notes)
    assert report.to_json()["transcript"][: len(notes)] == notes


def test_sheet_from_gcs_lays_overrides_over_the_import_and_refuses_other_systems() -> None:
    data = _file()
    imported = sheet_from_gcs(data, {"name": "Ursa", "dx": 14})
    assert (imported.sheet["name"], imported.sheet["dx"]) == ("Ursa", 14)
    assert imported.report() == {"unused": imported.unused, "disagreements": imported.disagreements}
    with pytest.raises(InputError, match="GURPS character"):
        sheet_from_gcs(data, system="gm")
    data["version"] = 4
    with pytest.raises(InputError, match=r"orc\.gcs: GCS file version 4"):
        sheet_from_gcs(data, source="orc.gcs")
