"""The odds in words at the terminal (issue #25): `pending` and `status` say what the result means
for the character, not a bare "success"."""

from __future__ import annotations

from pathlib import Path

from support.cli_table import Table


def test_pending_and_status_name_the_outcome_the_odds_are_of(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "odds-night", "--system", "gm", "--seed", "2")
    t.run("char", "add", "ana", "--set", "level=1")
    t.run("campaign", "settings", "-a", "*=prompt")
    t.run("damage", "ana", "--amount", "40")
    pending = t.json("pending")["pending"]
    conscious = [p for p in pending if p["purpose"] == "consciousness"]
    assert conscious, pending
    label = conscious[0]["odds_label"]
    assert label.startswith("ana stays conscious ") and label.endswith("%")
    shown = " ".join(t.run("pending").stdout.split())
    assert label in shown
    t.env["COLUMNS"] = "200"  # the board cuts lines to the terminal's width
    status = " ".join(t.run("status").stdout.split())
    assert label in status
