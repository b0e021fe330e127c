"""Diagnosis for ``server.py``'s goal of two PostgreSQL workers at least as fast as one SQLite
worker: one ``rulekeeper serve --workers 2`` on PostgreSQL takes the throughput load (one
client per campaign, GURPS damage and healing alternating) in alternating rounds of two
variants, A (as it runs) and B (one change), so that the noise of a shared machine falls on
both alike.

Usage (from this folder)::

    ../.venv/bin/python workers_ab.py balanced [--campaigns 10] [--actions 300] [--rounds 8]
    ../.venv/bin/python workers_ab.py pinned
    ../.venv/bin/python workers_ab.py pg:wal_sync_method=open_datasync

* ``balanced``: B's connections are chosen so that each worker holds as many as the other (A
  takes the kernel's spreading, ``SO_REUSEPORT``, which may give one worker 7 of 10).
* ``pinned``: in B each worker keeps a core of its own (``sched_setaffinity``); A lets the
  scheduler move them.
* ``pg:NAME=VALUE``: B runs with that PostgreSQL setting (``ALTER SYSTEM``, reloaded), A with
  the defaults; only settings a reload applies.

Prints each round's actions/s, how the connections fell on the workers, and each variant's
mean. A diagnosis, not a benchmark: it answers whether the change matters on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

import httpx
from load_client import LeanConnection
from server import new_campaign, play, serving

from rulekeeper.store.local_postgres import start_local_postgres


async def _worker_of(url: str) -> tuple[LeanConnection, int]:
    """A new kept-alive connection, and the process that took it (``/api/health``)."""
    connection = LeanConnection(url)
    return connection, int(json.loads(await connection.get("/api/health"))["process"])


async def _round(url: str, tag: str, campaigns: int, actions: int, balanced: bool) -> tuple[float, list[int]]:
    names = [f"{tag}-{i}" for i in range(campaigns)]
    async with httpx.AsyncClient(base_url=url, timeout=120) as setup:
        gms = [(await new_campaign(setup, name))[0] for name in names]
    by_worker: dict[int, list[LeanConnection]] = {}
    spare: list[LeanConnection] = []
    while sum(len(held) for held in by_worker.values()) < campaigns:
        connection, worker = await _worker_of(url)
        held = by_worker.setdefault(worker, [])
        if balanced and len(held) >= -(-campaigns // 2):
            spare.append(connection)
            continue
        held.append(connection)
    for connection in spare:
        await connection.close()
    clients = [c for held in by_worker.values() for c in held]
    latencies: list[float] = []
    start = time.perf_counter()
    await asyncio.gather(*(play(c, n, g, actions, latencies) for c, n, g in zip(clients, names, gms, strict=True)))
    elapsed = time.perf_counter() - start
    for connection in clients:
        await connection.close()
    return len(latencies) / elapsed, sorted(len(held) for held in by_worker.values())


def _workers(session: int) -> list[int]:
    """The worker processes of a ``serve`` session (uvicorn spawns them with multiprocessing)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getsid(int(entry)) != session:
                continue
            argv = Path(f"/proc/{entry}/cmdline").read_bytes()
        except (OSError, ProcessLookupError):
            continue
        if b"multiprocessing.spawn" in argv:
            found.append(int(entry))
    return found


def _setting(url: str, pairs: list[tuple[str, str]]) -> None:
    import psycopg
    import sqlalchemy as sa

    made = sa.engine.make_url(url)
    query = {k: v for k, v in made.query.items() if isinstance(v, str)}
    with psycopg.connect(
        dbname=made.database, user=made.username, host=query.get("host", made.host), port=made.port, autocommit=True
    ) as conn:
        conn.execute("ALTER SYSTEM RESET ALL")
        for name, value in pairs:
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        conn.execute("SELECT pg_reload_conf()")
    time.sleep(0.5)  # the postmaster signals the backends; give them a moment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", help="balanced, pinned or pg:NAME=VALUE")
    parser.add_argument("--campaigns", type=int, default=10)
    parser.add_argument("--actions", type=int, default=300, help="actions per campaign client per round")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of each variant")
    args = parser.parse_args()
    variant: str = args.variant
    if variant not in ("balanced", "pinned") and not (variant.startswith("pg:") and "=" in variant):
        raise SystemExit(f"unknown variant {variant!r}; expected balanced, pinned or pg:NAME=VALUE")
    if variant == "pinned" and (os.cpu_count() or 1) < 2:
        raise SystemExit("pinned needs two cores")
    work = Path(tempfile.mkdtemp(prefix="rk-workers-ab-"))
    pg = start_local_postgres(work / "pg")
    try:
        url = pg.create_database("rk_workers_ab")
        rates: dict[str, list[float]] = {"A": [], "B": []}
        with serving(url, 2, work / "serve.log") as server:
            asyncio.run(_round(server.url, "warm", args.campaigns, 50, False))
            workers = _workers(server.session)
            cores = sorted(os.sched_getaffinity(0))
            for number in range(args.rounds):
                for which in "AB" if number % 2 == 0 else "BA":
                    b = which == "B"
                    if variant == "pinned":
                        for i, pid in enumerate(workers):
                            os.sched_setaffinity(pid, {cores[i % len(cores)]} if b else set(cores))
                    elif variant.startswith("pg:"):
                        name, _, value = variant[3:].partition("=")
                        _setting(url, [(name, value)] if b else [])
                    rate, split = asyncio.run(
                        _round(
                            server.url, f"r{number}{which}", args.campaigns, args.actions, b and variant == "balanced"
                        )
                    )
                    rates[which].append(rate)
                    print(
                        f"round {number + 1} {which}: {rate:7.1f} actions/s   connections per worker {split}",
                        flush=True,
                    )
        for which, label in (("A", "as it runs"), ("B", variant)):
            got = sorted(round(r) for r in rates[which])
            print(f"{which} ({label}): mean {sum(rates[which]) / len(rates[which]):7.1f} actions/s   rounds {got}")
    finally:
        pg.stop()


if __name__ == "__main__":
    main()
