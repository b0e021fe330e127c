"""What ``rulekeeper serve`` sets up in its processes: the listening sockets (every connection
accepted has Nagle's algorithm off, as with one worker; see ``shared_listener``; several workers
listen on sockets of their own, which the kernel balances: ``worker_listeners``) and each
worker's app, kept out of the garbage collector's full collections, with FastAPI's
OpenTelemetry off unless the process is set up for it."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import uvicorn

from rulekeeper.web.app import telemetry
from rulekeeper.web.serve import shared_listener, worker_listeners

from .web_support import InProcess, serving


def _accepted_nodelay(listener: socket.socket) -> int:
    """``TCP_NODELAY`` of a connection asyncio accepts on ``listener``, as a uvicorn worker does."""

    async def run() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            sock = writer.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(handle, sock=listener)
        try:
            port = listener.getsockname()[1]
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            value = await asyncio.wait_for(accepted, timeout=10)
            writer.close()
            return value
        finally:
            server.close()
            await server.wait_closed()

    return asyncio.run(run())


def _config() -> uvicorn.Config:
    # log_config=None: a test must not reconfigure this process's logging.
    return uvicorn.Config("rulekeeper.web.app:app_from_environment", host="127.0.0.1", port=0, log_config=None)


def test_shared_listener_connections_have_nagle_off() -> None:
    listener = shared_listener(_config())
    assert listener.proto == socket.IPPROTO_TCP
    assert listener.get_inheritable()  # the workers are spawned processes that inherit it
    assert _accepted_nodelay(listener) != 0


def test_a_worker_app_is_frozen_out_of_full_collections(tmp_path: Path) -> None:
    """``app_from_environment`` (what each worker runs) leaves the app's objects to the garbage
    collector's permanent generation; in a subprocess, so this process is not frozen."""
    code = (
        "import gc; from rulekeeper.web.app import app_from_environment; "
        "app = app_from_environment(); print(gc.get_freeze_count(), len(gc.get_objects()))"
    )
    env = {**os.environ, "RULEKEEPER_DB": str(tmp_path / "campaigns.db")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120, check=True)
    frozen, tracked = map(int, out.stdout.split())
    assert frozen > 10 * tracked  # the app itself among them: nothing of it is left to walk


def test_a_worker_gets_a_listening_socket_of_its_own_on_the_same_port() -> None:
    """What uvicorn's supervisor hands each spawned worker (pickled as multiprocessing does):
    a socket of its own on the parent's address, in one ``SO_REUSEPORT`` group."""
    from multiprocessing.reduction import ForkingPickler

    held = worker_listeners(_config())
    port = held.getsockname()[1]
    mine = ForkingPickler.loads(bytes(ForkingPickler.dumps(held)))
    theirs = ForkingPickler.loads(bytes(ForkingPickler.dumps(held)))
    try:
        assert mine.fileno() != held.fileno() and theirs.fileno() != mine.fileno()
        for sock in (mine, theirs):
            assert sock.getsockname()[1] == port
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
            assert sock.proto == socket.IPPROTO_TCP and sock.get_inheritable()
        assert _accepted_nodelay(mine) != 0
    finally:
        for sock in (held, mine, theirs):
            sock.close()


def _server_sockets(pid: int) -> set[str]:
    """The socket inodes process ``pid`` holds."""
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[8:-1])
    return found


def _sockets(port: int, state: str) -> set[str]:
    """Inodes of the TCP sockets whose local end is ``port``, in ``state`` (/proc/net/tcp:
    ``01`` established, ``0A`` listening)."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == state:
            inodes.add(fields[9])
    return inodes


def _wait_listening(port: int, count: int) -> None:
    """Until ``count`` sockets listen on ``port`` (a worker may still be starting)."""
    deadline = time.monotonic() + 60
    while len(_sockets(port, "0A")) < count:
        assert time.monotonic() < deadline, f"fewer than {count} sockets ever listened on {port}"
        time.sleep(0.1)


def test_two_workers_both_take_connections(tmp_path: Path) -> None:
    """With one shared socket, the worker that woke first accepted every waiting connection (one
    worker served nearly all of a benchmark's ten tables); each worker now listens on a socket
    of its own, and the kernel spreads the connections over them."""
    with serving(str(tmp_path / "campaigns.db"), tmp_path, workers=2) as server:
        assert server.proc is not None
        _wait_listening(server.port, 2)
        clients = []
        try:
            for _ in range(24):
                conn = socket.create_connection(("127.0.0.1", server.port), timeout=60)
                conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
                clients.append(conn)
            for conn in clients:  # answered: accepted by a worker, which holds it now
                assert conn.recv(4096).startswith(b"HTTP/1.1 200")
            time.sleep(0.2)
            workers = [
                int(p.name)
                for p in Path("/proc").iterdir()
                if p.name.isdigit() and _parent(int(p.name)) == server.proc.pid
            ]
            held = {pid: len(_server_sockets(pid) & _sockets(server.port, "01")) for pid in workers}
            assert sum(held.values()) == 24, held
            assert sorted(held.values())[-2] > 0, f"one worker took every connection: {held}"
        finally:
            for conn in clients:
                conn.close()


def _parent(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def test_a_second_server_on_a_taken_port_is_refused_not_let_in(tmp_path: Path) -> None:
    """``SO_REUSEPORT`` lets sockets of one user share a port: a second ``serve --workers 2``
    started by mistake on the same port (on another database, say) would silently take half the
    first one's connections. It is refused, in our words; and once the first has stopped, the
    port is free again at once, though its last connections linger (``TIME_WAIT``)."""
    from .web_support import RULEKEEPER, ServeProcess

    first = ServeProcess(str(tmp_path / "first.db"), workers=2).start(tmp_path)
    try:
        _wait_listening(first.port, 2)
        for _ in range(5):  # connections the server will close when it stops
            with socket.create_connection(("127.0.0.1", first.port), timeout=30) as conn:
                conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: t\r\n\r\n")
                assert conn.recv(4096).startswith(b"HTTP/1.1 200")
        second = subprocess.run(
            [RULEKEEPER, "serve", "--workers", "2", "--port", str(first.port)],
            env={**os.environ, "RULEKEEPER_DB": str(tmp_path / "second.db")},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2, second.stderr
        assert f"cannot listen on 127.0.0.1:{first.port}" in second.stderr
        assert "expected a free port" in second.stderr and "Traceback" not in second.stderr
        assert len(_sockets(first.port, "0A")) == 2  # the first server's two workers, no more
    finally:
        first.stop()
    again = ServeProcess(str(tmp_path / "first.db"), workers=2, port=first.port).start(tmp_path)
    again.stop()


def _provider_lookups(monkeypatch: pytest.MonkeyPatch) -> int:
    """How often serving one request looks OpenTelemetry's tracer provider up."""
    from opentelemetry import trace

    from rulekeeper.web.app import create_app

    client = InProcess(create_app("memory://"))
    calls = 0
    real = trace.get_tracer_provider

    def counted() -> trace.TracerProvider:
        nonlocal calls
        calls += 1
        return real()

    try:
        assert client.get("/api/health").status_code == 200  # warmed: anything lazy is done
        monkeypatch.setattr(trace, "get_tracer_provider", counted)
        assert client.get("/api/health").status_code == 200
    finally:
        client.close()
    return calls


def test_telemetry_costs_a_request_nothing_unless_the_process_is_set_up_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """FastAPI looks OpenTelemetry's providers up on every request; a server started without
    OpenTelemetry skips that, and one started with an ``OTEL_`` variable keeps FastAPI's own."""
    for name in [n for n in os.environ if n.startswith("OTEL_")] + ["FASTAPI_OTEL_AUTO_CONFIGURE"]:
        monkeypatch.delenv(name, raising=False)
    assert telemetry() == {"tracing": False, "metrics": False, "logs": False}
    assert _provider_lookups(monkeypatch) == 0
    monkeypatch.undo()

    monkeypatch.setenv("OTEL_SERVICE_NAME", "rulekeeper")
    assert telemetry() is None
    assert _provider_lookups(monkeypatch) >= 1
    assert telemetry({"FASTAPI_OTEL_AUTO_CONFIGURE": "True"}) is None
