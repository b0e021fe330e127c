"""Habits of a GM at 11 pm, through the real executable and a real SQLite file.

Ids in any case, typos answered with "did you mean", rest words in either order, nested sheet
fields, groups of NPCs, undo that says what it takes, views that are not history, errors that
name the campaign and its system, and a status board that fits 80×24.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXE = str(Path(sys.executable).parent / "rulekeeper")


class Table:
    def __init__(self, tmp_path: Path) -> None:
        self.env = {
            **os.environ,
            "RULEKEEPER_DB": str(tmp_path / "habits.db"),
            "RULEKEEPER_CONFIG": str(tmp_path / "selection.json"),
            "NO_COLOR": "1",
        }
        self.env.pop("COLUMNS", None)

    def run(self, *args: str, code: int = 0, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([EXE, *args], capture_output=True, text=True, env=self.env, timeout=120, input=stdin)
        assert proc.returncode == code, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
        return proc

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args, "--json").stdout)

    def version(self) -> int:
        return int(self.json("campaign", "show")["version"])


@pytest.fixture
def gm_table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.run("campaign", "new", "friday", "--system", "gm", "--seed", "5")
    t.run("char", "add", "Ingrid", "--set", "archetype=warrior", "--set", "level=2", "--set", "survival=7",
          "--set", "verve=17")
    return t


def test_ids_in_any_case_and_did_you_mean(gm_table: Table) -> None:
    out = gm_table.run("damage", "INGRID", "--amount", "3").stdout
    assert "Ingrid takes 3 damage" in out
    err = gm_table.run("damage", "ingrd", "--amount", "3", code=2).stderr
    assert "did you mean 'Ingrid'?" in err and "Gods & Monsters campaign 'friday'" in err
    assert len(err.strip().splitlines()) == 1


def test_rest_words_in_either_order(gm_table: Table) -> None:
    first = gm_table.json("rest", "night", "ingrid")
    gm_table.run("undo")
    second = gm_table.json("rest", "ingrid", "night")
    assert first["command"]["action"] == second["command"]["action"]
    assert second["command"]["action"]["params"] == {"kind": "night"}


def test_unknown_action_names_the_campaign_and_the_system_that_has_it(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "friday", "--system", "wg")
    err = t.run("mojo", "ari", code=2).stderr
    assert "no action 'mojo' in Wrath & Glory campaign 'friday' (mojo is a Gods & Monsters action)" in err


def test_nested_fields_groups_and_remove(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "arena", "--system", "gurps")
    t.run("char", "add", "orc1", "--npc", "--set", "st=13", "--set", "skills.axe=12", "--set", "skills.brawling=11")
    t.run("char", "edit", "orc1", "--set", "skills.axe=14")
    view = t.json("char", "show", "orc1")["view"]
    assert view["skills"]["axe"] == 14 and view["skills"]["brawling"] == 11  # the other skill kept
    added = t.json("char", "add", "orc2", "--like", "orc1", "--count", "3")
    assert added["actors"] == ["orc2", "orc3", "orc4"]
    show = t.json("campaign", "show")
    assert set(show["characters"]) == {"orc1", "orc2", "orc3", "orc4"}
    assert show["characters"]["orc3"]["st"] == 13 and show["characters"]["orc3"]["skills"]["axe"] == 14
    board = t.json("status")["characters"]
    assert all(c["npc"] for c in board), board  # copies of an NPC are NPCs
    t.run("char", "remove", "ORC3")
    assert "orc3" not in t.json("campaign", "show")["characters"]
    t.run("undo")
    assert "orc3" in t.json("campaign", "show")["characters"]

    t.run("damage", "orc2", "--amount", "4")
    t.run("start_combat")
    refused = t.run("char", "rename", "orc2", "grak", code=1).stderr
    assert "rename outside the fight" in refused
    t.run("end_combat")
    t.run("char", "rename", "Orc2", "grak")
    after = t.json("campaign", "show")["characters"]
    assert "orc2" not in after and after["grak"]["current_hp"] == after["grak"]["hp"] - 4  # the wound followed
    assert t.json("damage", "grak", "--amount", "1")["command"]["action"]["actor"] == "grak"


def test_undo_with_dependants_says_what_it_takes_and_asks(gm_table: Table) -> None:
    gm_table.run("damage", "ingrid", "--amount", "3")  # 2
    gm_table.run("damage", "ingrid", "--amount", "2")  # 3, concerns the same character
    before = gm_table.version()
    proc = gm_table.run("undo", "2", code=2)
    assert "#3" in proc.stdout and "also concerns" in proc.stdout
    assert "--yes" in proc.stderr
    assert gm_table.version() == before, "nothing may change without a yes"
    done = gm_table.json("undo", "2", "--yes")
    assert done["undone"] == [2, 3]


def test_read_only_actions_are_not_history(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "north", "--system", "6810")
    t.run("char", "add", "ranger", "--set", "BU=6", "--set", "CO=5", "--set", "IN=4", "--set", "EM=5")
    before = t.version()
    out = t.run("player_view", "ranger").stdout
    assert "not recorded" in out and "ranger" in out
    assert t.version() == before


@pytest.mark.parametrize(
    ("system", "sheet"),
    [
        ("gurps", ["st=11", "ht=12"]),
        ("gm", ["archetype=warrior", "level=2", "survival=7", "verve=17"]),
        ("wg", ["tier=1", "toughness=3", "willpower=3"]),
        ("6810", ["BU=6", "CO=5", "IN=4", "EM=5"]),
    ],
)
def test_status_fits_80_by_24_with_six_characters(tmp_path: Path, system: str, sheet: list[str]) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "six", "--system", system, "--seed", "2")
    t.run("char", "add", "fighter1", *[a for pair in sheet for a in ("--set", pair)], "--count", "6")
    t.run("campaign", "settings", "-a", f"{system}=prompt")
    for n in range(1, 7):
        t.run("damage", f"fighter{n}", "--amount", str(4 + n))
    t.run("round")
    out = t.run("status").stdout
    lines = out.splitlines()
    assert len(lines) <= 24, out
    assert all(len(line) <= 80 for line in lines), out
    for n in range(1, 7):
        assert any(line.split()[:1] in (["fighter" + str(n)], [">fighter" + str(n)]) for line in lines), out
    assert "game time" in lines[0]
