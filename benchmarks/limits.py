"""``rulekeeper serve`` under a flood (issue 26): slow clients, idle connections, a huge body.

    .venv/bin/python benchmarks/limits.py [--slow 3000] [--idle 20000] [--body-mb 200] [--hold 15]

Starts ``rulekeeper serve`` (SQLite, one worker, default limits) on a loopback port and, one
load at a time, measures the server process's memory (``VmRSS`` and its peak ``VmHWM`` from
``/proc``) and the latency of ``GET /api/health`` (a fresh connection per probe, every 0.25 s)
while the load is on:

* **slow**: ``--slow`` clients each send a request line, then one header byte every 2 s, for
  ``--hold`` seconds; counts how many the server dropped;
* **idle**: ``--idle`` connections (or as many as this process's file-descriptor limit allows,
  raised to its hard limit first) that send nothing, held ``--hold`` seconds;
* **body**: one ``--body-mb`` MB request body streamed to an action: how much was sent before
  the 413, and the memory after.

Finally it counts the tracebacks in the server's log. Loopback only, bounded counts and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

RULEKEEPER = str(Path(sys.executable).parent / "rulekeeper")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _memory(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) // 1024
    return fields["VmRSS"], fields["VmHWM"]


async def _probe(port: int, until: float) -> list[float]:
    """Health-check latencies (ms) until ``until``; a probe that fails counts as 10 s."""
    out: list[float] = []
    async with httpx.AsyncClient(timeout=10, limits=httpx.Limits(max_keepalive_connections=0)) as client:
        while time.monotonic() < until:
            start = time.perf_counter()
            try:
                r = await client.get(f"http://127.0.0.1:{port}/api/health")
                ok = r.status_code == 200
            except httpx.HTTPError:
                ok = False
            out.append((time.perf_counter() - start) * 1000 if ok else 10_000.0)
            await asyncio.sleep(0.25)
    return out


async def _open(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for start in range(0, count, 500):
        batch = await asyncio.gather(
            *(asyncio.open_connection("127.0.0.1", port) for _ in range(min(500, count - start))),
            return_exceptions=True,
        )
        conns.extend(c for c in batch if isinstance(c, tuple))
    return conns


async def _slow(port: int, count: int, hold: float) -> tuple[int, int]:
    """(connections opened, dropped by the server within ``hold`` seconds)."""
    conns = await _open(port, count)
    for _, writer in conns:
        writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
    dropped = 0
    until = time.monotonic() + hold
    while time.monotonic() < until:
        await asyncio.sleep(2)
        for _, writer in conns:
            if not writer.is_closing():
                with contextlib.suppress(OSError, RuntimeError):
                    writer.write(b"X")
    for reader, writer in conns:
        try:
            gone = reader.at_eof() or (await asyncio.wait_for(reader.read(1), 0.001)) == b""
        except (TimeoutError, OSError):
            gone = False
        dropped += gone
        writer.close()
    return len(conns), dropped


async def _idle(port: int, count: int, hold: float) -> tuple[int, int]:
    conns = await _open(port, count)
    await asyncio.sleep(hold)
    dropped = sum(1 for reader, _ in conns if reader.at_eof() or reader.exception() is not None)
    for _, writer in conns:
        writer.close()
    return len(conns), dropped


def _body(port: int, mb: int) -> tuple[int, str]:
    """Stream ``mb`` MB at an action; (bytes sent before the server answered, its status line)."""
    chunk = b"x" * (1 << 20)
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        head = (
            "POST /api/campaigns/any/gurps/actions/damage HTTP/1.1\r\nHost: x\r\n"
            f"Content-Type: application/json\r\nContent-Length: {mb << 20}\r\n\r\n"
        )
        sock.sendall(head.encode())
        sock.setblocking(False)
        answer = b""
        for _ in range(mb):
            with contextlib.suppress(BlockingIOError):
                answer += sock.recv(65536)
            if answer:
                break
            try:
                sent += sock.send(chunk)
            except BlockingIOError:
                time.sleep(0.01)
            except OSError:
                break
        if not answer:
            sock.settimeout(10)
            with contextlib.suppress(OSError):
                answer += sock.recv(65536)
    return sent, answer.split(b"\r\n", 1)[0].decode("latin-1")


async def _under(port: int, load: asyncio.Task[tuple[int, int]], hold: float) -> list[float]:
    """Probes during ``load``, from a thread with its own event loop: the load's thousands of
    sockets on this loop must not be what delays the probes."""
    probing = asyncio.to_thread(asyncio.run, _probe(port, time.monotonic() + hold))
    probes = await probing
    await load
    return probes


def _summary(probes: list[float]) -> str:
    if not probes:
        return "no probes"
    return (
        f"health p50 {statistics.median(probes):.1f} ms, max {max(probes):.1f} ms, "
        f"failed {sum(p >= 10_000 for p in probes)}/{len(probes)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--slow", type=int, default=3000)
    parser.add_argument("--idle", type=int, default=20000)
    parser.add_argument("--body-mb", type=int, default=200)
    parser.add_argument("--hold", type=float, default=15.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    idle = min(args.idle, soft - 200)
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "serve.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [RULEKEEPER, "serve", "--db", str(Path(tmp) / "c.db"), "--port", str(port)],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                time.sleep(0.1)
            print(f"server pid {proc.pid}; memory at rest RSS/peak {_memory(proc.pid)} MB; fd limit {soft}")
            base = asyncio.run(_probe(port, time.monotonic() + 3))
            print(f"idle server: {_summary(base)}")

            async def slow() -> tuple[list[float], tuple[int, int]]:
                task = asyncio.create_task(_slow(port, args.slow, args.hold))
                await asyncio.sleep(2)
                probes = await _under(port, task, args.hold)
                return probes, task.result()

            probes, (opened, dropped) = asyncio.run(slow())
            rss = _memory(proc.pid)
            print(
                f"{opened} slow clients for {args.hold:g} s: {dropped} dropped; {_summary(probes)}; RSS/peak {rss} MB"
            )

            async def idle_load() -> tuple[list[float], tuple[int, int]]:
                task = asyncio.create_task(_idle(port, idle, args.hold))
                await asyncio.sleep(2)
                probes = await _under(port, task, args.hold)
                return probes, task.result()

            probes, (opened, dropped) = asyncio.run(idle_load())
            rss = _memory(proc.pid)
            print(f"{opened} idle connections for {args.hold:g} s: {dropped} closed by the server")
            print(f"  {_summary(probes)}; RSS/peak {rss} MB")

            before = _memory(proc.pid)
            start = time.perf_counter()
            sent, status = _body(port, args.body_mb)
            took = (time.perf_counter() - start) * 1000
            after = _memory(proc.pid)
            probes = asyncio.run(_probe(port, time.monotonic() + 2))
            print(f"{args.body_mb} MB body: answered {status!r} after {sent / (1 << 20):.1f} MB sent, {took:.0f} ms")
            print(f"  RSS/peak before {before} after {after} MB; then {_summary(probes)}")
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=15)
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        text = log.read_text(errors="replace")
        print(f"server log: {len(text):,} bytes, {text.count('Traceback')} tracebacks")
        for line in [ln for ln in text.splitlines() if "WARNING" in ln or "ERROR" in ln][:5]:
            print(f"  {line}")


if __name__ == "__main__":
    main()
