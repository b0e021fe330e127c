"""The store interface, the same on memory, SQLite and PostgreSQL: atomic, ordered, keyed."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from rulekeeper.errors import InputError, StoreError, UnknownNameError
from rulekeeper.store import EventRecord, NewCampaign, SnapshotRecord, Store, open_store
from rulekeeper.store.urls import resolve_url


@pytest.fixture
def store(any_url: str) -> Iterator[Store]:
    opened = open_store(any_url)
    yield opened
    opened.close()


def event(seq: int, *, kind: str = "advance", key: str | None = None, refs: tuple[int, ...] = ()) -> EventRecord:
    return EventRecord(
        seq=seq,
        kind=kind,
        command={"kind": kind, "seconds": seq, "text": "héllo"},
        dice=((6, seq % 6 + 1),),
        outcome='{"result":{},"explanation":[]}',
        actors=("bob",),
        refs=refs,
        at=seq,
        until=seq + 1,
        next_id=seq,
        next_id_after=seq + 1,
        key=key,
        base_version=seq - 1,
        wall_time=1700000000.25 + seq,
    )


NEW = NewCampaign(name="c", system="toy", seed=2**62, gm="gm", settings={"automation": {}, "options": {}}, created=1.5)


def test_campaign_headers(store: Store) -> None:
    record = store.create_campaign(NEW)
    assert (record.name, record.seed, record.version, record.created) == ("c", 2**62, 0, 1.5)
    assert store.find_campaign("c") == record
    assert store.find_campaign("d") is None
    with pytest.raises(InputError, match="already exists"):
        store.create_campaign(NEW)
    assert [i.name for i in store.list_campaigns()] == ["c"]
    store.delete_campaign("c")
    with pytest.raises(UnknownNameError):
        store.delete_campaign("c")


def test_a_deleted_campaigns_id_is_never_given_again(any_url: str) -> None:
    """Whatever a server keeps by campaign id must never be taken for another campaign: an id,
    once given, is not given again, even after its campaign is deleted and the store reopened."""
    store = open_store(any_url)
    try:
        given = [store.create_campaign(replace(NEW, name=name)).id for name in ("a", "b")]
        store.delete_campaign("b")  # the highest id, which SQLite would give again
        given.append(store.create_campaign(replace(NEW, name="c")).id)
        if any_url != "memory://":
            store.close()
            store = open_store(any_url)
        store.delete_campaign("c")
        given.append(store.create_campaign(replace(NEW, name="b")).id)
        assert len(set(given)) == 4 and given == sorted(given), given
    finally:
        store.close()


def test_events_round_trip_exactly(store: Store) -> None:
    record = store.create_campaign(NEW)
    written = [event(1, key="a"), event(2), event(3, kind="undo", refs=(2,)), event(4, key="b")]
    with store.writing(record.id) as history:
        for e in written:
            history.append(e)
        assert history.head() == 4
    with store.reading(record.id) as history:
        assert history.head() == 4
        assert history.events() == written
        assert history.events(after=1, until=3) == written[1:3]
        assert history.event(3) == written[2]
        assert history.event(9) is None
        assert history.event_by_key("b") == written[3]
        assert history.meta_events() == [written[2]]
        assert history.command_seqs_desc(2) == [4, 2]
    assert store.find_campaign("c").version == 4  # type: ignore[union-attr]


def test_a_failed_transaction_writes_nothing(store: Store) -> None:
    record = store.create_campaign(NEW)
    with pytest.raises(RuntimeError), store.writing(record.id) as history:
        history.append(event(1))
        history.put_snapshot(SnapshotRecord(1, "{}"))
        raise RuntimeError("a rule refused")
    with store.reading(record.id) as history:
        assert history.head() == 0 and history.events() == [] and history.latest_snapshot() is None


def test_appends_must_follow_the_head_and_keys_are_unique(store: Store) -> None:
    record = store.create_campaign(NEW)
    with store.writing(record.id) as history:
        history.append(event(1, key="k"))
    with pytest.raises(StoreError), store.writing(record.id) as history:
        history.append(event(3))
    with pytest.raises(StoreError), store.writing(record.id) as history:
        history.append(event(2, key="k"))
    with store.reading(record.id) as history:
        assert history.head() == 1


def test_snapshots(store: Store) -> None:
    record = store.create_campaign(NEW, [event(i) for i in range(1, 11)], [SnapshotRecord(5, '"five"')])
    with store.writing(record.id) as history:
        history.put_snapshot(SnapshotRecord(10, '"ten"'))
        history.put_snapshot(SnapshotRecord(10, '"again"'))  # kept as first written
    with store.reading(record.id) as history:
        assert history.latest_snapshot() == SnapshotRecord(10, '"ten"')
        assert history.latest_snapshot(at_most=9) == SnapshotRecord(5, '"five"')
        assert history.latest_snapshot(at_most=4) is None
    with store.writing(record.id) as history:
        history.drop_snapshots(6)
    with store.reading(record.id) as history:
        assert history.latest_snapshot() == SnapshotRecord(5, '"five"')


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    open_store(str(path)).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_default_location_and_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULEKEEPER_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert resolve_url(None) == f"sqlite:///{tmp_path / 'data' / 'rulekeeper' / 'campaigns.db'}"
    monkeypatch.setenv("RULEKEEPER_DB", "postgresql://u@h/db")
    assert resolve_url(None) == "postgresql+psycopg://u@h/db"
    assert resolve_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"


@pytest.mark.postgres
def test_postgres_for_tests_comes_from_pgserver_first(pg_server: object) -> None:
    import importlib.util
    import os

    from rulekeeper.store.local_postgres import ENV_URL, LocalPostgres

    assert isinstance(pg_server, LocalPostgres)
    if os.environ.get(ENV_URL):
        assert pg_server.how == "env"
    elif importlib.util.find_spec("pgserver") is not None:
        assert pg_server.how == "pgserver"


def test_append_if_head_writes_only_on_its_head_and_for_a_new_key(store: Store) -> None:
    record = store.create_campaign(NEW)
    assert store.append_if_head(record.id, event(1, key="a"))
    assert not store.append_if_head(record.id, event(1))  # the head is 1 now, not 0
    assert not store.append_if_head(record.id, event(3))  # nor 2
    assert not store.append_if_head(record.id, event(2, key="a"))  # the key is taken
    assert store.append_if_head(record.id, event(2))  # no key: never taken
    assert store.append_if_head(record.id, event(3, key="b"))
    with store.reading(record.id) as history:
        assert history.head() == 3
        assert history.events() == [event(1, key="a"), event(2), event(3, key="b")]
    assert store.find_campaign("c").version == 3  # type: ignore[union-attr]


@pytest.mark.postgres
def test_sqlalchemy_connections_still_get_transactions_after_our_autocommit_reads(fresh_pg_url: str) -> None:
    """Our one-statement reads leave a pooled PostgreSQL connection in autocommit (set again only
    when it changes); a SQLAlchemy connection taken from the pool afterwards (migrations,
    maintenance) must still run in a transaction that can be rolled back."""
    import sqlalchemy as sa

    opened = open_store(fresh_pg_url)
    try:
        opened.list_campaigns()
        with opened.connect() as conn:  # type: ignore[attr-defined]
            with conn.begin() as transaction:
                conn.execute(sa.text("CREATE TABLE rolled_back (x integer)"))
                transaction.rollback()
            assert conn.execute(sa.text("SELECT to_regclass('rolled_back')")).scalar() is None
        assert opened.list_campaigns() == []  # and our own reads go on
    finally:
        opened.close()


def test_append_if_head_keeps_a_snapshot_with_its_event_or_neither(store: Store) -> None:
    record = store.create_campaign(NEW)
    assert store.append_if_head(record.id, event(1))
    assert not store.append_if_head(record.id, event(1), SnapshotRecord(1, '"one"'))  # the head moved
    with store.reading(record.id) as history:
        assert history.latest_snapshot() is None
    assert store.append_if_head(record.id, event(2), SnapshotRecord(2, '"two"'))
    assert store.append_if_head(record.id, event(3), SnapshotRecord(3, '"three"'), drop_snapshots_from=2)
    with store.reading(record.id) as history:
        assert history.head() == 3
        assert history.latest_snapshot() == SnapshotRecord(3, '"three"')
        assert history.latest_snapshot(at_most=2) is None  # dropped with the third event
