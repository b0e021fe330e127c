"""GCS files through the real ``rulekeeper`` executable and a real SQLite file, as a GM adds them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from support.cli_table import Table
from support.gcs_files import LIBRARY

ARCHER = LIBRARY / "Home Brew" / "Enraged Eggplant" / "Monsters" / "Chariot Archer.gcs"
BEAR = LIBRARY / "Dungeon Fantasy RPG" / "Monsters" / "Cave Bear.gcs"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path, "gcs.db")
    t.run("campaign", "new", "gcs-night", "--system", "gurps")
    return t


def test_add_from_gcs_reports_unused_fields_in_json(table: Table) -> None:
    out = table.json("char", "add", "archer", "--gcs", str(ARCHER))
    view = out["view"]
    assert (view["st"], view["dx"], view["dodge"], view["basic_lift"]) == (12, 11, 8, 29.0)
    assert view["carried"] == pytest.approx(20.1)  # every item's base weight x quantity, nested
    assert "Regular Bow (Shoot)" in view["weapons"]
    report = out["gcs"]
    assert report["disagreements"] == []
    assert "created_date" in report["unused"]
    assert "attributes[15] (fdg)" in report["unused"]


def test_an_imported_bow_and_bite_fight(table: Table) -> None:
    table.run("char", "add", "archer", "--gcs", str(ARCHER))
    table.run("char", "add", "bear", "--gcs", str(BEAR))
    table.run("maneuver", "archer", "--choice", "aim", "--target", "bear", "--weapon", "Regular Bow (Shoot)")
    shot = table.json(
        "attack", "archer", "--target", "bear", "--weapon", "Regular Bow (Shoot)", "--defense", "dodge",
        "--rolled", "5,5,5,6,6,6,4",
    )
    # Bow 14 + Acc 2 after one Aim = 16; 1d = 4 imp, DR 2 -> 2 x 2 = 4 injury
    assert shot["result"]["attack_skill"] == 16
    assert table.json("char", "show", "bear")["view"]["current_hp"] == 19
    refused = table.run(
        "attack", "archer", "--target", "bear", "--weapon", "Regular Bow (Shoot)", "--defense", "parry",
        "--rolled", "5,5,5", code=1,
    )
    assert "parry stops only melee" in refused.stderr


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d.update(version=4), "version"),
        (lambda d: d.update(attributes="none"), "attributes"),
        (lambda d: d["attributes"][0].update(adj="3"), "attributes[0].adj"),
        (lambda d: d["equipment"][0].update(base_weight=[3]), "equipment[0].base_weight"),
    ],
)
def test_a_bad_file_is_refused_with_its_json_path_and_nothing_is_written(
    table: Table, tmp_path: Path, change: Any, fragment: str
) -> None:
    data = json.loads(ARCHER.read_text(encoding="utf-8"))
    change(data)
    bad = tmp_path / "bad.gcs"
    bad.write_text(json.dumps(data), encoding="utf-8")
    proc = table.run("char", "add", "archer", "--gcs", str(bad), code=2)
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    assert fragment in proc.stderr
    assert table.json("char", "list")["characters"] == []


def test_an_imported_weapon_follows_an_edit_of_dx_and_of_st(table: Table) -> None:
    table.run("char", "add", "archer", "--gcs", str(ARCHER))
    assert table.json("char", "show", "archer")["view"]["parry"]["punch"] == 8  # DX 11: 3 + 11 // 2
    table.run("char", "edit", "archer", "--set", "dx=12")
    view = table.json("char", "show", "archer")["view"]
    assert view["dx"] == 12 and view["parry"]["punch"] == 9  # the Punch's level is DX's, now 12
    table.run("char", "add", "bear", "--gcs", str(BEAR))
    table.run("char", "edit", "bear", "--set", "st=25")
    # Bite is thr-1 cut with Brawling's +1 per die: at ST 25 thrust is 2d+2 (B16), so 2d+1+2 = 2d+3 max 15
    table.run("char", "add", "target", "--set", "hp=40")
    bite = table.json(
        "attack", "bear", "--target", "target", "--weapon", "Bite", "--defense", "dodge",
        "--rolled", "3,3,4,6,6,6,6,6,3,3,3",
    )  # Bite 13: 10 hits; Dodge 8: 18 fails; 6 + 6 + 3 = 15; HT 10 against knockdown: 9
    assert bite["result"]["damage"] == 15


def test_a_misspelled_dr_location_is_refused_naming_the_locations(table: Table, tmp_path: Path) -> None:
    sheet = tmp_path / "skul.json"
    sheet.write_text(json.dumps({"st": 11, "dr_locations": {"skul": 2}}))
    proc = table.run("char", "add", "hero", "--sheet", str(sheet), code=2)
    assert "unknown hit location 'skul'" in proc.stderr and "torso, skull, face" in proc.stderr
    sheet.write_text(json.dumps({"st": 11, "dr_locations": {"Skull": 2}}))
    table.run("char", "add", "hero", "--sheet", str(sheet))
