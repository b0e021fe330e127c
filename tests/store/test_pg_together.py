"""Group commit on PostgreSQL (``AwaitedPostgres.append_if_head``): the writes that come while
one transaction is being written go together in the next, and each is answered as it would be
alone -- written, refused at its head, or failed in our words -- with nothing of a failed
transaction kept. Transactions are told apart by the id PostgreSQL stamps on the rows each
one writes (``xmin``)."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import psycopg
import pytest
from awaited_support import awaiting, warmed
from test_store_backends import NEW, event

from rulekeeper.errors import OutcomeUnknown, StoreError
from rulekeeper.store import NewCampaign, Store
from rulekeeper.store.base import AwaitedStore
from rulekeeper.store.pg_prepared import PreparedWrite, prepare, run_prepared_together
from rulekeeper.store.records import CampaignRecord
from support.pg_faults import answers_lost


@pytest.fixture
def store(pg_store: Store) -> Store:
    return pg_store


def _plain(store: Store) -> str:
    return store.url.replace("postgresql+psycopg://", "postgresql://", 1)


def _campaigns(store: Store, count: int) -> list[CampaignRecord]:
    return [store.create_campaign(NewCampaign(**{**NEW.__dict__, "name": f"c{i}"})) for i in range(count)]


def _transactions(store: Store, records: list[CampaignRecord]) -> dict[int, str]:
    """Each campaign's newest event: the transaction that wrote it (``xmin``)."""
    with psycopg.connect(_plain(store)) as conn:
        rows = conn.execute(
            "SELECT campaign_id, xmin::text FROM events WHERE campaign_id = ANY(%s) "
            "AND seq = (SELECT version FROM campaigns WHERE id = campaign_id)",
            ([r.id for r in records],),
        ).fetchall()
    return {int(cid): str(xid) for cid, xid in rows}


def _versions(store: Store, records: list[CampaignRecord]) -> list[int]:
    return [store.find_campaign(r.name).version for r in records]  # type: ignore[union-attr]


@pytest.mark.postgres
def test_writes_that_come_together_are_one_transaction_and_each_is_answered(store: Store) -> None:
    records = _campaigns(store, 6)

    async def run() -> list[bool]:
        async with warmed(awaiting(store)) as awaited:
            # All six queued in one turn of the loop; one of them is not at its head.
            writes = [awaited.append_if_head(r.id, event(2 if i == 3 else 1)) for i, r in enumerate(records)]
            return list(await asyncio.gather(*writes))

    assert asyncio.run(run()) == [True, True, True, False, True, True]
    assert _versions(store, records) == [1, 1, 1, 0, 1, 1]
    written = _transactions(store, records)
    assert len(written) == 5 and len(set(written.values())) == 1  # one commit for the five
    with store.reading(records[0].id) as history:
        assert history.events() == [event(1)]  # read back exactly


@pytest.mark.postgres
def test_a_write_that_fails_takes_only_itself_down(store: Store) -> None:
    records = _campaigns(store, 4)
    too_big = dataclasses.replace(event(1), at=2**63)  # past bigint: PostgreSQL refuses it

    async def run() -> list[object]:
        async with warmed(awaiting(store)) as awaited:
            writes = [awaited.append_if_head(r.id, too_big if i == 1 else event(1)) for i, r in enumerate(records)]
            return list(await asyncio.gather(*writes, return_exceptions=True))

    answers = asyncio.run(run())
    assert answers[0] is True and answers[2] is True and answers[3] is True
    failed = answers[1]
    assert isinstance(failed, StoreError) and str(failed).startswith("database error (")
    assert "out of range" in str(failed)
    assert _versions(store, records) == [1, 0, 1, 1]
    # The transaction the failure rolled back left nothing: the others were written again, alone.
    assert len(set(_transactions(store, records).values())) == 3


@pytest.mark.postgres
def test_a_write_given_up_before_its_transaction_is_sent_is_never_written(store: Store) -> None:
    first, second, third = _campaigns(store, 3)

    async def run() -> tuple[bool, bool]:
        async with warmed(awaiting(store)) as awaited:
            with psycopg.connect(_plain(store)) as holder:  # the first write waits for the table
                holder.execute("LOCK TABLE events IN SHARE MODE")
                under_way = asyncio.ensure_future(awaited.append_if_head(first.id, event(1)))
                await asyncio.sleep(0.3)
                queued = asyncio.ensure_future(awaited.append_if_head(second.id, event(1)))
                kept = asyncio.ensure_future(awaited.append_if_head(third.id, event(1)))
                await asyncio.sleep(0.1)
                assert not under_way.done() and not queued.done()
                queued.cancel()  # its client went away
                holder.commit()
            return await under_way, await kept

    assert asyncio.run(run()) == (True, True)
    assert _versions(store, [first, second, third]) == [1, 0, 1]


@pytest.mark.postgres
def test_a_campaign_another_transaction_holds_holds_up_no_other_campaign(store: Store) -> None:
    """A write whose campaign's row another transaction holds (another process's command on
    that campaign) is not written, as if its head had moved, and it is answered at once, with
    the other writes of its transaction written: the command goes to a worker thread, which
    waits for the row, and no other campaign of the process waits with it."""
    low, middle, high = _campaigns(store, 3)

    async def run() -> list[bool]:
        async with warmed(awaiting(store)) as awaited:
            with psycopg.connect(_plain(store)) as holder:
                holder.execute("SELECT 1 FROM campaigns WHERE id = %s FOR UPDATE", (middle.id,))
                answers = await asyncio.wait_for(
                    asyncio.gather(*(awaited.append_if_head(r.id, event(1)) for r in (high, middle, low))), 30
                )
                holder.rollback()
                return list(answers)

    assert asyncio.run(run()) == [True, False, True]  # answered while the row was still held
    assert _versions(store, [low, middle, high]) == [1, 0, 1]
    assert len(set(_transactions(store, [low, high]).values())) == 1


@pytest.mark.postgres
def test_closing_answers_the_write_under_way_before_the_connections_close(store: Store) -> None:
    record, later = _campaigns(store, 2)

    async def run() -> tuple[bool, object]:
        awaited: AwaitedStore = awaiting(store)
        await awaited.warm()
        with psycopg.connect(_plain(store)) as holder:
            holder.execute("LOCK TABLE events IN SHARE MODE")  # the write waits for the table
            under_way = asyncio.ensure_future(awaited.append_if_head(record.id, event(1)))
            await asyncio.sleep(0.2)
            closing = asyncio.ensure_future(awaited.close())
            await asyncio.sleep(0.2)
            assert not closing.done()  # waiting for the write under way
            holder.commit()
        await closing
        after = await asyncio.gather(awaited.append_if_head(later.id, event(1)), return_exceptions=True)
        return await under_way, after[0]

    answer, after = asyncio.run(run())
    assert answer is True
    assert isinstance(after, StoreError) and "shutting down" in str(after)
    assert _versions(store, [record, later]) == [1, 0]


@pytest.mark.postgres
def test_statements_sent_together_answer_each_in_order_and_a_failure_keeps_none(store: Store) -> None:
    """``run_prepared_together`` itself: one row back or none, per statement; a statement that
    fails rolls back those before it, and the connection takes statements again after."""

    async def run() -> list[Any]:
        conn = await psycopg.AsyncConnection.connect(_plain(store), autocommit=True)
        try:
            await conn.execute("CREATE TABLE together (id integer PRIMARY KEY, v integer NOT NULL)")
            await conn.execute("INSERT INTO together VALUES (1, 0), (2, 0)")
            statement = "UPDATE together SET v = %(seq)s WHERE id = %(cid)s RETURNING id"
            bump = PreparedWrite("bump", statement, {"seq": "integer", "cid": "integer"})
            await prepare(conn, bump)
            answers: list[Any] = [
                await run_prepared_together(conn, [(bump, [b"5", b"1"]), (bump, [b"5", b"9"]), (bump, [b"6", b"2"])]),
                await run_prepared_together(conn, [(bump, [b"7", b"1"]), (bump, [b"x", b"2"]), (bump, [b"7", b"2"])]),
            ]
            answers.append(await (await conn.execute("SELECT id, v FROM together ORDER BY id")).fetchall())
            return answers
        finally:
            await conn.close()

    assert asyncio.run(run()) == [[True, False, True], None, [(1, 5), (2, 6)]]


@pytest.mark.postgres
def test_a_fault_of_ours_mid_transaction_answers_every_write_and_the_next_go_on(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the answers not match the writes (a bug of ours), no request waits for ever: each
    is told the outcome is unknown, in our words, and later writes are written as before."""
    from rulekeeper.store import pg_awaited

    first, second, third = _campaigns(store, 3)
    sent = pg_awaited._Connected.run_together

    async def short(self: Any, calls: Any) -> list[bool] | None:
        answers = await sent(self, calls)
        return None if answers is None else answers[:-1]

    async def run() -> tuple[list[object], bool]:
        async with warmed(awaiting(store)) as awaited:
            monkeypatch.setattr(pg_awaited._Connected, "run_together", short)
            writes = [awaited.append_if_head(r.id, event(1)) for r in (first, second)]
            answers = await asyncio.wait_for(asyncio.gather(*writes, return_exceptions=True), 10)
            monkeypatch.undo()
            return list(answers), await awaited.append_if_head(third.id, event(1))

    answers, later = asyncio.run(run())
    assert all(isinstance(a, StoreError) and str(a).startswith("database error (") for a in answers), answers
    assert later is True


@pytest.mark.postgres
@pytest.mark.parametrize("count", [1, 3])
def test_writes_whose_answers_are_lost_are_told_their_outcome_is_unknown(
    store: Store, monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    """Lost once sent, a transaction may have committed (here it did): its writes are told so,
    not refused as if nothing had been written, lest their commands be given again."""
    records = _campaigns(store, count)

    async def run() -> list[BaseException | bool]:
        async with warmed(awaiting(store)) as awaited:
            answers_lost(monkeypatch)
            writes = [awaited.append_if_head(r.id, event(1)) for r in records]
            return list(await asyncio.gather(*writes, return_exceptions=True))

    answers = asyncio.run(run())
    assert all(isinstance(a, OutcomeUnknown) for a in answers), answers
    assert _versions(store, records) == [1] * count  # they were written: the answer said it might be


@pytest.mark.postgres
def test_a_write_given_up_while_its_transaction_waits_for_a_connection_is_never_written(store: Store) -> None:
    (record,) = _campaigns(store, 1)

    async def run() -> bool:
        async with warmed(awaiting(store)) as awaited:
            release = asyncio.Event()

            async def holding() -> None:
                async with awaited.connected():  # type: ignore[attr-defined]
                    await release.wait()

            holders = [asyncio.ensure_future(holding()) for _ in range(4)]  # every connection taken
            await asyncio.sleep(0.1)
            given_up = asyncio.ensure_future(awaited.append_if_head(record.id, event(1)))
            await asyncio.sleep(0.3)  # taken from the queue by the writer, waiting for a connection
            given_up.cancel()  # its client went away
            await asyncio.sleep(0.1)
            release.set()
            await asyncio.gather(*holders)
            await asyncio.sleep(0.3)
            return given_up.cancelled()

    assert asyncio.run(run())
    assert _versions(store, [record]) == [0]


@pytest.mark.postgres
def test_a_worker_threads_write_lost_at_its_commit_is_told_its_outcome_is_unknown(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The blocking store says the same as the event loop's: a connection lost as a write
    commits may have committed it; a transaction PostgreSQL refuses at its commit (with its
    SQLSTATE) was not, and is a plain store error."""
    lost, refused = _campaigns(store, 2)
    real = psycopg.Connection.commit

    def committed_then_lost(self: psycopg.Connection[Any]) -> None:
        real(self)
        raise psycopg.OperationalError("server closed the connection unexpectedly")

    def refused_at_commit(self: psycopg.Connection[Any]) -> None:
        self.rollback()
        raise psycopg.errors.SerializationFailure("could not serialize access")

    monkeypatch.setattr(psycopg.Connection, "commit", committed_then_lost)
    with pytest.raises(OutcomeUnknown), store.writing(lost.id) as history:
        history.append(event(1))
    monkeypatch.setattr(psycopg.Connection, "commit", refused_at_commit)
    with pytest.raises(StoreError) as plain, store.writing(refused.id) as history:
        history.append(event(1))
    assert not isinstance(plain.value, OutcomeUnknown)
    monkeypatch.undo()
    assert _versions(store, [lost, refused]) == [1, 0]
