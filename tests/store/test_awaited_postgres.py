"""The statements a server's event loop awaits on PostgreSQL (``Store.awaited``): the same
answers as the blocking store's, a write that checks its member still stands, and errors in our
words. SQLite and memory stores have none of their own (a server alone on a SQLite file runs
them inline: ``test_sqlite_inline``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from awaited_support import Writer, awaiting, warmed, written
from test_store_backends import NEW, event

from rulekeeper.errors import StoreError
from rulekeeper.store import NewCampaign, Store, open_store
from rulekeeper.store.base import AwaitedStore, AwaitedUnavailable
from rulekeeper.store.records import NewMember
from support.pg_sessions import client_sessions, end_client_sessions


@pytest.fixture
def store(fresh_pg_url: str) -> Iterator[Store]:
    opened = open_store(fresh_pg_url)
    yield opened
    opened.close()


def _member(store: Store, campaign_id: int, token_id: str, *, expires: float | None = None) -> None:
    store.add_member(campaign_id, NewMember("ana", "player", ("kira",), token_id, "0" * 64, 1.0, expires))


def test_sqlite_and_memory_stores_await_nothing(tmp_path: object) -> None:
    for url in (f"sqlite:///{tmp_path}/c.db", "memory://"):
        opened = open_store(url)
        try:
            assert opened.awaited() is None
        finally:
            opened.close()


@pytest.mark.postgres
def test_lookups_answer_as_the_blocking_store_does(store: Store) -> None:
    record = store.create_campaign(NEW)
    _member(store, record.id, "tok1")

    async def run() -> None:
        async with warmed(awaiting(store)) as awaited:
            assert await awaited.member_by_token_id("tok1") == store.member_by_token_id("tok1")
            assert await awaited.member_by_token_id("nobody") is None

    asyncio.run(run())


@pytest.mark.postgres
def test_the_awaited_write_lands_only_on_its_head_for_a_new_key(store: Store) -> None:
    record = store.create_campaign(NEW)

    async def run() -> None:
        async with warmed(awaiting(store)) as awaited:
            assert await written(awaited, record.id, event(1, key="a"))
            assert not await written(awaited, record.id, event(1))  # the head is 1 now
            assert not await written(awaited, record.id, event(3))  # nor 2
            assert not await written(awaited, record.id, event(2, key="a"))  # the key is taken
            assert await written(awaited, record.id, event(2))

    asyncio.run(run())
    with store.reading(record.id) as history:
        assert history.events() == [event(1, key="a"), event(2)]  # read back exactly, by the blocking store
    assert store.find_campaign("c").version == 2  # type: ignore[union-attr]


def refused_once_no_longer_standing(store: Store, awaited: AwaitedStore, write: Writer = written) -> None:
    """Writes for members that stand, have expired, are unknown, of another campaign or revoked
    meanwhile: only those that stand land, and nothing else is written."""
    record = store.create_campaign(NEW)
    other = store.create_campaign(NewCampaign(**{**NEW.__dict__, "name": "other"}))
    _member(store, record.id, "ana1")
    _member(store, record.id, "late", expires=100.0)
    _member(store, other.id, "elsewhere")

    async def run() -> list[bool]:
        async with warmed(awaited):
            answers = [
                await write(awaited, record.id, event(1), standing="ana1", now=50.0),  # stands
                await write(awaited, record.id, event(2), standing="late", now=150.0),  # expired
                await write(awaited, record.id, event(2), standing="nobody", now=50.0),  # unknown
                await write(awaited, record.id, event(2), standing="elsewhere", now=50.0),  # not this campaign
            ]
            assert store.revoke_members(record.id, "ana", 60.0) == 2  # meanwhile, in a transaction of its own
            answers.append(await write(awaited, record.id, event(2), standing="ana1", now=70.0))
            answers.append(await write(awaited, record.id, event(2)))  # no member to check
            return answers

    assert asyncio.run(run()) == [True, False, False, False, False, True]
    with store.reading(record.id) as history:
        assert [e.seq for e in history.events()] == [1, 2]
    assert store.find_campaign(NEW.name).version == 2  # type: ignore[union-attr]


@pytest.mark.postgres
def test_a_write_for_a_member_is_refused_once_the_member_no_longer_stands(store: Store) -> None:
    refused_once_no_longer_standing(store, awaiting(store))


@pytest.mark.postgres
def test_a_lost_database_is_a_store_error_in_our_words_and_the_next_call_reconnects(store: Store) -> None:
    async def run() -> None:
        async with warmed(awaiting(store)) as awaited:
            assert await awaited.member_by_token_id("nobody") is None
            # Every connection of the database ended from outside (a restart, a failover).
            end_client_sessions(store.url)
            with pytest.raises(StoreError, match=r"^database error \(postgresql"):
                await awaited.member_by_token_id("nobody")
            # The others died with it: none is handed out, and new ones open in the background.
            with pytest.raises(AwaitedUnavailable):
                await awaited.member_by_token_id("nobody")
            for _ in range(100):
                await asyncio.sleep(0.05)
                try:
                    assert await awaited.member_by_token_id("nobody") is None
                    break
                except AwaitedUnavailable:
                    continue
            else:
                raise AssertionError("no connection was opened again in 5 s")

    asyncio.run(run())


@pytest.mark.postgres
def test_after_close_nothing_more_is_sent(store: Store) -> None:
    record = store.create_campaign(NEW)

    async def run() -> None:
        async with warmed(awaiting(store)) as awaited:
            assert await awaited.member_by_token_id("nobody") is None
        with pytest.raises(StoreError, match="shutting down"):
            await written(awaited, record.id, event(1))

    asyncio.run(run())
    assert store.find_campaign("c").version == 0  # type: ignore[union-attr]


@pytest.mark.postgres
def test_warming_opens_the_connections_before_the_first_request_and_close_ends_them(store: Store) -> None:
    from rulekeeper.store.pg_awaited import POOL_SIZE

    def others() -> int:
        return client_sessions(store.url)

    async def run() -> None:
        before = others()
        awaited = awaiting(store)
        await awaited.warm()
        assert others() == before + POOL_SIZE
        for _ in range(3):
            assert (
                await asyncio.gather(*(awaited.member_by_token_id("nobody") for _ in range(POOL_SIZE)))
                == [None] * POOL_SIZE
            )
        assert others() == before + POOL_SIZE  # used, none opened beyond them
        await awaited.close()
        deadline = time.monotonic() + 10  # a backend leaves pg_stat_activity a moment after its client
        while others() != before and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert others() == before

    asyncio.run(run())


@pytest.mark.postgres
def test_a_statement_never_opens_a_connection_itself(store: Store) -> None:
    """Opening one may wait for a thread (a host name looked up), and the caller may hold a
    campaign that threads are queued on: with none open, the caller is told at once, and the
    connections are opened in the background."""

    async def run() -> None:
        awaited = awaiting(store)
        try:
            with pytest.raises(AwaitedUnavailable):
                await awaited.member_by_token_id("nobody")
            for _ in range(100):  # the background's connections, a moment later
                await asyncio.sleep(0.05)
                try:
                    assert await awaited.member_by_token_id("nobody") is None
                    return
                except AwaitedUnavailable:
                    continue
            raise AssertionError("no connection was opened in the background in 5 s")
        finally:
            await awaited.close()

    asyncio.run(run())


@pytest.mark.postgres
def test_an_older_libpq_keeps_every_write_on_worker_threads(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before libpq 17, cancelling a statement (as uvicorn does to requests still running when
    it stops) takes a thread, which could be queued on the campaign the request holds."""
    import psycopg

    assert store.awaited() is not None  # the pinned psycopg's libpq is newer
    monkeypatch.setattr(psycopg.pq, "version", lambda: 160004)
    assert store.awaited() is None


@pytest.mark.postgres
def test_the_awaited_statement_keeps_a_snapshot_with_its_event_and_only_with_it(store: Store) -> None:
    """The command in a hundred that keeps a snapshot is written by the awaited statement too,
    the snapshot in the same statement as its event: kept when the event is, never when the
    event is refused (a moved head, a member no longer standing). A snapshot already kept at
    that version stays as it was. Forgetting snapshots stays with the blocking store."""
    from rulekeeper.store.records import SnapshotRecord

    record = store.create_campaign(NEW)
    store.add_member(record.id, NewMember("ana", "player", (), "tok", "0" * 64, 1.0, None))
    store.add_member(record.id, NewMember("old", "player", (), "gone", "0" * 64, 1.0, 2.0))
    awaited = awaiting(store)
    assert awaited.keeps_snapshots and not awaited.drops_snapshots

    async def run() -> list[bool]:
        async with warmed(awaited):
            with pytest.raises(ValueError, match="forgets no snapshots"):
                await written(awaited, record.id, event(1), drop_snapshots_from=1)
            return [
                await written(awaited, record.id, event(1), snapshot=SnapshotRecord(1, "one")),
                await written(awaited, record.id, event(1), snapshot=SnapshotRecord(1, "again")),  # head moved
                await written(awaited, record.id, event(2), snapshot=SnapshotRecord(2, "x"), standing="gone", now=5.0),
                await written(awaited, record.id, event(2), snapshot=SnapshotRecord(2, "two"), standing="tok", now=5.0),
            ]

    assert asyncio.run(run()) == [True, False, False, True]
    with store.reading(record.id) as history:
        assert history.head() == 2
        assert history.latest_snapshot(at_most=1) == SnapshotRecord(1, "one")
        assert history.latest_snapshot() == SnapshotRecord(2, "two")
    with store.writing(record.id) as history:
        history.put_snapshot(SnapshotRecord(3, "kept before"))  # a snapshot already there stays

    async def over_it() -> bool:
        async with warmed(awaiting(store)) as again:  # a closed pool opens no more: a new one
            return await written(again, record.id, event(3), snapshot=SnapshotRecord(3, "new"))

    assert asyncio.run(over_it())
    with store.reading(record.id) as history:
        assert history.head() == 3 and history.latest_snapshot() == SnapshotRecord(3, "kept before")
