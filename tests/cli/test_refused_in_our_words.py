"""Input an independent review found taken, or refused with a traceback, through the real
``rulekeeper`` executable: each is now refused with exit 2, in our words, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.cli_table import Table


@pytest.fixture
def table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    t.run("campaign", "new", "night", "--system", "gurps", "--seed", "5")
    t.run("char", "add", "hero", "--set", "st=11")
    return t


def _members(t: Table) -> int:
    return len(t.json("campaign", "members")["members"])


@pytest.mark.parametrize(
    "url", ["http://[::1", "http://x:99999", "http://x:abc", "http://x:-1", "http://:80", "http://x y", "http://x\x1b"]
)
def test_a_link_to_no_server_is_refused_and_no_token_made(table: Table, url: str) -> None:
    before = _members(table)
    proc = table.run("campaign", "invite", "--player", "ana", "--url", url, code=2)
    assert "is not a server address" in proc.stderr and "PORT from 1 to 65535" in proc.stderr, proc.stderr
    assert _members(table) == before


def test_a_token_that_would_end_at_once_is_not_made(table: Table) -> None:
    before = _members(table)
    proc = table.run("campaign", "invite", "--player", "ana", "--expires", "0d", code=2)
    assert "ends the token at once" in proc.stderr
    assert _members(table) == before


def test_a_new_character_id_must_stand_in_an_address(table: Table) -> None:
    for bad in ("a/b", "..", "x?y", "x" * 300):
        table.refused("char", "rename", "hero", bad, code=2, fragment="character id")
    table.run("char", "rename", "hero", "hero-2")


def test_a_sheet_holding_a_terminal_control_sequence_is_refused(table: Table) -> None:
    table.refused("char", "edit", "hero", "--set", "name=\x1b[2JPWNED", code=2, fragment="U+001B")
    table.refused("char", "add", "villain", "--set", "name=Evil\u202egnirts", code=2, fragment="U+202E")
    shown = table.run("char", "show", "hero").stdout
    assert "\x1b" not in shown


def test_an_imported_campaign_is_named_as_an_address_can_hold(table: Table, tmp_path: Path) -> None:
    out = tmp_path / "night.json"
    table.run("campaign", "export", "-o", str(out))
    proc = table.run("campaign", "import", str(out), "--name", "x/y", code=2)
    assert "cannot stand in an address" in proc.stderr, proc.stderr
    table.run("campaign", "import", str(out), "--name", "Old table")  # a name from before slugs still opens
    document = json.loads(out.read_text())
    document["campaign"]["name"] = "a/b"
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(document))
    proc = table.run("campaign", "import", str(odd), code=2)
    assert "--name" in proc.stderr, proc.stderr
    names = [c["name"] for c in table.json("campaign", "list")["campaigns"]]
    assert "a/b" not in names and "x/y" not in names and "Old table" in names
    table.run("campaign", "import", str(odd), "--name", "copy")


def test_a_simulation_starts_no_more_workers_than_the_limit(table: Table) -> None:
    proc = table.run("simulate", "gurps-duel", "--runs", "10", "--workers", "100000", code=2)
    assert "--workers" in proc.stderr and "64" in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"st": 12,', "is not valid JSON"),
        ("st: [1\nht: 2\n", "is not valid YAML"),
        ("st: !!python/object/apply:os.system ['true']\n", "!!python"),
        ("st: !!timestamp 2026-13-45\n", "such as month 13"),
        ('{"st": ' + "9" * 5000 + "}", "more than 4,300 digits"),
    ],
)
def test_a_sheet_file_that_cannot_be_read_is_said_so_in_our_words(
    table: Table, tmp_path: Path, text: str, said: str
) -> None:
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text(text)
    proc = table.run("char", "add", "villain", "--sheet", str(sheet), code=2)
    assert said in proc.stderr, proc.stderr
    for theirs in ("Expecting", "did not find", "could not determine", "month must be", "sys.set_int_max_str_digits"):
        assert theirs not in proc.stderr, proc.stderr


def test_a_database_that_is_no_campaign_file_is_bad_input_in_our_words(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    proc = Table(tmp_path).run("--db", str(text), "campaign", "list", code=2)
    assert "it is not a SQLite database" in proc.stderr and "file is not a database" not in proc.stderr
    assert text.read_text() == "not a database"
