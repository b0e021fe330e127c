"""A GCS character both ways through the real executable and SQLite: the table's damage written back
into the player's own file, and a changed file re-read onto the character without losing the night."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from support.cli_table import Table
from support.gcs_files import LIBRARY

ARCHER = LIBRARY / "Home Brew" / "Enraged Eggplant" / "Monsters" / "Chariot Archer.gcs"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path, "gcs.db")
    t.run("campaign", "new", "gcs-night", "--system", "gurps")
    return t


def _pool(document: dict[str, Any], pool: str) -> dict[str, Any]:
    return next(a for a in document["attributes"] if a["attr_id"] == pool)


def _without_pools(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out["attributes"] = [a for a in out["attributes"] if a["attr_id"] not in ("hp", "fp")]
    return out


def test_export_writes_the_damage_into_the_original_and_reimports_it(table: Table, tmp_path: Path) -> None:
    original = json.loads(ARCHER.read_text(encoding="utf-8"))
    original["portrait"] = "iVBORw0KGgo="  # a portrait and a field no GCS version knows ride along
    original["a_future_field"] = {"kept": [1, 2]}
    source = tmp_path / "archer.gcs"
    source.write_text(json.dumps(original), encoding="utf-8")
    table.run("char", "add", "archer", "--gcs", str(source))
    table.run("damage", "archer", "--amount", "5")
    table.run("lose_fp", "archer", "--amount", "3")
    view = table.json("char", "show", "archer")["view"]

    out = tmp_path / "archer-after.gcs"
    table.run("char", "export", "archer", "--gcs", str(out))
    written = json.loads(out.read_text(encoding="utf-8"))
    assert _pool(written, "hp")["damage"] == view["hp"] - view["current_hp"] > 0  # after the archer's DR
    assert _pool(written, "fp")["damage"] == 3
    assert _pool(written, "hp")["calc"]["current"] == view["current_hp"]
    # everything else is the player's file as it was
    assert _without_pools(written) == _without_pools(original)
    assert {k: v for k, v in _pool(written, "hp").items() if k not in ("damage", "calc")} == {
        k: v for k, v in _pool(original, "hp").items() if k not in ("damage", "calc")
    }

    table.run("campaign", "new", "next-night", "--system", "gurps")
    again = table.json("char", "add", "archer", "--gcs", str(out))["view"]
    assert (again["current_hp"], again["current_fp"]) == (view["current_hp"], view["current_fp"])


def test_export_refuses_a_character_not_from_gcs_and_a_system_without_gcs(table: Table, tmp_path: Path) -> None:
    table.run("char", "add", "orc", "--set", "st=12")
    refused = table.run("char", "export", "orc", "--gcs", str(tmp_path / "orc.gcs"), code=2)
    assert "orc was not read from a gcs file" in refused.stderr
    assert not (tmp_path / "orc.gcs").exists()
    table.run("campaign", "new", "wg-night", "--system", "wg")
    table.refused("char", "add", "kira", "--gcs", str(ARCHER), code=2, fragment="reads no gcs files")


def test_update_reads_the_changed_file_keeps_the_night_and_undoes(table: Table, tmp_path: Path) -> None:
    source = tmp_path / "archer.gcs"
    source.write_text(ARCHER.read_text(encoding="utf-8"), encoding="utf-8")
    table.run("char", "add", "archer", "--gcs", str(source))
    table.run("damage", "archer", "--amount", "4")
    before = table.json("char", "show", "archer")["view"]

    changed = json.loads(source.read_text(encoding="utf-8"))
    skill = copy.deepcopy(next(s for s in changed["skills"] if "children" not in s))
    skill["name"] = "Stealth"
    skill["id"] = "s-new-stealth"
    skill.pop("calc", None)
    changed["skills"].append(skill)
    _pool(changed, "hp")["adj"] = _pool(changed, "hp").get("adj", 0) + 3
    source.write_text(json.dumps(changed), encoding="utf-8")

    out = table.run("char", "update", "archer", "--gcs", str(source))
    assert "stealth" in out.stdout.lower()
    assert "hp" in out.stdout
    after = table.json("char", "show", "archer")["view"]
    assert "stealth" in after["skills"]
    assert after["hp"] == before["hp"] + 3
    assert after["current_hp"] == before["current_hp"]  # the wound taken at the table stays

    table.run("undo")
    undone = table.json("char", "show", "archer")["view"]
    assert "stealth" not in undone["skills"]
    assert (undone["hp"], undone["current_hp"]) == (before["hp"], before["current_hp"])


def test_a_truncated_update_file_changes_nothing(table: Table, tmp_path: Path) -> None:
    table.run("char", "add", "archer", "--gcs", str(ARCHER))
    broken = tmp_path / "broken.gcs"
    broken.write_text(ARCHER.read_text(encoding="utf-8")[:500], encoding="utf-8")
    table.refused("char", "update", "archer", "--gcs", str(broken), code=2, fragment="broken.gcs")
