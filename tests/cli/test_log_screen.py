"""``log`` shows the latest screenful and says how much came before; ``--all`` and ``--json`` show it all."""

from __future__ import annotations

import json

import pytest

from support.cli_table import Table


@pytest.fixture(scope="module")
def long_night(tmp_path_factory: pytest.TempPathFactory) -> Table:
    table = Table(tmp_path_factory.mktemp("night"))
    table.run("campaign", "new", "long", "--system", "gurps", "--seed", "5")
    table.run("char", "add", "ingrid", "--set", "ht=12")
    for _ in range(20):
        table.run("damage", "ingrid", "--amount", "1")
        table.run("heal", "ingrid", "--amount", "1")
    table.run("undo")
    return table


def _lines(table: Table, *args: str, lines: int = 24) -> list[str]:
    table.env["LINES"] = str(lines)
    try:
        return table.run("log", *args).stdout.splitlines()
    finally:
        del table.env["LINES"]


def test_the_latest_screenful_and_a_footer(long_night: Table) -> None:
    shown = _lines(long_night)
    assert len(shown) <= 24 - 1  # room left for the prompt
    assert shown[-1].startswith("(") and "earlier entries not shown; --all shows every one" in shown[-1]
    heads = [line for line in shown if line.startswith("#")]
    assert heads[-1].startswith("#42 ") and "undo" in heads[-1]  # the newest entry is last, as always
    seqs = [int(line[1:].split()[0]) for line in heads]
    assert seqs == list(range(seqs[0], 43))
    earlier = int(shown[-1][1:].split()[0])
    assert earlier == seqs[0] - 1


def test_a_taller_screen_shows_more_and_all_shows_everything(long_night: Table) -> None:
    short, tall = _lines(long_night, lines=10), _lines(long_night, lines=60)
    assert len(short) <= 9 and len(tall) > len(short)
    everything = _lines(long_night, "--all", lines=10)
    assert next(line for line in everything if line.startswith("#")).startswith("#1 ")
    assert not everything[-1].startswith("(")
    assert len(json.loads(long_night.run("log", "--json").stdout)["entries"]) == 42


def test_filters_count_only_what_matches(long_night: Table) -> None:
    brief = _lines(long_night, "--brief", "--char", "ingrid")
    assert len(brief) == 23 and brief[-1].startswith("(")
    assert int(brief[-1][1:].split()[0]) == 42 - 22  # all 42 entries concern ingrid; 22 fit


def test_one_entry_longer_than_the_screen_is_still_shown(long_night: Table) -> None:
    shown = _lines(long_night, "--explain", lines=5)
    assert shown[0].startswith("#42 ") and shown[-1].startswith("(41 earlier entries")
