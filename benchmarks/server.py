"""``rulekeeper serve`` benchmark: the server's CPU per action beside a FastAPI hello-world,
actions per second and latency under concurrent campaigns, and how long a command takes to
reach 20 live stream clients.

    .venv/bin/python benchmarks/server.py [--parts cpu,throughput,dashboard,history,streams]
        [--backends sqlite,postgresql] [--actions 40] [--rounds 1] [--cpu-actions 40] [--cpu-rounds 3]
        [--cpu-seat gm|player]
        [--no-cpu-postgresql] [--history-events 2000] [--history-steps 5]
        [--before OTHER_CHECKOUT/src] [--pg-no-commit-flush] [--client lean|httpx]

The load is sent by ``load_client.py`` (``--client lean``): one kept-alive HTTP/1.1 connection per
client, requests written whole. httpx (``--client httpx``, how this benchmark first measured)
spent more CPU per action than the server it measured, and on a two-core machine the load took
most of a core from the servers.

* **cpu**: ``rulekeeper serve`` on SQLite (one worker) and the hello-world of ``hello_app.py``
  (the same request -- path, bearer header, JSON body -- validated by pydantic and answered by
  FastAPI on the same uvicorn, same options) run side by side; each takes the same load in turn,
  ``--cpu-rounds`` times: 20 clients on 10 campaigns, GURPS damage and healing alternating, sent
  by the GM (``--cpu-seat player``: by the hero's player, whose answers are counted apart). The
  CPU (user + system) of every process of each server's session is read from ``/proc`` before
  and after; the medians of CPU per request are printed, and their ratio. ``--before`` serves
  another checkout's ``src`` (``git archive main src | tar -x -C /tmp/main``) as another server
  in the same rounds: a before/after comparison that the machine's other load affects alike.
  Two more run in the same rounds: the hello-world on ``serve``'s own HTTP protocol
  (``rulekeeper.web.protocol``: one ``send`` per response), so what that protocol saves is not
  counted as our work above the framework, and ``serve`` on PostgreSQL (one worker; its
  database's CPU beside it; ``--no-cpu-postgresql`` leaves it out), where two clients acting on
  each campaign at once make a request wait for another's awaited write. With ``--before`` the
  other checkout serves on PostgreSQL too, on a database of its own.
* **throughput**, for each backend (``--backends``: ``sqlite`` with one worker, ``postgresql``
  with two, ``postgresql1`` with one, ``postgresql4`` with four, ``postgresql-2proc``: two
  ``serve`` processes on two ports sharing the database, as two machines would, the campaigns
  spread over them as a load balancer would): for 1, 10 and 50 concurrent campaigns (one client
  each, sending ``--actions`` GURPS actions one after another, damage and healing alternating),
  actions per second over the whole run and the p50/p95 latency of one action (request sent to
  response read); then, with 20 clients holding the event stream of one campaign (spread over
  the processes), the time from an action's response reaching the sender to its event reaching
  each client, p50/p95 over every (client, action) pair. Negative means the event arrived
  before the response. Each row also splits the machine's busy cores (``/proc/stat``) between
  the servers, PostgreSQL, this benchmark's own clients and everything else: on a small machine
  they all compete for the same cores; and it says how often, per action, the server's
  processes gave up their core to wait or had it taken by the scheduler for another process
  (``/proc/PID/task/*/status``), which is what that competition costs them.
  ``--rounds N`` runs all of this N times, every backend in turn in each round, and reports each
  figure's median over the rounds (live delivery: the worst round's p95) and, for the PostgreSQL
  goal, in how many rounds it was met against that round's SQLite: on a two-core machine one run
  of each moves by a tenth either way from the other programs' load alone.
  ``--pg-no-commit-flush`` (diagnosis only) runs the PostgreSQL databases with
  ``synchronous_commit = off``, to show what the WAL flush costs.
* **streams** (not run unless asked: ``--parts streams``): ``--streams`` players (200) each hold a
  live stream of one campaign on PostgreSQL and nothing happens for 10 s; the CPU of ``serve`` and
  of PostgreSQL in that time, in percent of a core -- what open pages cost by themselves.
* **history** (not run unless asked: ``--parts history``): ``serve`` (one worker) on SQLite and on
  PostgreSQL takes the CPU comparison's load in ``--history-steps`` turns (5) until each of its
  10 campaigns holds ``--history-events`` events (2,000); the CPU per action (``serve`` and
  PostgreSQL) of each turn. An action must not cost more as its campaign grows: revision 0004's
  event indexes let PostgreSQL keep a plan that read a campaign's whole history on every action.
  ``--before`` adds another checkout's ``serve`` on PostgreSQL.
* **dashboard**: the time to first render of the GM dashboard for 8 characters and 10,000
  events (``benchmarks/dashboard.py``).

Goals: CPU per action at most 1.5x the hello-world's; p95 action latency under 50 ms at 10
campaigns on SQLite; PostgreSQL (two workers) at least SQLite's actions/s at 10 and 50
campaigns; p95 live delivery under 100 ms; dashboard first render under 300 ms; an action at
most 1.25x as dear at the end of the history part as at its start.
Numbers depend on the machine: a shared two-core box measures the others' load too, which is
why the comparisons are made side by side in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from load_client import LeanConnection

RULEKEEPER = str(Path(sys.executable).parent / "rulekeeper")
SHEET = {"st": 10, "ht": 12}
CONCURRENCY = (1, 10, 50)
STREAM_CLIENTS = 20
CPU_CAMPAIGNS = 10
CPU_CLIENTS = 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serving(
    db: str, workers: int, log: Path, *, command: list[str] | None = None, source: str | None = None
) -> Iterator[Server]:
    """A server subprocess in a session of its own (so its CPU can be summed over every process
    of that session), answering on ``/api/health``. ``command`` replaces ``rulekeeper serve``;
    ``source`` is another checkout's ``src`` to run instead of the installed one."""
    port = _free_port()
    env = {**os.environ, "RULEKEEPER_DB": db}
    if source is not None:
        env["PYTHONPATH"] = source
    argv = command or [RULEKEEPER, "serve", "--workers", str(workers)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [*argv, "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            cwd=Path(__file__).parent,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"{argv[0]} exited:\n{log.read_text()}")
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit(f"{argv[0]} did not answer")
            time.sleep(0.1)
        # One worker answering is not all of them: the others may still be importing, and their
        # start-up would be counted as the first load's CPU. Wait until the session is quiet.
        settle = time.monotonic() + 30
        while time.monotonic() < settle:
            before = session_cpu(proc.pid)
            time.sleep(0.3)
            if session_cpu(proc.pid) - before < 0.03:
                break
        yield Server(url, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@dataclass(frozen=True)
class Server:
    url: str
    session: int

    def cpu_seconds(self) -> float:
        """User + system CPU of every live process of the server's session (supervisor and
        workers), read from ``/proc``."""
        return session_cpu(self.session)

    def switches(self) -> tuple[int, int]:
        return session_switches(self.session)


_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _processes() -> Iterator[tuple[int, int, int, int]]:
    """``(pid, parent pid, session, user + system CPU ticks)`` of every live process, from ``/proc``."""
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # After the command name in parentheses: state ppid pgrp session ... utime(14) stime(15).
        fields = stat[stat.rindex(")") + 2 :].split()
        yield int(entry.name), int(fields[1]), int(fields[3]), int(fields[11]) + int(fields[12])


def database_cpu(workdir: Path) -> float:
    """User + system CPU of the benchmark's PostgreSQL: its postmaster and every live child
    (the backends serving the connections); 0 without one."""
    found = next(iter((workdir / "pg").rglob("postmaster.pid")), None) if (workdir / "pg").exists() else None
    if found is None:
        return 0.0
    postmaster = int(found.read_text().split()[0])
    return sum(ticks for pid, ppid, _, ticks in _processes() if postmaster in (pid, ppid)) / _TICK


def session_cpu(session: int) -> float:
    return sum(ticks for _, _, sid, ticks in _processes() if sid == session) / _TICK


def session_switches(session: int) -> tuple[int, int]:
    """How often the session's processes were switched out: ``(waiting, preempted)`` -- they
    gave up the core to wait (voluntary), or the scheduler took it for another (involuntary),
    summed over every thread of every live process, from ``/proc/PID/task/*/status``."""
    waited = preempted = 0
    for pid, _, sid, _ in _processes():
        if sid != session:
            continue
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                text = (task / "status").read_text()
            except OSError:
                continue  # gone meanwhile
            for line in text.splitlines():
                if line.startswith("voluntary_ctxt_switches:"):
                    waited += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    preempted += int(line.split()[1])
    return waited, preempted


def machine_cpu() -> float:
    """CPU seconds every core of the machine has been busy (everything but idle and I/O wait),
    from ``/proc/stat``: with the server's, the database's and this client's own, what is left
    is the rest of the machine (other programs)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / _TICK


def own_cpu() -> float:
    """User + system CPU of this benchmark process: the load's clients."""
    times = os.times()
    return times.user + times.system


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def new_campaign(
    client: httpx.AsyncClient, name: str, players: int = 0, hero_player: str | None = None
) -> tuple[str, list[str]]:
    """A campaign with a hero and a foe (the hero played by ``hero_player``, if given): the GM's
    token, and those of ``players`` observers."""
    r = await client.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 1})
    r.raise_for_status()
    gm = r.json()["gm_token"]
    headers = {"Authorization": f"Bearer {gm}"}
    for actor in ("hero", "foe"):
        played = {"player": hero_player} if actor == "hero" and hero_player else {}
        r = await client.post(
            f"/api/campaigns/{name}/characters", headers=headers, json={"actor": actor, "sheet": SHEET, **played}
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


class HttpxConnection:
    """The load's requests sent with httpx (``--client httpx``), as the benchmarks first did."""

    def __init__(self, url: str) -> None:
        self._client = httpx.AsyncClient(base_url=url, timeout=120)

    async def post(self, path: str, token: str, body: dict[str, Any]) -> bytes:
        r = await self._client.post(path, headers={"Authorization": f"Bearer {token}"}, json=body)
        r.raise_for_status()
        return r.content

    async def close(self) -> None:
        await self._client.aclose()


#: Which client sends the load (``--client``): ``lean`` (``load_client.py``) or ``httpx``.
LOAD_CLIENTS = {"lean": LeanConnection, "httpx": HttpxConnection}
_load_client: type[LeanConnection | HttpxConnection] = LeanConnection


def connection(url: str) -> LeanConnection | HttpxConnection:
    """A connection of the chosen load client (one per simulated table)."""
    return _load_client(url)


async def play(
    client: LeanConnection | HttpxConnection, name: str, token: str, count: int, latencies: list[float]
) -> None:
    """``count`` actions on campaign ``name``, one after another, each one's latency noted
    (request sent to the whole response read; an error status stops the run)."""
    for i in range(count):
        path, body = _action(name, i)
        start = time.perf_counter()
        await client.post(path, token, body)
        latencies.append(time.perf_counter() - start)


async def throughput(urls: list[str], tag: str, concurrency: int, actions: int) -> tuple[float, float, float]:
    # One client (one connection) per campaign, like separate bots or browsers: a single pooled
    # client shared by fifty tasks measures its own pool more than the server. With several
    # server processes the campaigns are spread over them, as a load balancer would.
    names = [f"{tag}-c{concurrency}-{i}" for i in range(concurrency)]
    # The campaigns are made first, on connections of their own: made on the players' connections,
    # the first ones sat idle past the server's keep-alive timeout while the rest were made (50
    # campaigns on a busy machine), and a request sent as the server closed one failed.
    setup = [httpx.AsyncClient(base_url=url, timeout=120) for url in urls]
    try:
        gms = [(await new_campaign(setup[i % len(urls)], name))[0] for i, name in enumerate(names)]
    finally:
        for client in setup:
            await client.aclose()
    clients = [connection(urls[i % len(urls)]) for i in range(len(names))]
    try:
        latencies: list[float] = []
        if concurrency == 1:
            await play(clients[0], names[0], gms[0], actions, latencies)  # warm the server's caches
            latencies.clear()
        start = time.perf_counter()
        await asyncio.gather(*(play(c, n, g, actions, latencies) for c, n, g in zip(clients, names, gms, strict=True)))
        elapsed = time.perf_counter() - start
    finally:
        for client in clients:
            await client.close()
    return len(latencies) / elapsed, percentile(latencies, 0.5), percentile(latencies, 0.95)


async def cpu_load(server: Server, targets: list[tuple[str, str]], actions: int) -> tuple[float, float, float]:
    """CPU milliseconds the server spends per action, actions/s and p95 latency: ``CPU_CLIENTS``
    clients, spread over the ``targets`` (campaign name, bearer token), ``actions`` each."""
    clients = [connection(server.url) for _ in range(CPU_CLIENTS)]
    latencies: list[float] = []
    pairs = [(c, *targets[i % len(targets)]) for i, c in enumerate(clients)]
    try:
        await asyncio.gather(*(play(c, n, t, 2, latencies) for c, n, t in pairs))  # connections open, caches warm
        latencies.clear()
        cpu = server.cpu_seconds()
        start = time.perf_counter()
        await asyncio.gather(*(play(c, n, t, actions, latencies) for c, n, t in pairs))
        elapsed = time.perf_counter() - start
        cpu = server.cpu_seconds() - cpu
    finally:
        for client in clients:
            await client.close()
    return cpu * 1000 / len(latencies), len(latencies) / elapsed, percentile(latencies, 0.95)


#: Who sends the CPU comparison's actions (``--cpu-seat``): the GM, or the hero's player.
CPU_SEATS = ("gm", "player")


async def make_campaigns(url: str, tag: str, count: int, seat: str = "gm") -> list[tuple[str, str]]:
    """``count`` campaigns, each with the token of whoever acts in it: the GM, or (``seat``
    ``player``) the hero's player, a member invited for that character."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        made = []
        for name in (f"{tag}-cpu-{i}" for i in range(count)):
            gm, _ = await new_campaign(client, name, hero_player="ana" if seat == "player" else None)
            if seat == "player":
                r = await client.post(
                    f"/api/campaigns/{name}/members",
                    headers={"Authorization": f"Bearer {gm}"},
                    json={"name": "ana", "role": "player", "characters": ["hero"]},
                )
                r.raise_for_status()
                gm = r.json()["token"]
            made.append((name, gm))
        return made


def cpu_comparison(
    db: str,
    workdir: Path,
    actions: int,
    rounds: int,
    before: str | None = None,
    pg_url: str | None = None,
    pg_before_url: str | None = None,
    seat: str = "gm",
) -> dict[str, float]:
    """``rulekeeper serve`` (SQLite, 1 worker) against the hello-world of ``hello_app.py`` under
    the same load, alternating ``rounds`` times in one run; the median of each; the actions sent
    by ``seat`` (``CPU_SEATS``). ``before``: the
    ``src`` of another checkout, served too and measured in the same rounds (a before/after
    comparison on one machine in one run). ``pg_url``: ``serve`` on that PostgreSQL database
    (one worker) joins the rounds too, its database's CPU reported beside it; ``pg_before_url``:
    the ``before`` checkout's ``serve`` on that database, likewise.

    The hello-world runs twice: on uvicorn's own HTTP/1.1 protocol, as the issue's baseline
    ("whatever uvicorn picks"), and on ``serve``'s protocol (``rulekeeper.web.protocol``: one
    ``send`` per response, header deadlines), so that what that protocol saves is not counted
    as our work above the framework."""
    hello = [sys.executable, "-m", "uvicorn", "hello_app:app", "--log-level", "warning", "--no-access-log"]
    hello_ours = [sys.executable, "hello_app.py", "--serve-protocol"]
    with contextlib.ExitStack() as stack:
        servers = {
            "rulekeeper serve": stack.enter_context(serving(db, 1, workdir / "serve-cpu.log")),
            "FastAPI hello": stack.enter_context(serving(db, 1, workdir / "hello.log", command=hello)),
            "hello, our HTTP": stack.enter_context(serving(db, 1, workdir / "hello-ours.log", command=hello_ours)),
        }
        if before is not None:
            servers["serve, before"] = stack.enter_context(
                serving(f"{db}.before.db", 1, workdir / "serve-before.log", source=before)
            )
        if pg_url is not None:
            servers["serve, PostgreSQL"] = stack.enter_context(serving(pg_url, 1, workdir / "serve-cpu-pg.log"))
        if before is not None and pg_before_url is not None:
            servers["PostgreSQL, before"] = stack.enter_context(
                serving(pg_before_url, 1, workdir / "serve-cpu-pg-before.log", source=before)
            )
        on_postgresql = ("serve, PostgreSQL", "PostgreSQL, before")
        targets = asyncio.run(make_campaigns(servers["rulekeeper serve"].url, "cpu", CPU_CAMPAIGNS, seat))
        own_targets = {
            label: asyncio.run(make_campaigns(servers[label].url, "cpu", CPU_CAMPAIGNS, seat))
            for label in ("serve, before", *on_postgresql)
            if label in servers
        }
        runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label in servers}
        database: dict[str, list[float]] = {label: [] for label in on_postgresql if label in servers}
        order = list(servers)
        for turn in range(rounds):
            # Each round starts with another server: whichever went first measured a few
            # percent more CPU per request, whatever it was (seen by swapping two builds).
            for label in order[turn % len(order) :] + order[: turn % len(order)]:
                theirs = database_cpu(workdir)
                runs[label].append(asyncio.run(cpu_load(servers[label], own_targets.get(label, targets), actions)))
                if label in database:
                    database[label].append((database_cpu(workdir) - theirs) * 1000 / (CPU_CLIENTS * actions))
    medians = {label: tuple(statistics.median(x) for x in zip(*rows, strict=True)) for label, rows in runs.items()}
    hello_ms = medians["FastAPI hello"][0]
    ours_ms = medians["hello, our HTTP"][0]
    for label, (ms, rate, p95) in medians.items():
        hello_world = label in ("FastAPI hello", "hello, our HTTP")
        unit = "request" if hello_world else "action "
        ratio = "" if hello_world else f"   {ms / hello_ms:.2f}x hello, {ms / ours_ms:.2f}x hello on our HTTP"
        extra = f" + PostgreSQL {statistics.median(database[label]):4.2f} ms" if label in database else ""
        print(
            f"  {label:<18}: {ms:5.2f} ms CPU per {unit}{extra}  {rate:6.1f}/s   p95 {p95 * 1000:6.1f} ms{ratio}",
            flush=True,
        )
    ms, rate, _ = medians["rulekeeper serve"]
    print(
        f"goal: CPU per action at most 1.5x the hello-world's: {ms / hello_ms:.2f}x "
        f"({'met' if ms / hello_ms <= 1.5 else 'NOT met'}); "
        f"{ms / ours_ms:.2f}x the hello-world served by our HTTP protocol",
        flush=True,
    )
    out = {
        "cpu_ms": ms,
        "hello_cpu_ms": hello_ms,
        "hello_our_http_cpu_ms": ours_ms,
        "ratio": ms / hello_ms,
        "ratio_our_http": ms / ours_ms,
        "actions_per_s": rate,
    }
    if before is not None:
        out["before_cpu_ms"] = medians["serve, before"][0]
        out["before_ratio"] = medians["serve, before"][0] / hello_ms
    if pg_url is not None:
        out["postgresql_cpu_ms"] = medians["serve, PostgreSQL"][0]
        out["postgresql_database_cpu_ms"] = statistics.median(database["serve, PostgreSQL"])
    if "PostgreSQL, before" in database:
        out["postgresql_before_cpu_ms"] = medians["PostgreSQL, before"][0]
        out["postgresql_before_database_cpu_ms"] = statistics.median(database["PostgreSQL, before"])
    return out


def history_part(workdir: Path, events: int, steps: int, before: str | None = None) -> dict[str, Any]:
    """What an action costs as its campaigns grow: ``serve`` (one worker) on SQLite and on
    PostgreSQL takes the CPU comparison's load (20 clients on 10 campaigns) in ``steps`` turns
    until every campaign holds ``events`` events; the CPU per action (``serve`` and PostgreSQL)
    of each turn. Every setup takes its turn in each step, so the machine's other load falls
    on them alike. ``before``: another checkout's ``src`` on PostgreSQL as well."""
    from rulekeeper.store.local_postgres import start_local_postgres

    per_client = max(1, events * CPU_CAMPAIGNS // (CPU_CLIENTS * steps))
    database = start_local_postgres(workdir / "pg")
    try:
        setups = [
            ("SQLite, 1 worker", str(workdir / "history.db"), None),
            ("PostgreSQL, 1 worker", database.create_database("rk_history"), None),
        ]
        if before is not None:
            setups.append(("PostgreSQL, before", database.create_database("rk_history_before"), before))
        grown: dict[str, list[tuple[int, float, float]]] = {label: [] for label, _, _ in setups}
        with contextlib.ExitStack() as stack:
            servers = {
                label: stack.enter_context(serving(db, 1, workdir / f"history-{i}.log", source=source))
                for i, (label, db, source) in enumerate(setups)
            }
            targets = {
                label: asyncio.run(make_campaigns(s.url, "history", CPU_CAMPAIGNS)) for label, s in servers.items()
            }
            for step in range(1, steps + 1):
                for label, server in servers.items():
                    theirs = database_cpu(workdir)
                    ms, _, _ = asyncio.run(cpu_load(server, targets[label], per_client))
                    db_ms = (database_cpu(workdir) - theirs) * 1000 / (CPU_CLIENTS * per_client)
                    grown[label].append((step * per_client * CPU_CLIENTS // CPU_CAMPAIGNS, ms, db_ms))
    finally:
        database.stop()
    out: dict[str, Any] = {}
    for label, rows in grown.items():
        cells = "  ".join(f"{n}: {ms + db:4.2f}" for n, ms, db in rows)
        first, last = rows[0][1] + rows[0][2], rows[-1][1] + rows[-1][2]
        split = f"   (last: serve {rows[-1][1]:4.2f} + PostgreSQL {rows[-1][2]:4.2f})" if rows[-1][2] else ""
        print(f"  {label:<21}: ms per action by events per campaign  {cells}   x{last / first:.2f}{split}", flush=True)
        out[label] = {
            "events": [n for n, _, _ in rows],
            "cpu_ms": [ms + db for _, ms, db in rows],
            "growth": last / first,
        }
    worst = max(v["growth"] for k, v in out.items() if not k.endswith("before"))
    print(
        f"goal: an action at {grown['SQLite, 1 worker'][-1][0]} events per campaign costs at most 1.25x what it "
        f"cost at {grown['SQLite, 1 worker'][0][0]}: worst x{worst:.2f} ({'met' if worst <= 1.25 else 'NOT met'})",
        flush=True,
    )
    return out


async def live_delivery(urls: list[str], tag: str, actions: int) -> tuple[float, float, int]:
    """Listeners spread over every server process; commands sent to the first."""
    timeout = httpx.Timeout(120, read=None)
    clients = [httpx.AsyncClient(base_url=url, timeout=timeout) for url in urls]
    try:
        client = clients[0]
        name = f"{tag}-live"
        gm, tokens = await new_campaign(client, name, players=STREAM_CLIENTS)
        arrivals: dict[int, list[float]] = {}
        ready = asyncio.Event()
        connected = 0

        async def listen(listener: httpx.AsyncClient, token: str) -> None:
            nonlocal connected
            headers = {"Authorization": f"Bearer {token}"}
            async with listener.stream("GET", f"/api/campaigns/{name}/events", headers=headers) as response:
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

        listeners = [asyncio.create_task(listen(clients[i % len(clients)], t)) for i, t in enumerate(tokens)]
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
    finally:
        for c in clients:
            await c.aclose()
    delays = [(t - responded[seq]) for seq, times in arrivals.items() if seq in responded for t in times]
    missing = len(responded) * STREAM_CLIENTS - len(delays)
    return percentile(delays, 0.5), percentile(delays, 0.95), missing


async def idle_streams(server: Server, workdir: Path, count: int, seconds: float) -> tuple[float, float]:
    """CPU of the server and of PostgreSQL, in percent of a core, while ``count`` players each
    hold a live stream of one campaign and nothing happens: what open pages cost by themselves."""
    async with httpx.AsyncClient(base_url=server.url, timeout=120) as client:
        _, tokens = await new_campaign(client, "idle", players=count)
    timeout = httpx.Timeout(120, read=None)
    listeners = [httpx.AsyncClient(base_url=server.url, timeout=timeout) for _ in tokens]
    connected = 0
    ready = asyncio.Event()

    async def listen(listener: httpx.AsyncClient, token: str) -> None:
        nonlocal connected
        headers = {"Authorization": f"Bearer {token}"}
        async with listener.stream("GET", "/api/campaigns/idle/events", headers=headers) as response:
            async for line in response.aiter_lines():
                if line.startswith(": connected"):
                    connected += 1
                    if connected == count:
                        ready.set()

    tasks = [asyncio.create_task(listen(c, t)) for c, t in zip(listeners, tokens, strict=True)]
    try:
        await asyncio.wait_for(ready.wait(), timeout=120)
        await asyncio.sleep(1.0)  # past the connections' own start-up
        ours, theirs = server.cpu_seconds(), database_cpu(workdir)
        await asyncio.sleep(seconds)
        ours, theirs = server.cpu_seconds() - ours, database_cpu(workdir) - theirs
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for listener in listeners:
            await listener.aclose()
    return ours * 100 / seconds, theirs * 100 / seconds


def streams_part(workdir: Path, count: int, seconds: float) -> dict[str, float]:
    """``--parts streams``: idle live streams on PostgreSQL (one worker)."""
    from rulekeeper.store.local_postgres import start_local_postgres

    pg = start_local_postgres(workdir / "pg")
    try:
        db = pg.create_database("rk_streams")
        with serving(db, 1, workdir / "serve-streams.log") as server:
            ours, theirs = asyncio.run(idle_streams(server, workdir, count, seconds))
    finally:
        pg.stop()
    print(
        f"== {count} idle live streams on PostgreSQL ({pg.how}), 1 worker, {seconds:g} s: "
        f"serve {ours:.1f}% of a core, PostgreSQL {theirs:.1f}%",
        flush=True,
    )
    return {"serve_percent": ours, "postgresql_percent": theirs}


@dataclass(frozen=True)
class Backend:
    label: str
    db: str
    workers: int
    processes: int = 1


#: ``--backends`` names: SQLite with one worker; PostgreSQL with 2, 1 or 4 workers in one ``serve``;
#: PostgreSQL behind two ``serve`` processes on two ports (as two machines would be).
BACKENDS = ("sqlite", "postgresql", "postgresql1", "postgresql4", "postgresql-2proc")


def _without_commit_flush(url: str) -> None:
    """Diagnosis only (``--pg-no-commit-flush``): the benchmark's database acknowledges a commit
    before its WAL reaches the disk, to show how much of PostgreSQL's time is the flush. Not
    how rulekeeper runs: it keeps PostgreSQL's durable default (docs/deployment.md)."""
    import psycopg
    import sqlalchemy as sa

    made = sa.engine.make_url(url)
    plain = made.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{made.database}" SET synchronous_commit = off')


@contextmanager
def backends(names: list[str], workdir: Path, *, no_flush: bool = False) -> Iterator[list[Backend]]:
    out: list[Backend] = []
    server = None
    try:
        for name in names:
            if name == "sqlite":
                out.append(Backend("SQLite, 1 worker", str(workdir / "bench.db"), 1))
                continue
            if name not in BACKENDS:
                raise SystemExit(f"unknown backend {name}; expected one of {', '.join(BACKENDS)}")
            if server is None:
                from rulekeeper.store.local_postgres import start_local_postgres

                server = start_local_postgres(workdir / "pg")
            db = server.create_database(f"rk_{name.replace('-', '_')}")
            if no_flush:
                _without_commit_flush(db)
            if name == "postgresql":
                out.append(Backend(f"PostgreSQL ({server.how}), 2 workers", db, 2))
            elif name == "postgresql1":
                out.append(Backend(f"PostgreSQL ({server.how}), 1 worker", db, 1))
            elif name == "postgresql4":
                out.append(Backend(f"PostgreSQL ({server.how}), 4 workers", db, 4))
            else:
                out.append(Backend(f"PostgreSQL ({server.how}), 2 processes of 1 worker", db, 1, processes=2))
        yield out
    finally:
        if server is not None:
            server.stop()


def run_backend(backend: Backend, workdir: Path, args: argparse.Namespace, round_no: int = 1) -> dict[str, Any]:
    print(f"== {backend.label}" + (f" (round {round_no} of {args.rounds})" if args.rounds > 1 else ""), flush=True)
    with contextlib.ExitStack() as stack:
        servers = [
            stack.enter_context(serving(backend.db, backend.workers, workdir / f"serve-{backend.label[:3]}-{i}.log"))
            for i in range(backend.processes)
        ]
        urls = [s.url for s in servers]
        tag = f"w{backend.workers}p{backend.processes}r{round_no}"  # campaigns of their own each round
        rows = {}
        for concurrency in CONCURRENCY:
            cpu = sum(s.cpu_seconds() for s in servers), database_cpu(workdir), own_cpu(), machine_cpu()
            switched = [s.switches() for s in servers]
            start = time.perf_counter()
            rate, p50, p95 = asyncio.run(throughput(urls, tag, concurrency, args.actions))
            wall = time.perf_counter() - start
            # Every action sent (one campaign plays its actions twice: once to warm up), CPU of
            # making the campaigns included.
            done = concurrency * args.actions * (2 if concurrency == 1 else 1)
            ours = (sum(s.cpu_seconds() for s in servers) - cpu[0]) * 1000 / done
            theirs = (database_cpu(workdir) - cpu[1]) * 1000 / done
            client = (own_cpu() - cpu[2]) * 1000 / done
            # The machine's cores, busy on average over the run: who used them (the rest is
            # every other program on the machine).
            busy = (machine_cpu() - cpu[3]) / wall
            split = {
                "server": ours * done / 1000 / wall,
                "database": theirs * done / 1000 / wall,
                "client": client * done / 1000 / wall,
            }
            split["other"] = max(0.0, busy - sum(split.values()))
            # How often a server process lost its core: each switch costs it its caches, and on
            # a machine with fewer cores than busy processes most are preemptions.
            now_switched = [s.switches() for s in servers]
            waited = sum(n[0] - b[0] for n, b in zip(now_switched, switched, strict=True)) / done
            preempted = sum(n[1] - b[1] for n, b in zip(now_switched, switched, strict=True)) / done
            rows[concurrency] = {
                "actions_per_s": rate,
                "p50_ms": p50 * 1000,
                "p95_ms": p95 * 1000,
                "server_cpu_ms": ours,
                "database_cpu_ms": theirs,
                "client_cpu_ms": client,
                "cores_busy": busy,
                "cores_by": split,
                "server_switches_waiting": waited,
                "server_switches_preempted": preempted,
            }
            print(
                f"  {concurrency:>2} campaigns: {rate:7.1f} actions/s   p50 {p50 * 1000:6.1f} ms"
                f"   p95 {p95 * 1000:6.1f} ms   CPU per action: server {ours:4.2f} ms"
                + (f" + PostgreSQL {theirs:4.2f} ms" if theirs else "")
                + f" (client {client:4.2f} ms)\n"
                f"      cores busy {busy:4.2f} of {os.cpu_count()}: "
                + ", ".join(f"{k} {v:4.2f}" for k, v in split.items())
                + f"; server switched out per action: {waited:4.2f} waiting, {preempted:4.2f} preempted",
                flush=True,
            )
        d50, d95, missing = asyncio.run(live_delivery(urls, tag, args.live_actions))
        print(
            f"  live delivery to {STREAM_CLIENTS} stream clients: p50 {d50 * 1000:6.1f} ms   "
            f"p95 {d95 * 1000:6.1f} ms   (missing events: {missing})",
            flush=True,
        )
    return {"throughput": rows, "delivery_p50_ms": d50 * 1000, "delivery_p95_ms": d95 * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=40, help="actions per campaign client")
    parser.add_argument("--live-actions", type=int, default=30)
    parser.add_argument("--backends", default="sqlite,postgresql", help=f"any of {', '.join(BACKENDS)}")
    parser.add_argument("--cpu-actions", type=int, default=40, help="actions per client in the CPU comparison")
    parser.add_argument("--cpu-rounds", type=int, default=3)
    parser.add_argument(
        "--cpu-seat", choices=CPU_SEATS, default="gm", help="who sends the CPU comparison's actions: the GM or a player"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="throughput rounds, every backend in turn in each: medians reported, and the rounds each goal was met in",
    )
    parser.add_argument(
        "--no-cpu-postgresql",
        dest="cpu_postgresql",
        action="store_false",
        help="leave serve on PostgreSQL (one worker) out of the CPU comparison",
    )
    parser.add_argument("--parts", default="cpu,throughput,dashboard", help="which parts to run")
    parser.add_argument(
        "--pg-no-commit-flush",
        action="store_true",
        help="diagnosis only: PostgreSQL acknowledges commits before flushing them (synchronous_commit off)",
    )
    parser.add_argument(
        "--before",
        metavar="SRC",
        help="another checkout's src directory (say, main's): its serve joins the CPU comparison and the history part",
    )
    parser.add_argument("--streams", type=int, default=200, help="live streams held open in the streams part")
    parser.add_argument(
        "--history-events", type=int, default=2000, help="events per campaign the history part grows to"
    )
    parser.add_argument("--history-steps", type=int, default=5, help="turns the history part measures on the way")
    parser.add_argument(
        "--client",
        choices=sorted(LOAD_CLIENTS),
        default="lean",
        help="what sends the load: lean (load_client.py, the default) or httpx (as the benchmark first did)",
    )
    args = parser.parse_args()
    global _load_client
    _load_client = LOAD_CLIENTS[args.client]
    print(f"(load sent by the {args.client} client)", flush=True)
    parts = set(args.parts.split(","))
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="rk-serve-bench-") as tmp:
        workdir = Path(tmp)
        if "cpu" in parts:
            sender = "the GM" if args.cpu_seat == "gm" else "the hero's player"
            print(
                f"== CPU per action: SQLite, 1 worker, {CPU_CAMPAIGNS} campaigns, {CPU_CLIENTS} clients, "
                f"sent by {sender}",
                flush=True,
            )
            cpu_dir = workdir / "cpu"  # a PostgreSQL of its own: the throughput part starts another
            cpu_dir.mkdir()
            # With --before, a second database for the other checkout's serve on PostgreSQL.
            wanted = (["postgresql1", "postgresql"] if args.before else ["postgresql1"]) if args.cpu_postgresql else []
            with backends(wanted, cpu_dir) as dbs:
                results["cpu"] = cpu_comparison(
                    str(cpu_dir / "cpu.db"),
                    cpu_dir,
                    args.cpu_actions,
                    args.cpu_rounds,
                    args.before,
                    pg_url=dbs[0].db if dbs else None,
                    pg_before_url=dbs[1].db if len(dbs) > 1 else None,
                    seat=args.cpu_seat,
                )
        if "throughput" in parts:
            if args.pg_no_commit_flush:
                print("(diagnosis: PostgreSQL runs with synchronous_commit off -- not rulekeeper's setting)")
            rounds: dict[str, list[dict[str, Any]]] = {}
            with backends(args.backends.split(","), workdir, no_flush=args.pg_no_commit_flush) as dbs:
                # Round by round, every backend in turn: what the machine's other load does to
                # one round it does to every backend's run in it.
                for round_no in range(1, args.rounds + 1):
                    for backend in dbs:
                        rounds.setdefault(backend.label, []).append(run_backend(backend, workdir, args, round_no))
            for label, runs in rounds.items():
                results[label] = median_run(runs)
            if args.rounds > 1:
                print(f"== medians of {args.rounds} rounds (live delivery: the worst round's p95)")
                for label, merged in results.items():
                    if label in rounds:
                        print_medians(label, merged)
            report_goals(results, rounds)
    if "history" in parts:
        with tempfile.TemporaryDirectory(prefix="rk-serve-bench-") as tmp:
            print(
                f"== CPU per action as campaigns grow: serve, 1 worker, {CPU_CAMPAIGNS} campaigns, {CPU_CLIENTS} "
                f"clients, to {args.history_events} events per campaign",
                flush=True,
            )
            results["history"] = history_part(Path(tmp), args.history_events, args.history_steps, args.before)
    if "streams" in parts:
        with tempfile.TemporaryDirectory(prefix="rk-serve-bench-") as tmp:
            results["streams"] = streams_part(Path(tmp), args.streams, 10.0)
    if "dashboard" in parts:
        # Issue 15: the GM dashboard's first render, 8 characters and 10,000 events, on SQLite.
        from dashboard import run as dashboard_first_render

        results["dashboard"] = dashboard_first_render()
    if os.environ.get("RULEKEEPER_BENCH_JSON"):
        print(json.dumps(results))


def median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One backend's rounds as one: each figure the median of its rounds, but live delivery's
    p95 the worst round's (a goal on it must hold in every round)."""

    def median_of(values: list[Any]) -> Any:
        if isinstance(values[0], dict):
            return {k: median_of([v[k] for v in values]) for k in values[0]}
        return statistics.median(values)

    return {
        "throughput": median_of([r["throughput"] for r in runs]),
        "delivery_p50_ms": statistics.median(r["delivery_p50_ms"] for r in runs),
        "delivery_p95_ms": max(r["delivery_p95_ms"] for r in runs),
        "rounds": len(runs),
    }


def print_medians(label: str, merged: dict[str, Any]) -> None:
    print(f"  {label}:")
    for concurrency, row in merged["throughput"].items():
        print(
            f"    {concurrency:>2} campaigns: {row['actions_per_s']:7.1f} actions/s   p95 {row['p95_ms']:6.1f} ms"
            f"   CPU per action: server {row['server_cpu_ms']:4.2f} ms"
            + (f" + PostgreSQL {row['database_cpu_ms']:4.2f} ms" if row["database_cpu_ms"] else "")
            + f"   cores busy {row['cores_busy']:4.2f}"
        )


def report_goals(results: dict[str, Any], rounds: dict[str, list[dict[str, Any]]] | None = None) -> None:
    """Each goal on the medians; with several rounds, also in how many rounds it was met, each
    round's PostgreSQL set beside that same round's SQLite."""
    measured = {k: v for k, v in results.items() if "throughput" in v}
    sqlite_label = next((k for k in measured if k.startswith("SQLite")), None)
    runs = rounds or {}
    if sqlite_label is not None:
        sqlite = measured[sqlite_label]
        p95 = sqlite["throughput"][10]["p95_ms"]
        print(f"goal: p95 at 10 campaigns on SQLite under 50 ms: {p95:.1f} ms ({'met' if p95 < 50 else 'NOT met'})")
        for label, row in measured.items():
            if label.startswith("PostgreSQL"):
                ours = [row["throughput"][c]["actions_per_s"] for c in (10, 50)]
                base = [sqlite["throughput"][c]["actions_per_s"] for c in (10, 50)]
                met = all(o >= b for o, b in zip(ours, base, strict=True))
                paired = list(zip(runs.get(label, []), runs.get(sqlite_label, []), strict=False))
                times = sum(
                    all(p["throughput"][c]["actions_per_s"] >= q["throughput"][c]["actions_per_s"] for c in (10, 50))
                    for p, q in paired
                )
                print(
                    f"goal: {label} >= SQLite at 10 and 50 campaigns: {ours[0]:.0f} vs {base[0]:.0f}, "
                    f"{ours[1]:.0f} vs {base[1]:.0f} actions/s ({'met' if met else 'NOT met'}"
                    + (f"; met in {times} of {len(paired)} rounds" if len(paired) > 1 else "")
                    + ")"
                )
    worst = max((v["delivery_p95_ms"] for v in measured.values()), default=0.0)
    print(f"goal: p95 live delivery under 100 ms: worst {worst:.1f} ms ({'met' if worst < 100 else 'NOT met'})")


if __name__ == "__main__":
    main()
