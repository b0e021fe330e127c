"""Storage for campaigns: SQLite by default, PostgreSQL by URL, or memory.

The campaign layer talks only to :class:`Store` and the history protocols; all SQL lives here.
"""

from __future__ import annotations

from rulekeeper.store.base import HistoryReader, HistoryWriter, Store
from rulekeeper.store.records import (
    META_KINDS,
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    SnapshotRecord,
)
from rulekeeper.store.urls import ENV_VAR, default_path, resolve_url

__all__ = [
    "ENV_VAR",
    "META_KINDS",
    "CampaignInfo",
    "CampaignRecord",
    "EventRecord",
    "HistoryReader",
    "HistoryWriter",
    "MemberRecord",
    "NewCampaign",
    "NewMember",
    "SnapshotRecord",
    "Store",
    "default_path",
    "open_store",
    "resolve_url",
]


def open_store(url: str | None = None) -> Store:
    """Open (creating and upgrading as needed) the store at ``url``.

    ``None`` means the ``RULEKEEPER_DB`` environment variable, else ``campaigns.db`` in the
    user's data directory. A plain path is a SQLite file; ``sqlite:///...`` and
    ``postgresql+psycopg://...`` URLs are used as given; ``memory://`` keeps campaigns in this
    process only.
    """
    resolved = resolve_url(url)
    if resolved.startswith("memory://"):
        from rulekeeper.store.memory import MemoryStore

        return MemoryStore()
    from rulekeeper.store.sqlite import sqlite_path

    if sqlite_path(resolved) is not None:
        from rulekeeper.store.sqlite import SqliteStore

        return SqliteStore(resolved)
    from rulekeeper.store.sql import SqlStore

    return SqlStore(resolved)
