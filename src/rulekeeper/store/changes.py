"""Cheap ways to learn that another process (a server worker, the CLI) wrote to the store.

A live server must push new events to its clients without rereading every campaign all the
time. Each watcher answers "might something have changed since I last asked?"; when it says
yes, the caller (:mod:`rulekeeper.web.broker`) reads the heads of the campaigns its clients
follow in one statement (``Store.heads``), then the new events of those that moved:

* SQLite: ``PRAGMA data_version`` on a connection of its own changes whenever any other
  connection commits -- one tiny statement, no table read -- asked every 20 ms;
* PostgreSQL and memory: every question is answered "yes", every 50 ms, so the heads are read
  20 times a second while the process has live clients (never without). Writers send no
  ``NOTIFY``: PostgreSQL lets one notifying transaction commit at a time across the whole
  database server, through its WAL flush, and that held two workers well below one SQLite
  worker (docs/deployment.md). Reading the heads costs one indexed statement per look, and
  it finds exactly the committed events, even those of a writer that died a moment later.

A watcher may answer "yes" when nothing changed (the caller compares versions); it never
answers "no" when something did, so nothing is missed.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Protocol

__all__ = ["ChangeWatcher", "watch_changes"]


class ChangeWatcher(Protocol):
    #: Seconds between looks when nothing wakes the caller earlier.
    interval: float

    def changed(self) -> bool: ...

    def close(self) -> None: ...


class _Always:
    #: How long a page on another process may wait for an event; the benchmark's live delivery
    #: goal is 100 ms at the 95th percentile (benchmarks/server.py).
    interval = 0.05

    def changed(self) -> bool:
        return True

    def close(self) -> None:
        return None


class _SqliteDataVersion:
    interval = 0.02

    def __init__(self, path: str) -> None:
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._lock = threading.Lock()
        self._last: int | None = None

    def changed(self) -> bool:
        with self._lock:
            try:
                version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
            except sqlite3.Error:
                return True
            moved = version != self._last
            self._last = version
            return moved

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def watch_changes(url: str) -> ChangeWatcher:
    """A watcher for the store at ``url`` (as the store resolved it)."""
    if url.startswith("sqlite:///") and url not in ("sqlite:///:memory:",):
        return _SqliteDataVersion(url.removeprefix("sqlite:///"))
    return _Always()
