"""Damaged and read-only databases through the real executable: one bad campaign is a clear error
for that campaign only, the rest stay usable, and a database that cannot be written is still read."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hostile_run import Db, assert_refused


def test_campaign_list_survives_a_poisoned_row(db: Db) -> None:
    db.ok("campaign", "new", "other", "--system", "gurps", "--no-use")
    db.execute("UPDATE campaigns SET created = 1e300 WHERE name = 'keep'")
    listed = db.ok("campaign", "list")
    assert "other" in listed.stdout and "keep" in listed.stdout and "damaged" in listed.stdout
    rows = {c["name"]: c for c in json.loads(db.ok("campaign", "list", "--json").stdout)["campaigns"]}
    assert rows["other"]["problem"] is None and "not a date" in rows["keep"]["problem"]
    db.ok("-cother", "campaign", "show")


def test_a_corrupt_event_is_named_and_the_other_campaigns_work(db: Db) -> None:
    db.ok("campaign", "new", "other", "--system", "gm", "--no-use")
    db.execute("UPDATE events SET command = '{garbage' WHERE seq = 1")
    for args in (["log"], ["campaign", "export", "keep"]):
        assert_refused(db.run(*args), code=1, fragment="campaign 'keep': event #1 is corrupt")
    db.ok("-cother", "char", "add", "ana", "--set", "archetype=warrior", "--set", "level=1")
    assert "add ana" in db.ok("-c", "other", "log", "--brief").stdout


def test_a_wall_time_beyond_the_calendar_does_not_break_the_log(db: Db) -> None:
    db.execute("UPDATE events SET wall_time = 1e300 WHERE seq = 1")
    entries = json.loads(db.ok("log", "--json").stdout)
    assert entries  # read, with the impossible time shown as the start of 1970


def test_a_garbage_snapshot_is_reported_and_replaced(db: Db) -> None:
    db.ok("damage", "toromeen", "--amount", "1", "--in-combat")
    db.ok("undo")  # an undo keeps a snapshot
    db.execute("UPDATE snapshots SET data = 'garbage'")
    run = db.ok("campaign", "show")
    assert "warning" in run.stderr and "replayed the history" in run.stderr
    assert "warning" not in db.ok("campaign", "show").stderr


def test_dash_c_written_together_with_its_name(db: Db) -> None:
    db.ok("campaign", "new", "second", "--system", "gm", "--no-use")
    db.ok("-csecond", "char", "add", "ana", "--set", "archetype=warrior", "--set", "level=1")
    before = db.versions()
    db.ok("-csecond", "damage", "ana", "--amount", "1")  # an action: its system is found from -cNAME
    assert db.versions()["second"] == before["second"] + 1 and db.versions()["keep"] == before["keep"]


def _can_mount_read_only() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(not _can_mount_read_only(), reason="needs a private mount namespace (unshare -m)")
def test_a_read_only_filesystem_is_still_read(db: Db, tmp_path: Path) -> None:
    folder = db.path.parent
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,bind,ro {folder} && "
        f'"$0" campaign list && "$0" log --brief && "$0" damage toromeen --amount 1; echo "exit $?"'
    )
    from hostile_run import EXE

    proc = subprocess.run(
        ["unshare", "-m", "sh", "-c", script, EXE], capture_output=True, text=True, env=db.env, timeout=120
    )
    assert "keep" in proc.stdout and "add toromeen" in proc.stdout, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("exit 1") and "the file is read-only" in proc.stderr
    assert "Traceback" not in proc.stderr
