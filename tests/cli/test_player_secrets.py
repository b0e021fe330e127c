"""VI·VIII·X secrets stay with the GM in every player-facing output of the real ``rulekeeper`` executable.

US values are known only to the GM (seed 001, VIII.1; rules brief, "Player-visible vs GM-only").
A ranger with BU 4 and the secret VIG 9 makes an ARC on BU + VIG (total 13) that waits for dice,
and so does a wolf played by the GM with a secret SNIFF. Player-facing output -- the ``player_view``
action, and ``pending``, ``log`` and ``char list`` with ``--as-player`` -- must show neither the US
names nor values, nor totals or odds computed from them, nor other characters' checks; without
``--as-player`` those commands are the GM's views and show everything.
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
SECRETS = ("VIG", "SNIFF", "13 +", "% to succeed", "probability")


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


class Table:
    def __init__(self, tmp_path: Path) -> None:
        self.env = {**os.environ, "RULEKEEPER_DB": str(tmp_path / "c.db"), "NO_COLOR": "1", "COLUMNS": "80"}

    def run(self, *args: str, code: int = 0) -> str:
        proc = subprocess.run([EXE, *args], capture_output=True, text=True, env=self.env, timeout=120)
        assert proc.returncode == code, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
        return proc.stdout + proc.stderr

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args, "--json"))


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    # One campaign for the module: every test here only reads it (player_view records a view, no change).
    t = Table(tmp_path_factory.mktemp("secrets"))
    t.run("campaign", "new", "night", "--system", "6810")
    stats = ["--set", "BU=4", "--set", "CO=5", "--set", "IN=4", "--set", "EM=5"]
    t.run("char", "add", "ranger", *stats, "--set", 'us={"VIG": {"ks": "BU", "value": 9}}', "--player", "ana")
    t.run("char", "add", "wolf", *stats, "--set", 'us={"SNIFF": {"ks": "IN", "value": 7}}', "--npc")
    t.run("campaign", "settings", "-a", "vi-viii-x.arc=prompt")
    t.run("arc", "ranger", "--ks", "bu", "--us", "VIG", "--threshold", "easy")
    t.run("arc", "wolf", "--ks", "in", "--us", "SNIFF", "--threshold", "easy")
    # A US-only wound: the player must learn nothing of it.
    t.run("damage", "ranger", "--amount", "2", "--ks", "bu", "--us", "VIG")
    return t


def test_gm_views_show_everything(table: Table) -> None:
    t = table
    pending = t.json("pending")["pending"]
    assert [p["actor"] for p in pending] == ["ranger", "wolf"]
    assert "13 + roll modifier" in pending[0]["check"] and pending[0]["probability"] == 1.0
    assert "VIG" in t.run("log")
    assert "injured" in t.run("char", "list")


def test_player_view_action_shows_only_the_players_own_redacted_checks(table: Table) -> None:
    t = table
    out = t.json("player_view", "ranger")
    assert out["as_player"] == "ranger"
    assert [p["actor"] for p in out["pending"]] == ["ranger"]
    assert out["pending"][0]["threshold"] == 6 and out["pending"][0]["dice"] == ["d14"]
    text = json.dumps(out)
    assert _leaks(text) == [], text
    assert out["result"]["player_view"]["bu"] == 4 and out["result"]["player_view"]["conditions"] == []
    assert _leaks(t.run("player_view", "ranger")) == []


def test_pending_log_and_char_list_as_player(table: Table) -> None:
    t = table
    for who in ("ranger", "ana"):  # a character id or the player's name
        pending = t.json("pending", "--as-player", who)
        assert [p["actor"] for p in pending["pending"]] == ["ranger"], pending
        assert _leaks(json.dumps(pending)) == []
        text = t.run("pending", "--as-player", who)
        assert "roll d14 against 6" in text and _leaks(text) == [], text
        log = t.json("log", "--as-player", who)
        assert [line for e in log["entries"] for line in e["lines"]] == ["ranger takes physical damage"], log
        assert _leaks(json.dumps(log)) == [], log
        text = t.run("log", "--as-player", who)
        assert "ranger takes physical damage" in text and _leaks(text) == [], text
        chars = t.json("char", "list", "--as-player", who)["characters"]
        assert list(chars) == ["ranger"] and chars["ranger"]["conditions"] == []
        assert _leaks(json.dumps(chars)) == []
        listed = t.run("char", "list", "--as-player", who)
        assert listed.split() == ["ranger"], listed


def test_as_player_with_an_unknown_name_is_bad_input(table: Table) -> None:
    t = table
    for command in (("pending",), ("log",), ("char", "list")):
        out = t.run(*command, "--as-player", "nobody", code=2)
        assert "'nobody' is neither a character nor a player here" in out and len(out.strip().splitlines()) == 1


DANGER_WORDS = ("Danger Sense", "danger", "Perception in secret")


@pytest.mark.parametrize("danger", ["auto", "prompt"])
def test_a_gurps_danger_sense_roll_stays_with_the_gm(tmp_path: Path, danger: str) -> None:
    """Danger Sense is the GM's secret Perception roll (seed 004, "Sense Roll"): a player whose
    Vision roll failed sees that failure and nothing of the roll that followed, rolled or waiting."""
    t = Table(tmp_path)
    t.run("campaign", "new", "night", "--system", "gurps")
    t.run("char", "add", "hero", "--set", "per=3", "--player", "ana")  # Per 3 fails on 3d6 but for a 3
    t.run("campaign", "settings", "-a", f"gurps.sense.danger={danger}")
    # Dice typed with a command never feed a GM-secret roll: more than the Vision roll's three are
    # refused as for any command, and the Danger Sense roll waits for the GM even under auto.
    out = t.run("sense", "hero", "--dangerous", "--danger-sense", "--rolled", "4,4,3,5,6,1", code=2)
    assert "6 dice were typed but the rules used only 3" in out, out
    t.run("sense", "hero", "--dangerous", "--danger-sense", "--rolled", "4,4,3")
    gm_pending = t.json("pending")["pending"]
    assert [p["kind"] for p in gm_pending] == ["gurps.sense.danger"], gm_pending
    t.run("resolve", str(gm_pending[0]["id"]), "--auto")  # the GM has the engine roll it
    gm_log = t.run("log", "--all")
    assert "Danger Sense" in gm_log, gm_log  # the GM does see it, so the searches below mean something
    for who in ("hero", "ana"):
        text = t.run("log", "--as-player", who)
        assert "hero does not notice it" in text, text
        assert [w for w in DANGER_WORDS if w in text] == [], text
        entries = t.json("log", "--as-player", who)["entries"]
        said = json.dumps(entries)
        assert "hero does not notice it" in said and [w for w in DANGER_WORDS if w in said] == [], said
        pending = json.dumps(t.json("pending", "--as-player", who))
        assert [w for w in DANGER_WORDS if w in pending] == [], pending


def test_the_gm_sets_a_roll_mode_from_the_cli(tmp_path: Path) -> None:
    """``campaign settings --roll-mode``: Danger Sense made private shows the player its roll;
    ``default`` gives the rules' own mode back; a mode that is not one is refused in our words."""
    t = Table(tmp_path)
    t.run("campaign", "new", "night", "--system", "gurps")
    t.run("char", "add", "hero", "--set", "per=3", "--player", "ana")
    t.run("campaign", "settings", "-a", "gurps.sense.danger=prompt")
    shown = t.json("campaign", "settings")
    assert (
        shown["roll_modes"]["gurps.sense.danger"] == "blind" and shown["roll_modes"]["gurps.sense.vision"] == "private"
    )
    t.run("campaign", "settings", "--roll-mode", "gurps.sense.danger=private")
    assert t.json("campaign", "settings")["roll_modes"]["gurps.sense.danger"] == "private"
    assert "gurps.sense.danger           private" in t.run("campaign", "settings")
    t.run("sense", "hero", "--dangerous", "--danger-sense", "--rolled", "4,4,3")
    pending = t.json("pending", "--as-player", "ana")["pending"]
    assert [p["kind"] for p in pending] == ["gurps.sense.danger"], pending
    t.run("campaign", "settings", "--roll-mode", "gurps.sense.danger=default")
    assert t.json("campaign", "settings")["roll_modes"]["gurps.sense.danger"] == "blind"
    assert t.json("pending", "--as-player", "ana")["pending"] == []
    out = t.run("campaign", "settings", "--roll-mode", "gurps.sense.danger=loud", code=2)
    assert "'loud' is not a roll mode" in out and "public, private, blind" in out, out
