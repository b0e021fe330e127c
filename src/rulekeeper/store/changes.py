"""Cheap ways to learn that another process (a server worker, the CLI) wrote to the store.

A live server must push new events to its clients without rereading every campaign all the
time. Each watcher answers "might something have changed since I last asked?":

* SQLite: ``PRAGMA data_version`` on a connection of its own changes whenever any other
  connection commits -- one tiny statement, no table read;
* PostgreSQL: writers ``NOTIFY`` (see :data:`rulekeeper.store.sql.NOTIFY_CHANNEL`) when they
  commit; a thread ``LISTEN``\\ s and wakes the server, naming the campaign that moved (so a
  server with nobody following that campaign need not wake at all). It listens only while the
  server has live clients (``follow``): otherwise every worker of every server heard every
  command, a wake-up of its listening thread per command with nobody to tell;
* memory (one process): every question is answered "yes", the caller then reads the heads.

A watcher may answer "yes" when nothing changed (the caller compares versions); it never
answers "no" when something did, so nothing is missed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["ChangeWatcher", "watch_changes"]


class ChangeWatcher(Protocol):
    #: Seconds between checks when nothing wakes the caller earlier.
    interval: float

    def changed(self) -> bool: ...

    def follow(self, wanted: bool) -> None:
        """Whether anyone here follows a campaign; with ``True``, returns once every change
        committed from then on will be seen (blocking: up to a few seconds on PostgreSQL)."""
        ...

    def close(self) -> None: ...


class _Always:
    interval = 0.05

    def changed(self) -> bool:
        return True

    def follow(self, wanted: bool) -> None:
        return None

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

    def follow(self, wanted: bool) -> None:
        return None  # asked only when the caller looks

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class _PostgresListen:
    # A missed notification (a dropped connection) is caught by the slow fallback check.
    interval = 1.0
    #: How long ``follow(True)`` waits for the ``LISTEN`` to take effect.
    ready_seconds = 5.0

    def __init__(self, url: str, wake: Callable[[int | None], None]) -> None:
        from rulekeeper.store.sql import NOTIFY_CHANNEL

        self._url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._channel = NOTIFY_CHANNEL
        self._wake = wake
        self._flag = threading.Event()
        self._flag.set()
        self._stop = threading.Event()
        self._wanted = threading.Event()  # someone here follows a campaign: listen
        self._listening = threading.Event()  # LISTEN is in effect (cleared when it may not be)
        self._thread = threading.Thread(target=self._run, name="rulekeeper-listen", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            if not self._wanted.wait(0.5):
                continue
            try:
                # Kept open while nobody follows (only the LISTEN is dropped), so a new client
                # does not wait for a new connection.
                with psycopg.connect(self._url, autocommit=True) as conn:
                    while not self._stop.is_set():
                        if not self._wanted.wait(0.5):
                            continue
                        self._listen(conn)
                        while self._wanted.is_set() and not self._stop.is_set():
                            for notice in conn.notifies(timeout=0.5):
                                self._flag.set()
                                self._wake(_campaign_of(notice.payload))
                        self._listening.clear()
                        conn.execute(f"UNLISTEN {self._channel}")
            except psycopg.Error:
                self._listening.clear()
                self._flag.set()
                self._stop.wait(0.5)

    def _listen(self, conn: Any) -> None:
        conn.execute(f"LISTEN {self._channel}")
        self._flag.set()  # anything written while we were not listening
        self._wake(None)
        self._listening.set()

    def changed(self) -> bool:
        moved = self._flag.is_set()
        self._flag.clear()
        return moved

    def follow(self, wanted: bool) -> None:
        if not wanted:
            self._wanted.clear()
            return
        self._wanted.set()
        # Not listening in time (a database restarting): the slow fallback check still runs.
        self._listening.wait(self.ready_seconds)

    def close(self) -> None:
        self._stop.set()
        self._wanted.set()


def _campaign_of(payload: str) -> int | None:
    """The campaign id of a ``"<campaign id>:<version>"`` notification; None if unreadable."""
    head, _, _ = payload.partition(":")
    return int(head) if head.isdigit() else None


def watch_changes(url: str, wake: Callable[[int | None], None]) -> ChangeWatcher:
    """A watcher for the store at ``url`` (as the store resolved it); ``wake`` is called from
    another thread when a notification arrives, with the campaign it names (None: any), so the
    caller need not wait a whole interval."""
    if url.startswith("sqlite:///") and url not in ("sqlite:///:memory:",):
        return _SqliteDataVersion(url.removeprefix("sqlite:///"))
    if url.startswith("postgresql"):
        return _PostgresListen(url, wake)
    return _Always()
