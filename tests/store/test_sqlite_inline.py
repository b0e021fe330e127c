"""A SQLite file's statements run on a server's event loop (``store.sqlite_inline``): the same
answers and checks as PostgreSQL's awaited ones, and never a wait for the writer lock."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from awaited_support import Writer, appended, written
from test_awaited_postgres import refused_once_no_longer_standing
from test_store_backends import NEW, event

from rulekeeper.store import open_store
from rulekeeper.store.base import AwaitedUnavailable
from rulekeeper.store.sqlite import SqliteStore
from rulekeeper.store.sqlite_inline import InlineSqlite


@pytest.fixture(params=[written, appended], ids=["on a held connection", "as a command appends"])
def write(request: pytest.FixtureRequest) -> Writer:
    """Each test twice: the write on a connection held for it, and as a command makes it."""
    way: Writer = request.param
    return way


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = open_store(f"sqlite:///{tmp_path / 'c.db'}")
    assert isinstance(opened, SqliteStore)
    yield opened
    opened.close()


def test_a_write_for_a_member_is_refused_once_the_member_no_longer_stands(store: SqliteStore, write: Writer) -> None:
    refused_once_no_longer_standing(store, InlineSqlite(store, threading.RLock()), write)


def test_the_write_lands_only_on_its_head_for_a_new_key(store: SqliteStore, write: Writer) -> None:
    record = store.create_campaign(NEW)
    inline = InlineSqlite(store, threading.RLock())

    async def run() -> list[bool]:
        return [
            await write(inline, record.id, event(1, key="a")),
            await write(inline, record.id, event(1)),  # the head is 1 now
            await write(inline, record.id, event(3)),  # nor 2
            await write(inline, record.id, event(2, key="a")),  # the key is taken
            await write(inline, record.id, event(2)),
        ]

    assert asyncio.run(run()) == [True, False, False, False, True]
    with store.reading(record.id) as history:
        assert [(e.seq, e.key) for e in history.events()] == [(1, "a"), (2, None)]


def test_a_worker_thread_holding_the_writer_lock_is_never_waited_for(store: SqliteStore, write: Writer) -> None:
    record = store.create_campaign(NEW)
    writer = threading.RLock()
    inline = InlineSqlite(store, writer)
    taken, release = threading.Event(), threading.Event()

    def worker() -> None:
        with writer:
            taken.set()
            release.wait(10)

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        assert taken.wait(10)

        async def attempt() -> None:
            await write(inline, record.id, event(1))

        with pytest.raises(AwaitedUnavailable):
            asyncio.run(attempt())
        assert store.find_campaign(NEW.name).version == 0  # type: ignore[union-attr]  # nothing written
    finally:
        release.set()
        thread.join()
    assert asyncio.run(write(inline, record.id, event(1)))  # free again: written at once
    given_back: list[bool] = []
    elsewhere = threading.Thread(target=lambda: given_back.append(writer.acquire(blocking=False)))
    elsewhere.start()
    elsewhere.join()
    assert given_back == [True]  # the loop let go of the lock after its statement


def test_a_write_that_keeps_a_snapshot_keeps_it_in_the_same_transaction(store: SqliteStore, write: Writer) -> None:
    from test_awaited_postgres import _member

    from rulekeeper.store.records import SnapshotRecord

    record = store.create_campaign(NEW)
    _member(store, record.id, "ana1")
    inline = InlineSqlite(store, threading.RLock())
    assert inline.keeps_snapshots

    def latest() -> SnapshotRecord | None:
        with store.reading(record.id) as history:
            return history.latest_snapshot()

    async def put(seq: int, **kw: object) -> bool:
        return await write(inline, record.id, event(seq), **kw)

    assert asyncio.run(put(1, snapshot=SnapshotRecord(1, "one")))
    assert asyncio.run(put(2, standing="ana1", now=5.0, snapshot=SnapshotRecord(2, "two")))
    assert latest() == SnapshotRecord(2, "two")
    assert store.revoke_members(record.id, "ana", 4.0) == 1
    # Refused (the member no longer stands): neither its event nor its snapshot is kept, and the
    # snapshots it would forget are not forgotten.
    assert not asyncio.run(put(3, standing="ana1", now=5.0, drop_snapshots_from=2, snapshot=SnapshotRecord(3, "x")))
    assert latest() == SnapshotRecord(2, "two")
    assert asyncio.run(put(3, drop_snapshots_from=2))  # no member to check: written, 2 forgotten
    assert latest() == SnapshotRecord(1, "one")
    with store.reading(record.id) as history:
        assert [e.seq for e in history.events()] == [1, 2, 3]


def test_a_failure_after_the_event_leaves_nothing_written(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch, write: Writer
) -> None:
    """The event and its snapshot commit together: a snapshot that cannot be written takes the
    event back with it."""
    from test_awaited_postgres import _member

    from rulekeeper.errors import StoreError
    from rulekeeper.store.records import SnapshotRecord
    from rulekeeper.store.statements import SqlHistory

    record = store.create_campaign(NEW)
    _member(store, record.id, "ana1")
    inline = InlineSqlite(store, threading.RLock())

    def broken(self: object, snapshot: SnapshotRecord) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(SqlHistory, "put_snapshot", broken)
    for standing in (None, "ana1"):  # the blocking store's transaction, and the member-checking one
        with pytest.raises(StoreError):
            asyncio.run(
                write(inline, record.id, event(1), standing=standing, now=5.0, snapshot=SnapshotRecord(1, "one"))
            )
    monkeypatch.undo()
    assert store.find_campaign(NEW.name).version == 0  # type: ignore[union-attr]
    with store.reading(record.id) as history:
        assert history.events() == [] and history.latest_snapshot() is None


def test_a_database_another_connection_holds_is_never_waited_for(store: SqliteStore, write: Writer) -> None:
    """The CLI, or a worker thread adding a member, holds SQLite's write lock: the loop's write
    is turned away at once with nothing written, its reads go on, and a worker thread's
    connection still waits for the lock as before."""
    import time

    from test_awaited_postgres import _member

    record = store.create_campaign(NEW)
    _member(store, record.id, "ana1")
    inline = InlineSqlite(store, threading.RLock())
    blocker = sqlite3.connect(store.path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        with pytest.raises(AwaitedUnavailable):
            asyncio.run(write(inline, record.id, event(1), standing="ana1", now=5.0))
        assert time.monotonic() - started < 1.0  # not SQLite's minute of waiting
        assert asyncio.run(inline.member_by_token_id("ana1")) is not None  # a read waits for no writer
        by_thread: list[bool] = []
        worker = threading.Thread(target=lambda: by_thread.append(store.append_if_head(record.id, event(1))))
        worker.start()
        worker.join(0.5)
        assert worker.is_alive() and not by_thread  # a worker thread waits for the lock
        blocker.execute("COMMIT")
        worker.join(10)
        assert by_thread == [True]
    finally:
        blocker.close()
    assert store.find_campaign(NEW.name).version == 1  # type: ignore[union-attr]  # written once, by the thread
