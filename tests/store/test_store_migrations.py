"""Schema migrations: run on open, upgrade an older database without losing a thing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core import Action
from rulekeeper.core.serial import state_to_json
from rulekeeper.errors import StoreError
from rulekeeper.store import migrate
from rulekeeper.store.schema import metadata
from rulekeeper.store.sql import SqlStore
from rulekeeper.store.sqlite import SqliteStore


def test_head_constant_matches_the_scripts() -> None:
    assert migrate.head_revision() == migrate.HEAD


def test_migrated_schema_matches_the_tables(db_url: str) -> None:
    open_store(db_url).close()
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert migrate.current_revision(conn) == migrate.HEAD
    engine.dispose()
    assert diff == []


def _history_from_memory(events: int) -> Campaign:
    memory = open_store("memory://")
    c = Campaign.create(memory, "old", "toy", seed=5)
    c.add_character("bob", {"max_hp": 1000}, player="ana")
    c.add_character("orc", {"max_hp": 8}, npc=True)
    for i in range(events - 2):
        c.act(Action("damage" if i % 3 else "heal", "bob", {"amount": i % 5}), key=f"k{i}")
    c.undo()
    return c


def test_a_database_made_at_the_first_revision_is_upgraded(db_url: str, toy: None) -> None:
    engine = sa.create_engine(db_url)
    with engine.connect() as conn, conn.begin():
        migrate.upgrade(conn, "0001")
    with engine.connect() as conn:
        assert migrate.current_revision(conn) == "0001"
        assert not sa.inspect(conn).has_table("snapshots")
    # Write a campaign the way revision 0001 stored it: a header and its events, no snapshots.
    source = _history_from_memory(260)
    document = source.export()
    with engine.connect() as conn, conn.begin():
        cid = conn.execute(
            sa.text(
                "INSERT INTO campaigns (name, system, seed, gm, settings, created, version) "
                "VALUES (:name, :system, :seed, :gm, :settings, :created, :version) RETURNING id"
            ),
            {
                **document["campaign"],
                "settings": json.dumps(document["campaign"]["settings"]),
                "version": source.version,
            },
        ).scalar_one()
        for e in document["events"]:
            conn.execute(
                sa.text(
                    "INSERT INTO events VALUES (:cid, :seq, :kind, :command, :dice, :outcome, :actors, :refs, :at, "
                    ":until, :next_id, :next_id_after, :key, :base_version, :wall_time)"
                ),
                {
                    **e,
                    "cid": cid,
                    **{k: json.dumps(e[k]) for k in ("command", "dice", "outcome", "actors", "refs")},
                },
            )
    engine.dispose()

    store = open_store(db_url)
    try:
        with store.connect() as conn:  # type: ignore[attr-defined]
            assert migrate.current_revision(conn) == migrate.HEAD
            assert sa.inspect(conn).has_table("snapshots")
        upgraded = Campaign.open(store, "old")
        assert upgraded.version == source.version
        assert state_to_json(upgraded.ruleset, upgraded.state) == state_to_json(source.ruleset, source.state)
        # The long replay left a snapshot behind, so the next load is short.
        with store.reading(upgraded.record.id) as history:
            snap = history.latest_snapshot()
            assert snap is not None and snap.version == source.version
        assert Campaign.open(store, "old").table == upgraded.table
        assert upgraded.act(Action("heal", "bob", {"amount": 0}), key="k0").retried
        upgraded.redo()
        upgraded.verify()
        assert upgraded.export()["events"][:-1] == document["events"]
    finally:
        store.close()


def test_downgrade_and_upgrade_keep_the_history(db_url: str, toy: None) -> None:
    store = open_store(db_url)
    c = Campaign.create(store, "kept", "toy", seed=1)
    c.add_character("bob", {"max_hp": 10})
    for _ in range(250):
        c.act(Action("damage", "bob", {"amount": 0}))
    expected = c.export()
    assert isinstance(store, (SqlStore, SqliteStore))
    with store.connect() as conn, conn.begin():
        migrate.downgrade(conn, "0001")
    store.close()
    reopened = open_store(db_url)
    try:
        assert Campaign.open(reopened, "kept").export() == expected
    finally:
        reopened.close()


def test_a_newer_schema_is_refused(db_url: str) -> None:
    open_store(db_url).close()
    engine = sa.create_engine(db_url)
    with engine.connect() as conn, conn.begin():
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer than this rulekeeper"):
        open_store(db_url)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    bogus = tmp_path / "notes.db"
    bogus.write_text("these are not the campaigns you are looking for\n" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        open_store(str(bogus))


def _plan(conn: sa.Connection, query: str, params: dict[str, object]) -> str:
    if conn.dialect.name == "sqlite":
        rows = conn.execute(sa.text(f"EXPLAIN QUERY PLAN {query}"), params).all()
        return " ".join(str(r[-1]) for r in rows)
    conn.execute(sa.text("SET enable_seqscan = off"))  # a tiny table: ask which index it *can* use
    return " ".join(str(r[0]) for r in conn.execute(sa.text(f"EXPLAIN {query}"), params).all())


def test_events_are_indexed_only_where_they_are_looked_up(db_url: str, toy: None) -> None:
    """Revision 0005: the unique key index holds keyed events only, the kind index undo and redo
    only; both are still what the lookups by key and by kind use, and keys stay unique."""
    store = open_store(db_url)
    c = Campaign.create(store, "lean", "toy", seed=1)
    c.add_character("bob", {"max_hp": 10})
    c.act(Action("damage", "bob", {"amount": 1}))
    c.act(Action("damage", "bob", {"amount": 1}), key="once")
    c.undo()
    store.close()
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                found = conn.execute(sa.text("SELECT name, sql FROM sqlite_master WHERE tbl_name = 'events'"))
                ddl: dict[str, str] = {name: text for name, text in found}
                assert "UNIQUE" not in ddl["events"]
            else:
                found = conn.execute(sa.text("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'events'"))
                ddl = {name: text for name, text in found}
            assert "ix_events_campaign_kind" not in ddl
            assert "idem_key IS NOT NULL" in ddl["uq_events_campaign_key"]
            assert "undo" in ddl["ix_events_campaign_reversals"]
            cid = conn.execute(sa.text("SELECT id FROM campaigns WHERE name = 'lean'")).scalar_one()
            by_key = "SELECT seq FROM events WHERE campaign_id = :cid AND idem_key = :key"
            assert "uq_events_campaign_key" in _plan(conn, by_key, {"cid": cid, "key": "once"})
            reversals = "SELECT seq FROM events WHERE campaign_id = :cid AND kind IN ('undo', 'redo') ORDER BY seq"
            assert "ix_events_campaign_reversals" in _plan(conn, reversals, {"cid": cid})
            assert conn.execute(sa.text(reversals), {"cid": cid}).scalars().all() == [4]
        with engine.connect() as conn, pytest.raises(sa.exc.IntegrityError):
            conn.execute(
                sa.text(
                    "INSERT INTO events SELECT campaign_id, 99, kind, command, dice, outcome, actors, refs, at, "
                    "until, next_id, next_id_after, idem_key, base_version, wall_time FROM events "
                    "WHERE campaign_id = :cid AND idem_key = 'once'"
                ),
                {"cid": cid},
            )
    finally:
        engine.dispose()
