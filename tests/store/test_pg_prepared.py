"""An action's write on PostgreSQL, prepared once per connection and sent through libpq
(``store.pg_prepared``): the statement as prepared, the values' text, and the awaited store
taking that way for every ordinary write and psycopg's for anything else."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections.abc import Iterator
from typing import Any

import pytest
from awaited_support import awaiting, warmed, written
from test_store_backends import NEW, event

from rulekeeper.errors import StoreError
from rulekeeper.store import Store, open_store
from rulekeeper.store.base import AwaitedUnavailable
from rulekeeper.store.pg_prepared import PARAMETER_TYPES, PreparedWrite, run_prepared
from rulekeeper.store.records import NewMember
from rulekeeper.store.statements import Statements, event_row
from support.pg_sessions import end_client_sessions


def test_placeholders_become_numbered_parameters_with_their_types() -> None:
    statement = "UPDATE t SET a = %(seq)s WHERE id = %(cid)s AND b = %(seq)s"
    write = PreparedWrite("w", statement, {"seq": "integer", "cid": "bigint"})
    assert write.order == ("seq", "cid")
    assert write.text == "UPDATE t SET a = $1 WHERE id = $2 AND b = $1"
    assert write.types == ("integer", "bigint") and write.oids == (23, 20)
    with pytest.raises(ValueError, match="no known type: other"):
        PreparedWrite("w", "SELECT %(seq)s, %(other)s", {"seq": "integer"})
    with pytest.raises(ValueError, match="% that is not a placeholder"):
        PreparedWrite("w", "SELECT %(seq)s % 2", {"seq": "integer"})


def test_every_parameter_of_the_action_writes_has_a_type() -> None:
    sql = Statements("postgresql")
    statements = (
        sql.append_if_head,
        sql.append_if_standing,
        sql.append_keeping_snapshot,
        sql.append_standing_keeping_snapshot,
    )
    for statement in statements:
        write = PreparedWrite("w", statement)
        assert set(write.order) <= set(PARAMETER_TYPES)
        assert "%(" not in write.text


def test_values_are_sent_as_text_only_when_that_text_is_certain() -> None:
    types = {"a": "text", "b": "text", "c": "bigint", "d": "double precision"}
    write = PreparedWrite("w", "SELECT %(a)s, %(b)s, %(c)s, %(d)s", types)
    sent = write.values({"a": None, "b": "héllo ✓", "c": -12, "d": 1700000000.123456789})
    assert sent is not None
    assert sent[:3] == [None, "héllo ✓".encode(), b"-12"]
    assert sent[3] is not None and float(sent[3]) == 1700000000.123456789  # reads back exactly
    for odd in ("nul\x00byte", "lone \ud800 surrogate", True, math.nan, math.inf, b"bytes", [1]):
        assert write.values({"a": None, "b": odd, "c": 1, "d": 1.0}) is None, odd
    # A float only where the parameter is a float: for an integer column psycopg's cast rounds it.
    typed = PreparedWrite("w", "SELECT %(at)s, %(now)s")
    assert typed.values({"at": 5, "now": 2.5}) == [b"5", b"2.5"]
    assert typed.values({"at": 5.0, "now": 2.5}) is None


def _plain(store: Store) -> str:
    """The store's URL as psycopg takes it."""
    return store.url.replace("postgresql+psycopg://", "postgresql://", 1)


@pytest.fixture
def store(fresh_pg_url: str) -> Iterator[Store]:
    opened = open_store(fresh_pg_url)
    yield opened
    opened.close()


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the prepared writes sent, from now on."""
    sent: list[str] = []

    async def counted(connection: Any, write: PreparedWrite, values: list[bytes | None]) -> bool:
        sent.append(write.name)
        return await run_prepared(connection, write, values)

    monkeypatch.setattr("rulekeeper.store.pg_awaited.run_prepared", counted)
    return sent


@pytest.mark.postgres
def test_ordinary_writes_take_the_prepared_statement_and_read_back_exactly(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = _counting(monkeypatch)
    record = store.create_campaign(NEW)
    store.add_member(record.id, NewMember("ana", "player", ("kira",), "tok", "0" * 64, 1.0, None))
    first = dataclasses.replace(event(1, key="k1"), wall_time=1700000000.123456789)

    async def run() -> list[bool]:
        async with warmed(awaiting(store)) as awaited:
            return [
                await written(awaited, record.id, first),
                await written(awaited, record.id, event(2), standing="tok", now=5.0),
                await written(awaited, record.id, event(2)),  # the head moved on: refused
            ]

    assert asyncio.run(run()) == [True, True, False]
    assert sent == ["rk_append_if_head", "rk_append_if_standing", "rk_append_if_head"]
    with store.reading(record.id) as history:
        assert history.events() == [first, event(2)]  # text, unicode, NULL and float exact


@pytest.mark.postgres
def test_a_value_libpq_cannot_take_goes_through_psycopg_and_is_refused_in_our_words(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = _counting(monkeypatch)
    record = store.create_campaign(NEW)

    async def run() -> None:
        async with warmed(awaiting(store)) as awaited:
            with pytest.raises(StoreError, match=r"^database error \(") as caught:
                await written(awaited, record.id, event(1, key="a\x00b"))
            assert "NUL" in str(caught.value)

    asyncio.run(run())
    assert sent == []
    assert store.find_campaign(NEW.name).version == 0  # type: ignore[union-attr]


@pytest.mark.postgres
def test_an_error_of_the_prepared_statement_is_a_store_error_and_the_next_write_lands(store: Store) -> None:
    record = store.create_campaign(NEW)

    async def run() -> bool:
        async with warmed(awaiting(store)) as awaited:
            too_big = dataclasses.replace(event(1), at=2**63)  # past bigint
            with pytest.raises(StoreError, match=r"^database error \(.*out of range"):
                await written(awaited, record.id, too_big)
            return await written(awaited, record.id, event(1))

    assert asyncio.run(run())
    with store.reading(record.id) as history:
        assert history.events() == [event(1)]


@pytest.mark.postgres
def test_a_connection_lost_mid_write_is_a_store_error_and_new_ones_are_prepared(store: Store) -> None:
    record = store.create_campaign(NEW)

    async def run() -> bool:
        async with warmed(awaiting(store)) as awaited:
            # Every connection ended from outside (a restart, a failover).
            end_client_sessions(store.url)
            with pytest.raises(StoreError, match=r"^database error \(postgresql"):
                await written(awaited, record.id, event(1))
            for _ in range(100):  # opened again in the background, the write prepared on them
                await asyncio.sleep(0.05)
                try:
                    return await written(awaited, record.id, event(1))
                except AwaitedUnavailable:
                    continue
            raise AssertionError("no connection was opened again in 5 s")

    assert asyncio.run(run())
    check = open_store(store.url)  # the blocking store's own connections were ended too
    try:
        with check.reading(record.id) as history:
            assert history.events() == [event(1)]
    finally:
        check.close()


@pytest.mark.postgres
def test_a_cancelled_write_is_stopped_on_the_server_too(store: Store) -> None:
    import psycopg

    record = store.create_campaign(NEW)
    url = _plain(store)

    async def run() -> bool:
        async with warmed(awaiting(store)) as awaited:
            with psycopg.connect(url) as holder:  # holds the table the write inserts into: it waits
                holder.execute("LOCK TABLE events IN SHARE MODE")
                write = asyncio.ensure_future(written(awaited, record.id, event(1)))
                await asyncio.sleep(0.3)
                assert not write.done()
                write.cancel()  # as uvicorn cancels a request still running when it stops
                with pytest.raises(asyncio.CancelledError):
                    await write
                holder.commit()  # the row is free: a write still queued would land now
            time.sleep(0.3)
            assert store.find_campaign(NEW.name).version == 0  # type: ignore[union-attr]
            return await written(awaited, record.id, event(1))  # the pool still writes

    assert asyncio.run(run())


def _blocks_read(conn: Any, write: PreparedWrite, params: dict[str, Any]) -> int:
    """The buffers (hit or read) the generic plan of ``write`` touches for ``params``: run under
    ``EXPLAIN ANALYZE`` in a transaction rolled back, so nothing is written."""
    values = write.values(params)
    assert values is not None
    literals = ", ".join("NULL" if v is None else "'" + v.decode().replace("'", "''") + "'" for v in values)
    with conn.transaction(force_rollback=True), conn.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE {write.name}({literals})")
        plan = cursor.fetchone()[0][0]
    returned = plan["Plan"].get("Actual Rows", 0)
    assert returned == 1, f"{write.name} wrote nothing: {plan}"
    return int(plan["Plan"]["Shared Hit Blocks"]) + int(plan["Plan"]["Shared Read Blocks"])


@pytest.mark.postgres
def test_an_action_write_reads_no_more_of_a_long_campaign_than_of_a_new_one(store: Store) -> None:
    """The write every action runs looks a command's key up, and its member's standing, through
    indexes that go straight to them: a campaign with a long history and many members costs it
    no more than a new one. The plan is the generic one a prepared statement keeps, made while
    the tables were small, as the awaited store's connections make theirs when a server starts
    (revision 0004's indexes let such a plan read every event of its campaign per action:
    PostgreSQL's CPU per action doubled by 2,000 events)."""
    import psycopg

    short = store.create_campaign(dataclasses.replace(NEW, name="short"))
    long = store.create_campaign(dataclasses.replace(NEW, name="long"))
    for record in (short, long):
        store.add_member(record.id, NewMember("ana", "player", ("bob",), f"tok{record.id}", "0" * 64, 1.0, None))
    sql = Statements("postgresql")
    writes = [PreparedWrite("t_head", sql.append_if_head), PreparedWrite("t_standing", sql.append_if_standing)]

    def params(record_id: int, head: int, key: str | None) -> dict[str, Any]:
        appended = dataclasses.replace(event(head + 1), key=key)
        return {**event_row(record_id, appended), "base": head, "token_id": f"tok{record_id}", "now": 1.5}

    with psycopg.connect(_plain(store), autocommit=True) as conn:
        # No statistics gathered meanwhile (they would make PostgreSQL plan again).
        conn.execute("ALTER TABLE events SET (autovacuum_enabled = off)")
        conn.execute("ALTER TABLE members SET (autovacuum_enabled = off)")
        conn.execute("SET plan_cache_mode = force_generic_plan")
        for write in writes:
            conn.execute(f"PREPARE {write.name} ({', '.join(write.types)}) AS {write.text}")
        cases = [(write, key) for key in (None, "fresh") for write in writes]
        touched_short = [_blocks_read(conn, write, params(short.id, 0, key)) for write, key in cases]
        conn.execute(
            "INSERT INTO events SELECT %(cid)s, seq, 'act', '{}', '[]', '{}', '[]', '[]', 0, 0, 0, 0, "
            "CASE WHEN seq %% 100 = 0 THEN 'key' || seq END, seq - 1, 0 FROM generate_series(1, 3000) seq",
            {"cid": long.id},
        )
        conn.execute("UPDATE campaigns SET version = 3000 WHERE id = %(cid)s", {"cid": long.id})
        for i in range(300):
            store.add_member(long.id, NewMember(f"p{i}", "player", (), f"old{i}", "0" * 64, 1.0, 2.0))
        touched_long = [_blocks_read(conn, write, params(long.id, 3000, key)) for write, key in cases]
    for (write, key), before, after in zip(cases, touched_short, touched_long, strict=True):
        # A level deeper in an index or two costs a few blocks; a scan costs hundreds.
        assert after <= before + 8, (write.name, key, before, after)
