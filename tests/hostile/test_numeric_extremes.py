"""Numbers no table uses: each one a one-line error with exit 2, in bounded time and memory, with
nothing written. Before this suite each of these ended in a traceback, an internal error, or
minutes of work (``odds 1d1000000``: 18 s and 700 MB; ``round 1000000``: a million events)."""

from __future__ import annotations

import json

import pytest
from hostile_run import Db, assert_refused

NINES_400 = "9" * 400


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["roll", "3d6", "--seed", "²"], "--seed"),
        (["roll", "1" * 4_400 + "d6"], "4,402 characters, over the limit of 1,000"),
        (["roll", "9" * 2_200 + "*" + "9" * 2_200], "over the limit"),
        (["roll", f"1d6*{NINES_400}"], "400 digits is over the limit"),
        (["odds", f"1d6*{NINES_400}"], "400 digits is over the limit"),
        (["odds", "1000000*1000000*1000000*1d6"], "beyond the limit"),
        (["odds", "1d1000000"], "over the limit of 2,000,000"),
        (["odds", "1d1000000", "--json"], "over the limit of 2,000,000"),
        (["check", "wg", "--pool", "1000"], "a pool of 1 to 60 dice"),
        (["check", "wg", "--pool", "6", "--wrath-dice", "100000"], "a pool of 1 to 60 dice"),
        (["check", "gurps", NINES_400], "target a number of 400 digits is out of range"),
        (["check", "6810", "8", "--threshold", "-99999999"], "threshold -99999999 is out of range"),
        (["feat", "wg", "odds", "--pool", NINES_400], "pool="),
    ],
)
def test_dice_and_odds_refuse_extremes(db: Db, args: list[str], fragment: str) -> None:
    run = db.run(*args)
    assert_refused(run, fragment=fragment)
    if "--json" in args:
        assert len(run.stdout) < 1_000 and json.loads(run.stdout)["error"]["exit_code"] == 2


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["undo", "99999999999999999999"], "bad command number"),
        (["advance", "9" * 5_000 + "s"], "5,001 characters"),
        (["advance", "9" * 50 + "s"], "50 digits"),
        (["round", "1000000"], "1 to 1,000"),
        (["round", "0"], "1 to 1,000"),
        (["damage", "toromeen", "--amount", "9" * 5_000], "amount"),
        (["damage", "toromeen", "--amount", "1e400"], "amount"),
    ],
)
def test_campaign_commands_refuse_extremes_and_write_nothing(db: Db, args: list[str], fragment: str) -> None:
    before = db.rows()
    assert_refused(db.run(*args), fragment=fragment)
    assert db.rows() == before


def test_round_n_is_one_command(db: Db) -> None:
    before = db.versions()["keep"]
    db.ok("round", "25")
    assert db.versions()["keep"] == before + 1
    shown = json.loads(db.ok("campaign", "show", "--json").stdout)
    assert shown["clock"] == 250  # Gods & Monsters rounds are ten seconds


def test_wrath_and_glory_pool_is_refused_before_any_work(db: Db) -> None:
    db.ok("campaign", "new", "wrath", "--system", "wg")
    db.ok("char", "add", "ana", "--set", "tier=1", "--set", "toughness=3", "--set", "willpower=3")
    before = db.rows()
    assert_refused(db.run("test", "ana", "--pool", "800"), fragment="pool=800 is out of range")
    assert_refused(db.run("test", "ana", "--pool", "6", "--bonus-dice", "1000"), fragment="out of range")
    assert db.rows() == before
