"""Several processes and sudden death: nothing acknowledged is lost, nothing is duplicated."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from rulekeeper.campaign import Campaign, Store, open_store
from rulekeeper.core.serial import state_to_json

WORKER = Path(__file__).parent / "campaign_worker.py"
POOL_HP = 1_000_000


def _campaign(store_url: str, name: str) -> None:
    with open_store(store_url) as store:
        c = Campaign.create(store, name, "toy", seed=99)
        c.add_character("pool", {"max_hp": POOL_HP})


def _spawn(
    store_url: str, name: str, mode: str, count: int, worker: str, start: Path | None = None
) -> subprocess.Popen[str]:
    args = [sys.executable, str(WORKER), store_url, name, mode, str(count), worker]
    if start is not None:
        args.append(str(start))
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _check_consistent(store: Store, name: str) -> Campaign:
    c = Campaign.open(store, name)
    full = Campaign.open(store, name, use_snapshots=False)
    assert state_to_json(c.ruleset, c.state) == state_to_json(c.ruleset, full.state)
    c.verify()
    return c


@pytest.mark.slow
def test_killed_writer_loses_nothing_it_acknowledged(store_url: str) -> None:
    _campaign(store_url, "crash")
    rng = random.Random(int.from_bytes(os.urandom(4), "big"))
    acknowledged: dict[str, int] = {}
    for round_ in range(3):
        proc = _spawn(store_url, "crash", "burst", 100_000, f"r{round_}")
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        wanted = rng.randint(5, 120)
        for _ in range(wanted):
            line = proc.stdout.readline().split()
            acknowledged[line[1]] = int(line[2])
        # Let it run on for a random moment, then kill it without warning.
        for _ in range(rng.randint(0, 30)):
            line = proc.stdout.readline().split()
            acknowledged[line[1]] = int(line[2])
        os.kill(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate()
        for raw in rest.splitlines():
            parts = raw.split()
            if len(parts) == 3 and parts[0] == "ok":
                acknowledged[parts[1]] = int(parts[2])
        assert proc.returncode == -signal.SIGKILL

        with open_store(store_url) as store:
            c = _check_consistent(store, "crash")
            # The history as this object loaded it. On PostgreSQL a statement the killed writer
            # had sent may still commit a moment after its death (the server finishes what it
            # was given); that event was never acknowledged, and log() would already read it.
            log = {e.key: e.seq for e in c.log() if e.key is not None and e.seq <= c.version}
            for key, seq in acknowledged.items():
                assert log.get(key) == seq, f"acknowledged {key} (#{seq}) is missing"
            assert c.version >= max(acknowledged.values())
            # Every event but the first (add) and our own next_round after each crash had a key.
            assert len(log) == c.version - 1 - round_
            assert c.view("pool")["hp"] == POOL_HP - len(log)
            c.next_round()  # the database is writable after the crash


@pytest.mark.slow
def test_concurrent_writers_lose_nothing_and_duplicate_nothing(store_url: str, tmp_path: Path) -> None:
    _campaign(store_url, "busy")
    start = tmp_path / "go"
    workers = [_spawn(store_url, "busy", "mixed", 50, f"w{n}", start) for n in range(4)]
    for proc in workers:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    start.touch()
    outputs = []
    for proc in workers:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        outputs.append(out.split("\n"))

    ok: dict[str, int] = {}
    conflicts = retried = 0
    for lines in outputs:
        for raw in lines:
            parts = raw.split()
            if not parts:
                continue
            assert parts[0] != "unexpected", raw
            if parts[0] == "ok":
                assert parts[1] not in ok
                ok[parts[1]] = int(parts[2])
            elif parts[0] == "conflict":
                conflicts += 1
            elif parts[0] == "retried":
                retried += 1
                assert ok[parts[1]] == int(parts[2]) and parts[3] == "1"
    assert len(ok) == 200 and len(set(ok.values())) == 200
    assert conflicts >= 4 * 5  # every deliberately stale command was refused as a conflict
    assert retried == 4 * 8

    with open_store(store_url) as store:
        c = _check_consistent(store, "busy")
        assert c.version == 1 + 200
        keys = [e.key for e in c.log() if e.key is not None]
        assert len(keys) == len(set(keys)) == 200
        assert {e.key: e.seq for e in c.log() if e.key} == ok
        assert c.view("pool")["hp"] == POOL_HP - 200  # no lost update
