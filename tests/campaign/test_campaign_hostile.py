"""Hostile documents and damaged databases: imports that must not poison a store, forged dice that
audits must catch, damaged rows and snapshots that must not take a campaign (or the others) down,
and commands whose rules never run under the database's write lock."""

from __future__ import annotations

import copy
import json
import math
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import campaign_toy
import pytest
from test_campaign_exchange import played

from rulekeeper.campaign import Campaign, Store, open_store
from rulekeeper.core import Action, ActionSpec, AutomationLevel, Play, Settings
from rulekeeper.core.serial import state_to_json
from rulekeeper.errors import InputError, StoreError


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    opened = open_store(str(tmp_path / "campaigns.db"))
    yield opened
    opened.close()


def _db(store: Store) -> sqlite3.Connection:
    return sqlite3.connect(store.url.removeprefix("sqlite:///"))


def _set(path: str, value: object) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(doc: dict[str, Any]) -> dict[str, Any]:
        *parts, last = path.split(".")
        target: Any = doc
        for part in parts:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value
        return doc

    return change


# -- 3. an import never poisons the database ------------------------------------------------------------
POISON = [
    ("created 1e300", _set("campaign.created", 1e300), "campaign.created"),
    ("created inf", _set("campaign.created", math.inf), "campaign.created"),
    ("created NaN", _set("campaign.created", math.nan), "campaign.created"),
    ("created -1e15", _set("campaign.created", -1e15), "campaign.created"),
    ("wall time 1e300", _set("events.0.wall_time", 1e300), "events.0.wall_time"),
    ("version true", _set("version", True), "format version True"),
    ("version 1.0", _set("version", 1.0), "format version 1.0"),
    ("GM name 100,000 characters", _set("campaign.gm", "g" * 100_000), "campaign.gm"),
    ("GM name with a bell", _set("campaign.gm", "do\x07ra"), "control character U\\+0007"),
    ("GM name with a bidi override", _set("campaign.gm", "do\u202era"), "control character U\\+202E"),
    ("clock beyond 64 bits", _set("events.4.until", 2**70), "events.4.until"),
    ("seq beyond 64 bits", _set("events.0.seq", 2**64), "events.0.seq"),
    ("relabelled typed dice", _set("events.5.command.dice", None), "the campaign's seed rolls"),
    ("changed seed", _set("campaign.seed", 12), "the campaign's seed rolls"),
]


@pytest.mark.parametrize(("what", "poison", "reason"), POISON, ids=[p[0] for p in POISON])
def test_poisoned_imports_are_refused_whole(
    sqlite_store: Store, what: str, poison: Callable[[dict[str, Any]], dict[str, Any]], reason: str
) -> None:
    document = played(sqlite_store).export()
    assert document["events"][5]["command"]["kind"] == "resolve" and document["events"][5]["command"]["dice"]
    with pytest.raises(InputError, match=reason):
        Campaign.import_(sqlite_store, poison(copy.deepcopy(document)), name="poisoned")
    assert [i.name for i in sqlite_store.list_campaigns()] == ["exported"]
    assert all(i.problem is None for i in sqlite_store.list_campaigns())


# -- 4. audits that catch forged history ---------------------------------------------------------------
def test_verify_replays_seeded_dice_from_the_seed(sqlite_store: Store) -> None:
    c = played(sqlite_store)
    c.verify()
    with _db(sqlite_store) as db:
        command = json.loads(db.execute("SELECT command FROM events WHERE seq = 6").fetchone()[0])
        assert command["dice"] == [7]
        command["dice"] = None  # the die typed at the table, relabelled as the campaign's own roll
        db.execute("UPDATE events SET command = ? WHERE seq = 6", (json.dumps(command),))
    with pytest.raises(StoreError, match=r"#6 .*the campaign's seed rolls"):
        Campaign.open(sqlite_store, "exported").verify()


def test_verify_notices_a_changed_seed(sqlite_store: Store) -> None:
    played(sqlite_store)
    with _db(sqlite_store) as db:
        db.execute("UPDATE campaigns SET seed = seed + 1")
    with pytest.raises(StoreError, match="the campaign's seed rolls"):
        Campaign.open(sqlite_store, "exported").verify()


def _replayed(store: Store, name: str) -> dict[str, Any]:
    c = Campaign.open(store, name, use_snapshots=False)
    return state_to_json(c.ruleset, c.state)


def test_a_tampered_snapshot_is_not_believed(sqlite_store: Store) -> None:
    c = played(sqlite_store)
    truth = state_to_json(c.ruleset, c.state)
    with _db(sqlite_store) as db:
        version, data = db.execute("SELECT version, data FROM snapshots ORDER BY version DESC").fetchone()
        assert '"hp":' in data
        db.execute("UPDATE snapshots SET data = ? WHERE version = ?", (data.replace('"hp":', '"hp":9', 1), version))
    opened = Campaign.open(sqlite_store, "exported")
    assert state_to_json(opened.ruleset, opened.state) == truth == _replayed(sqlite_store, "exported")
    assert any(f"snapshot at #{version}" in w and "does not match" in w for w in opened.warnings)
    # The load put a sealed snapshot back, so the next one is quiet.
    assert Campaign.open(sqlite_store, "exported").warnings == ()


def test_a_garbage_snapshot_keeps_the_campaign_usable(sqlite_store: Store) -> None:
    c = played(sqlite_store)
    truth = state_to_json(c.ruleset, c.state)
    with _db(sqlite_store) as db:
        db.execute("UPDATE snapshots SET data = 'garbage {'")
    opened = Campaign.open(sqlite_store, "exported")
    assert state_to_json(opened.ruleset, opened.state) == truth
    assert opened.warnings and "exported" in opened.warnings[0]
    opened.act(Action("damage", "orc", {"amount": 1}))
    opened.undo()
    opened.verify()


def test_a_corrupt_event_row_names_campaign_and_event_and_spares_the_rest(sqlite_store: Store) -> None:
    played(sqlite_store)
    other = Campaign.create(sqlite_store, "other", "toy", seed=1)
    other.add_character("zed", {"max_hp": 3})
    with _db(sqlite_store) as db:
        db.execute(
            "UPDATE events SET command = '{not json' WHERE seq = 4 AND campaign_id = "
            "(SELECT id FROM campaigns WHERE name = 'exported')"
        )
    reads: list[Callable[[], object]] = [
        lambda: Campaign.open(sqlite_store, "exported").log(),
        lambda: Campaign.open(sqlite_store, "exported").export(),
        lambda: Campaign.open(sqlite_store, "exported", use_snapshots=False),
    ]
    for read in reads:
        with pytest.raises(StoreError, match=r"campaign 'exported': event #4 is corrupt"):
            read()
    assert len(Campaign.open(sqlite_store, "other").log()) == 1
    assert {i.name for i in sqlite_store.list_campaigns()} == {"exported", "other"}


def test_a_damaged_campaign_row_is_listed_with_its_problem(sqlite_store: Store) -> None:
    played(sqlite_store)
    Campaign.create(sqlite_store, "other", "toy", seed=1)
    with _db(sqlite_store) as db:
        db.execute("UPDATE campaigns SET created = 1e300 WHERE name = 'exported'")
        db.execute("UPDATE events SET wall_time = 1e300 WHERE seq = 2")
    infos = {i.name: i for i in sqlite_store.list_campaigns()}
    assert infos["other"].problem is None
    assert "not a date" in str(infos["exported"].problem)
    log = Campaign.open(sqlite_store, "exported").log()
    assert [e.wall_time.year for e in log[:3]] == [log[0].wall_time.year, 1970, log[0].wall_time.year]
    assert log[0].wall_time.year >= 2026


# -- 1. no rules computation under the write lock; bounded counts ----------------------------------------
def test_rules_run_before_the_write_lock_is_taken(sqlite_store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    path = sqlite_store.url.removeprefix("sqlite:///")

    def probe(play: Play[Any], action: Action) -> None:
        # Another writer tries the database's single write lock while the rules are running.
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            seen.append("free")
        except sqlite3.OperationalError as exc:
            seen.append(str(exc))
        finally:
            other.close()

    actions = campaign_toy.ToyRuleset.actions

    def with_probe(self: campaign_toy.ToyRuleset) -> Mapping[str, ActionSpec]:
        return {**actions(self), "probe": ActionSpec("probe", "try the write lock", probe, actor="none")}

    monkeypatch.setattr(campaign_toy.ToyRuleset, "actions", with_probe)
    c = Campaign.create(sqlite_store, "locks", "toy", seed=3)
    c.act(Action("probe", None, {}))
    assert seen == ["free"]
    assert c.version == 1


def test_round_n_is_one_command_and_bounded(sqlite_store: Store) -> None:
    c = Campaign.create(sqlite_store, "rounds", "toy", seed=3)
    result = c.next_round(40)
    assert c.version == result.version == 1 and c.state.clock == 40 * 6
    assert [e.summary for e in c.log()] == ["40 rounds"]
    for bad in (0, 1001, 10**30):
        with pytest.raises(InputError, match="rounds"):
            c.next_round(bad)
    assert c.version == 1
    c.undo()
    assert c.state.clock == 0


def test_advance_refuses_unbounded_timer_work(sqlite_store: Store) -> None:
    c = Campaign.create(
        sqlite_store,
        "bleeding",
        "toy",
        seed=3,
        settings=Settings(automation={"toy.death": AutomationLevel.PROMPT}, options={"bleed_every": 1}),
    )
    c.add_character("bob", {"max_hp": 1})
    c.act(Action("damage", "bob", {"amount": 1}))
    # The death check is typed first: while it waits, the bleeding dated after it waits too (roll_rules 5)
    c.resolve(c.pending()[0].id, [1])
    before = c.version
    with pytest.raises(InputError, match="would fire more than 10,000 timers"):
        c.advance(86_400)
    assert c.version == before
    c.advance(60)  # a minute of bleeding is fine


def test_undo_of_an_impossible_number_is_bad_input(sqlite_store: Store) -> None:
    c = Campaign.create(sqlite_store, "undo", "toy", seed=3)
    with pytest.raises(InputError, match="bad command number"):
        c.undo(99999999999999999999)


# -- damaged rows on every backend (the stdlib SQLite store and PostgreSQL share store/statements.py) ---
def _damage(store: Store, *statements: str) -> None:
    """Write rows behind the store's back, through its maintenance connection (any backend)."""
    with store.connect() as conn, conn.begin():  # type: ignore[attr-defined]
        for statement in statements:
            conn.exec_driver_sql(statement)


def test_damaged_rows_are_per_campaign_errors_on_every_backend(store: Store) -> None:
    played(store)
    Campaign.create(store, "other", "toy", seed=1).add_character("zed", {"max_hp": 3})
    Campaign.create(store, "settled", "toy", seed=2)
    exported = "(SELECT id FROM campaigns WHERE name = 'exported')"
    _damage(
        store,
        f"UPDATE events SET command = '{{not json' WHERE seq = 4 AND campaign_id = {exported}",
        "UPDATE campaigns SET settings = '[1, 2]' WHERE name = 'settled'",
        "UPDATE campaigns SET created = 1e300 WHERE name = 'other'",
    )
    with pytest.raises(StoreError, match=r"campaign 'exported': event #4 is corrupt"):
        Campaign.open(store, "exported", use_snapshots=False)
    with pytest.raises(StoreError, match=r"campaign 'settled' has a corrupt header"):
        Campaign.open(store, "settled")
    infos = {i.name: i for i in store.list_campaigns()}
    assert set(infos) == {"exported", "other", "settled"}
    assert "corrupt header" in str(infos["settled"].problem) and "not a date" in str(infos["other"].problem)
    assert infos["exported"].problem is None  # its header is sound; the bad event shows when it is opened
    assert len(Campaign.open(store, "other").log()) == 1


def test_a_tampered_snapshot_is_replaced_by_a_replay_on_every_backend(store: Store) -> None:
    c = played(store)
    truth = state_to_json(c.ruleset, c.state)
    _damage(store, "UPDATE snapshots SET data = 'garbage {'")
    opened = Campaign.open(store, "exported")
    assert state_to_json(opened.ruleset, opened.state) == truth
    assert opened.warnings and "replayed the history" in " ".join(opened.warnings)
    assert Campaign.open(store, "exported").warnings == ()


@pytest.mark.parametrize("backend", ["stdlib", "sqlalchemy"])
def test_a_sqlite_file_that_cannot_be_written_is_read_by_both_sqlite_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    import os

    from rulekeeper.store.sql import SqlStore
    from rulekeeper.store.sqlite import SqliteStore

    url = f"sqlite:///{tmp_path / 'campaigns.db'}"
    with_store = open_store(url)
    played(with_store)
    with_store.close()
    # As a read-only file or filesystem looks to a process that is not root.
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: not mode & os.W_OK)
    opened: Store = SqliteStore(url) if backend == "stdlib" else SqlStore(url)
    try:
        assert opened.read_only  # type: ignore[attr-defined]
        c = Campaign.open(opened, "exported")
        assert [i.name for i in opened.list_campaigns()] == ["exported"] and c.log() and c.export()
        with pytest.raises(StoreError, match="the file is read-only"):
            c.act(Action("damage", "orc", {"amount": 1}))
    finally:
        opened.close()
