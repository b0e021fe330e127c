"""Dice typed at the terminal (issue #27 item 4): "4 4 4", "4,4,4" and "4+4+4" are three dice, a
total is judged where the check takes one, and anything ambiguous is refused in our words."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.cli_table import Table


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.run("campaign", "new", "dice-night", "--system", "gurps", "--seed", "5")
    t.run("char", "add", "ana")
    t.run("campaign", "settings", "-a", "*=prompt")
    return t


def _will_roll(t: Table) -> int:
    t.run("will_roll", "ana")
    (pending,) = t.json("pending")["pending"]
    return int(pending["id"])


def test_three_fours_however_they_are_typed(table: Table) -> None:
    for text in ("4 4 4", "4,4,4", "4+4+4"):
        pending = _will_roll(table)
        out = table.json("resolve", str(pending), "--dice", text)
        rolled = [line for entry in out["explanation"] for line in [entry["text"]] if "rolled" in line]
        assert rolled and "rolled 12 (4, 4, 4)" in rolled[0], (text, out["explanation"])
        assert table.json("pending")["pending"] == []


def test_a_total_is_judged_where_the_check_takes_one(table: Table) -> None:
    pending = _will_roll(table)
    out = table.json("resolve", str(pending), "--dice", "12")
    assert any("total 12 typed at the table" in entry["text"] for entry in out["explanation"])


@pytest.mark.parametrize("text", ["5-3-2", "6.5.4", "four"])
def test_ambiguous_dice_are_refused_naming_the_form_and_count(table: Table, text: str) -> None:
    pending = _will_roll(table)
    table.refused("resolve", str(pending), "--dice", text, code=2, fragment="expected 3 die values separated by")
    assert len(table.json("pending")["pending"]) == 1  # nothing was read as a die


def test_an_action_s_rolled_dice_are_read_the_same_way(table: Table) -> None:
    table.run("campaign", "settings", "-a", "*=auto")
    out = table.json("will_roll", "ana", "--rolled", "3+3+3")
    assert any("rolled 9 (3, 3, 3)" in entry["text"] for entry in out["explanation"])
    table.refused("will_roll", "ana", "--rolled", "3-3-3", code=2, fragment="could mean more than one thing")


def test_a_check_resolved_twice_names_the_entry_that_resolved_it(table: Table) -> None:
    # issue #27 item 5: "already resolved by #N", not "no pending check #N"
    pending = _will_roll(table)
    table.run("resolve", str(pending), "--dice", "3 3 3")
    seq = table.version()
    table.refused("resolve", str(pending), "--dice", "4 4 4", code=1, fragment=f"already resolved by #{seq}")
