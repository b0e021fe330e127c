"""What ``rulekeeper serve`` sets up in its processes: the socket several workers share (every
connection accepted on it has Nagle's algorithm off, as with one worker; see ``shared_listener``)
and each worker's app, kept out of the garbage collector's full collections."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import uvicorn

from rulekeeper.web.serve import shared_listener


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
