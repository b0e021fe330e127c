"""The PostgreSQL change watch listens only while someone follows a campaign, and once
``follow(True)`` returns, a command committed by another connection reaches it."""

from __future__ import annotations

import threading
import time

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core.action import Action
from rulekeeper.store.changes import watch_changes


def _listeners(url: str) -> int:
    import psycopg

    from rulekeeper.store.sql import NOTIFY_CHANNEL

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query = %s",
            (f"LISTEN {NOTIFY_CHANNEL}",),
        ).fetchone()
        return int(row[0]) if row else 0


@pytest.mark.postgres
def test_listens_only_while_followed(fresh_pg_url: str) -> None:
    store = open_store(fresh_pg_url)
    heard: list[int | None] = []
    arrived = threading.Event()

    def wake(campaign_id: int | None) -> None:
        heard.append(campaign_id)
        arrived.set()

    watcher = watch_changes(store.url, wake)
    try:
        campaign = Campaign.create(store, "watched", "gurps", seed=1)
        campaign.add_character("hero", {"st": 10, "ht": 12})
        time.sleep(0.3)  # the thread is idle: nothing is listening, nothing is heard
        assert heard == []
        assert _listeners(fresh_pg_url) == 0

        watcher.follow(True)  # returns once LISTEN is in effect
        assert heard == [None]  # "anything may have changed while I was not listening"
        assert watcher.changed()
        arrived.clear()
        campaign.act(Action("damage", "hero", {"amount": 1}))
        assert arrived.wait(10)
        assert heard[-1] == campaign.record.id
        assert watcher.changed()

        watcher.follow(False)
        deadline = time.monotonic() + 10
        while _listeners(fresh_pg_url) and time.monotonic() < deadline:
            time.sleep(0.1)
        count = len(heard)
        campaign.act(Action("heal", "hero", {"amount": 1}))
        time.sleep(0.5)
        assert len(heard) == count  # not listening: no wake-up per command

        watcher.follow(True)  # following again: listening again, and told to look
        assert len(heard) == count + 1 and heard[-1] is None
    finally:
        watcher.close()
        store.close()
