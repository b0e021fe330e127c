"""``rulekeeper serve`` benchmark: actions per second and latency under concurrent campaigns, and
how long a command takes to reach 20 live stream clients.

    .venv/bin/python benchmarks/server.py [--actions 40] [--backends sqlite,postgresql]

For each backend -- SQLite with one worker (the default), PostgreSQL with two workers -- it
starts a real ``rulekeeper serve`` subprocess on 127.0.0.1 and prints:

* for 1, 10 and 50 concurrent campaigns (one client each, sending ``--actions`` GURPS actions
  one after another, damage and healing alternating): actions per second over the whole run,
  and the p50/p95 latency of one action (request sent to response read);
* with 20 clients holding the event stream of one campaign (players of its characters), the time
  from an action's response reaching the sender to its event reaching each client, p50/p95 over
  every (client, action) pair. Negative means the event arrived before the response.

Last, the time to first render of the GM dashboard for 8 characters and 10,000 events
(``benchmarks/dashboard.py``).

Goals: p95 action latency under 50 ms at 10 campaigns on SQLite; p95 live delivery under 100 ms;
dashboard first render under 300 ms.
Numbers depend on the machine: a shared two-core box measures the others' load too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

RULEKEEPER = str(Path(sys.executable).parent / "rulekeeper")
SHEET = {"st": 10, "ht": 12}
CONCURRENCY = (1, 10, 50)
STREAM_CLIENTS = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(db: str, workers: int, log: Path) -> Iterator[str]:
    port = _free_port()
    env = {**os.environ, "RULEKEEPER_DB": db}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [RULEKEEPER, "serve", "--port", str(port), "--workers", str(workers)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"rulekeeper serve exited:\n{log.read_text()}")
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("rulekeeper serve did not answer")
            time.sleep(0.1)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def new_campaign(client: httpx.AsyncClient, name: str, players: int = 0) -> tuple[str, list[str]]:
    r = await client.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 1})
    r.raise_for_status()
    gm = r.json()["gm_token"]
    headers = {"Authorization": f"Bearer {gm}"}
    for actor in ("hero", "foe"):
        r = await client.post(
            f"/api/campaigns/{name}/characters", headers=headers, json={"actor": actor, "sheet": SHEET}
        )
        r.raise_for_status()
    tokens = []
    for i in range(players):
        r = await client.post(
            f"/api/campaigns/{name}/members", headers=headers, json={"name": f"p{i}", "role": "observer"}
        )
        r.raise_for_status()
        tokens.append(r.json()["token"])
    return gm, tokens


def _action(name: str, i: int) -> tuple[str, dict[str, Any]]:
    if i % 2 == 0:
        return f"/api/campaigns/{name}/gurps/actions/damage", {"actor": "hero", "params": {"amount": 1}}
    return f"/api/campaigns/{name}/gurps/actions/heal", {"actor": "hero", "params": {"amount": 1}}


async def throughput(url: str, tag: str, concurrency: int, actions: int) -> tuple[float, float, float]:
    # One client (one connection) per campaign, like separate bots or browsers: a single pooled
    # client shared by fifty tasks measures its own pool more than the server.
    names = [f"{tag}-c{concurrency}-{i}" for i in range(concurrency)]
    clients = [httpx.AsyncClient(base_url=url, timeout=120) for _ in names]
    try:
        gms = [(await new_campaign(client, name))[0] for client, name in zip(clients, names, strict=True)]
        latencies: list[float] = []

        async def play(client: httpx.AsyncClient, name: str, gm: str) -> None:
            headers = {"Authorization": f"Bearer {gm}"}
            for i in range(actions):
                path, body = _action(name, i)
                start = time.perf_counter()
                r = await client.post(path, headers=headers, json=body)
                latencies.append(time.perf_counter() - start)
                r.raise_for_status()

        if concurrency == 1:
            await play(clients[0], names[0], gms[0])  # warm the server's caches
            latencies.clear()
        start = time.perf_counter()
        await asyncio.gather(*(play(c, n, g) for c, n, g in zip(clients, names, gms, strict=True)))
        elapsed = time.perf_counter() - start
    finally:
        for client in clients:
            await client.aclose()
    return len(latencies) / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.95)


async def live_delivery(url: str, tag: str, actions: int) -> tuple[float, float, int]:
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(120, read=None)) as client:
        name = f"{tag}-live"
        gm, tokens = await new_campaign(client, name, players=STREAM_CLIENTS)
        arrivals: dict[int, list[float]] = {}
        ready = asyncio.Event()
        connected = 0

        async def listen(token: str) -> None:
            nonlocal connected
            headers = {"Authorization": f"Bearer {token}"}
            async with client.stream("GET", f"/api/campaigns/{name}/events", headers=headers) as response:
                event_id = None
                async for line in response.aiter_lines():
                    if line.startswith(": connected"):
                        connected += 1
                        if connected == STREAM_CLIENTS:
                            ready.set()
                    elif line.startswith("id:"):
                        event_id = int(line[3:])
                    elif line.startswith("data:") and event_id is not None:
                        arrivals.setdefault(event_id, []).append(time.perf_counter())

        listeners = [asyncio.create_task(listen(t)) for t in tokens]
        await asyncio.wait_for(ready.wait(), timeout=60)
        responded: dict[int, float] = {}
        headers = {"Authorization": f"Bearer {gm}"}
        for i in range(actions):
            path, body = _action(name, i)
            r = await client.post(path, headers=headers, json=body)
            responded[r.json()["seq"]] = time.perf_counter()
            r.raise_for_status()
            await asyncio.sleep(0.05)  # a table's pace, not a flood
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(len(arrivals.get(s, [])) < STREAM_CLIENTS for s in responded):
            await asyncio.sleep(0.05)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    delays = [(t - responded[seq]) for seq, times in arrivals.items() if seq in responded for t in times]
    missing = len(responded) * STREAM_CLIENTS - len(delays)
    return percentile(delays, 0.5), percentile(delays, 0.95), missing


@contextmanager
def backends(names: list[str], workdir: Path) -> Iterator[list[tuple[str, str, int]]]:
    out: list[tuple[str, str, int]] = []
    server = None
    try:
        for name in names:
            if name == "sqlite":
                out.append(("SQLite, 1 worker", str(workdir / "bench.db"), 1))
            elif name == "postgresql":
                from rulekeeper.store.local_postgres import start_local_postgres

                server = start_local_postgres(workdir / "pg")
                out.append((f"PostgreSQL ({server.how}), 2 workers", server.create_database("rk_serve"), 2))
            else:
                raise SystemExit(f"unknown backend {name}")
        yield out
    finally:
        if server is not None:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40, help="actions per campaign client")
    parser.add_argument("--live-actions", type=int, default=30)
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with (
        tempfile.TemporaryDirectory(prefix="rk-serve-bench-") as tmp,
        backends(args.backends.split(","), Path(tmp)) as dbs,
    ):
        for label, db, workers in dbs:
            print(f"== {label}", flush=True)
            with serving(db, workers, Path(tmp) / f"serve-{workers}.log") as url:
                tag = f"w{workers}"
                rows = {}
                for concurrency in CONCURRENCY:
                    rate, p50, p95 = asyncio.run(throughput(url, tag, concurrency, args.actions))
                    rows[concurrency] = {"actions_per_s": rate, "p50_ms": p50 * 1000, "p95_ms": p95 * 1000}
                    print(
                        f"  {concurrency:>2} campaigns: {rate:7.1f} actions/s   p50 {p50 * 1000:6.1f} ms"
                        f"   p95 {p95 * 1000:6.1f} ms",
                        flush=True,
                    )
                d50, d95, missing = asyncio.run(live_delivery(url, tag, args.live_actions))
                print(
                    f"  live delivery to {STREAM_CLIENTS} stream clients: p50 {d50 * 1000:6.1f} ms   "
                    f"p95 {d95 * 1000:6.1f} ms   (missing events: {missing})",
                    flush=True,
                )
                results[label] = {"throughput": rows, "delivery_p50_ms": d50 * 1000, "delivery_p95_ms": d95 * 1000}
    sqlite = next((v for k, v in results.items() if k.startswith("SQLite")), None)
    if sqlite is not None:
        p95 = sqlite["throughput"][10]["p95_ms"]
        print(f"goal: p95 at 10 campaigns on SQLite under 50 ms: {p95:.1f} ms ({'met' if p95 < 50 else 'NOT met'})")
    worst = max((v["delivery_p95_ms"] for v in results.values()), default=0.0)
    print(f"goal: p95 live delivery under 100 ms: worst {worst:.1f} ms ({'met' if worst < 100 else 'NOT met'})")
    # Issue 15: the GM dashboard's first render, 8 characters and 10,000 events, on SQLite.
    from dashboard import run as dashboard_first_render

    results["dashboard"] = dashboard_first_render()
    if os.environ.get("RULEKEEPER_BENCH_JSON"):
        print(json.dumps(results))


if __name__ == "__main__":
    main()
