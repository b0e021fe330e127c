"""How a server learns that another process wrote: the heads of many campaigns in one look
(``Store.heads``, on every store) and the change watch (``store.changes``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core.action import Action
from rulekeeper.store import Store
from rulekeeper.store.changes import watch_changes
from rulekeeper.store.statements import CHUNK
from support.pg_sessions import client_sessions


@pytest.fixture
def store(any_url: str) -> Iterator[Store]:
    opened = open_store(any_url)
    yield opened
    opened.close()


def test_heads_of_many_campaigns_in_one_look(store: Store) -> None:
    a = Campaign.create(store, "a", "gurps", seed=1)
    b = Campaign.create(store, "b", "gurps", seed=2)
    a.add_character("hero", {"st": 10, "ht": 12})
    a.act(Action("damage", "hero", {"amount": 2}))
    ids = (a.record.id, b.record.id)
    assert store.heads(ids) == {a.record.id: a.version, b.record.id: b.version}
    assert a.version == 2 and b.version == 0
    assert store.heads([]) == {}

    a.act(Action("heal", "hero", {"amount": 1}))
    assert store.heads(ids)[a.record.id] == 3  # each look reads what is committed now

    # Unknown ids and deleted campaigns are left out, not errors; more ids than one statement
    # takes are asked in chunks.
    missing = max(ids) + 1
    store.delete_campaign("b")
    many = [a.record.id, b.record.id, *range(missing, missing + CHUNK + 5)]
    assert store.heads(many) == {a.record.id: 3}


@pytest.mark.postgres
def test_the_postgresql_watch_holds_no_connection_and_always_says_look(fresh_pg_url: str) -> None:
    def sessions() -> int:
        return client_sessions(fresh_pg_url)

    before = sessions()
    watcher = watch_changes(fresh_pg_url)
    try:
        # Writers send no NOTIFY (they would commit one at a time server-wide), so nothing is
        # listened for: every look says "look", and the caller compares the heads.
        assert sessions() == before
        assert watcher.changed() and watcher.changed()
        assert watcher.interval <= 0.05
    finally:
        watcher.close()


def test_the_sqlite_watch_says_look_only_after_another_commit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/w.db"
    store = open_store(url)
    watcher = watch_changes(store.url)
    try:
        campaign = Campaign.create(store, "w", "gurps", seed=1)
        campaign.add_character("hero", {"st": 10, "ht": 12})
        watcher.changed()  # the first look has nothing to compare with
        assert not watcher.changed()
        campaign.act(Action("damage", "hero", {"amount": 1}))
        assert watcher.changed()
        assert not watcher.changed()
    finally:
        watcher.close()
        store.close()
