"""Faults injected into the server's PostgreSQL connections, for tests of what it then says."""

from __future__ import annotations

import asyncio
import os
import socket
from typing import Any

import pytest

from rulekeeper.store import pg_prepared


def answers_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the connection is lost once a transaction's statements are sent and have had
    time to commit, before their answers are read (a network that drops, a failover)."""

    def losing(read: Any) -> Any:
        async def after_sending(connection: Any, *args: Any) -> Any:
            await pg_prepared._sent(connection.pgconn, asyncio.get_running_loop())
            await asyncio.sleep(0.5)  # PostgreSQL runs and commits them meanwhile
            lost = socket.socket(fileno=os.dup(connection.pgconn.socket))
            lost.setblocking(False)
            try:
                while lost.recv(65536):  # the answers, lost on their way
                    pass
            except BlockingIOError:
                pass
            lost.shutdown(socket.SHUT_RDWR)
            lost.close()
            return await read(connection, *args)

        return after_sending

    monkeypatch.setattr(pg_prepared, "_results", losing(pg_prepared._results))
    monkeypatch.setattr(pg_prepared, "_pipelined_results", losing(pg_prepared._pipelined_results))
