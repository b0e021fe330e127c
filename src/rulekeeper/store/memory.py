"""A store that keeps campaigns in this process only (``open_store("memory://")``).

For tests, scenario runs and building large histories quickly; it has the same transaction
semantics as the SQL store (a writer's changes appear together when it finishes, or not at all).
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from rulekeeper.errors import InputError, StoreError
from rulekeeper.store.base import HistoryReader, HistoryWriter, Store, unknown_campaign
from rulekeeper.store.records import (
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    RefusalRecord,
    SnapshotRecord,
)

__all__ = ["MemoryStore"]


@dataclass
class _Campaign:
    record: CampaignRecord
    events: list[EventRecord] = field(default_factory=list)
    keys: dict[str, int] = field(default_factory=dict)
    snapshots: dict[int, str] = field(default_factory=dict)


class _History:
    """Reads committed events plus this transaction's own appends."""

    def __init__(self, campaign: _Campaign) -> None:
        self._c = campaign
        self.new: list[EventRecord] = []
        self.new_keys: dict[str, int] = {}
        self.puts: dict[int, str] = {}
        self.drop_from: int | None = None

    def _all(self) -> list[EventRecord]:
        return self._c.events + self.new if self.new else self._c.events

    def head(self) -> int:
        return len(self._c.events) + len(self.new)

    def event(self, seq: int) -> EventRecord | None:
        events = self._all()
        return events[seq - 1] if 1 <= seq <= len(events) else None

    def event_by_key(self, key: str) -> EventRecord | None:
        seq = self._c.keys.get(key, self.new_keys.get(key))
        return None if seq is None else self.event(seq)

    def events(self, after: int = 0, until: int | None = None) -> list[EventRecord]:
        events = self._all()
        return events[max(after, 0) : until]

    def meta_events(self) -> list[EventRecord]:
        return [e for e in self._all() if e.is_meta]

    def command_seqs_desc(self, limit: int) -> list[int]:
        out: list[int] = []
        for e in reversed(self._all()):
            if len(out) >= limit:
                break
            if not e.is_meta:
                out.append(e.seq)
        return out

    def _snapshots(self) -> dict[int, str]:
        snaps = dict(self._c.snapshots)
        if self.drop_from is not None:
            snaps = {v: d for v, d in snaps.items() if v < self.drop_from}
        snaps.update(self.puts)
        return snaps

    def latest_snapshot(self, at_most: int | None = None) -> SnapshotRecord | None:
        snaps = self._snapshots()
        versions = [v for v in snaps if at_most is None or v <= at_most]
        if not versions:
            return None
        best = max(versions)
        return SnapshotRecord(best, snaps[best])

    # -- writing ----------------------------------------------------------------------------
    def append(self, event: EventRecord) -> None:
        if event.seq != self.head() + 1:
            raise StoreError(f"event #{event.seq} does not follow version {self.head()}")
        if event.key is not None:
            if self.event_by_key(event.key) is not None:
                raise StoreError(f"idempotency key {event.key!r} is already used")
            self.new_keys[event.key] = event.seq
        self.new.append(event)

    def put_snapshot(self, snapshot: SnapshotRecord) -> None:
        if snapshot.version not in self._snapshots():
            self.puts[snapshot.version] = snapshot.data

    def drop_snapshots(self, from_version: int) -> None:
        self.drop_from = from_version if self.drop_from is None else min(self.drop_from, from_version)
        self.puts = {v: d for v, d in self.puts.items() if v < from_version}

    def commit(self) -> None:
        c = self._c
        if self.drop_from is not None:
            c.snapshots = {v: d for v, d in c.snapshots.items() if v < self.drop_from}
        c.snapshots.update(self.puts)
        c.events.extend(self.new)
        c.keys.update(self.new_keys)
        c.record = replace(c.record, version=len(c.events))


class MemoryStore(Store):
    """Campaigns in a dict, guarded by one lock; gone when the process ends."""

    def __init__(self) -> None:
        self.url = "memory://"
        self._lock = threading.RLock()
        self._campaigns: dict[int, _Campaign] = {}
        self._next_id = 1
        self._closed = False
        self._members: list[MemberRecord] = []
        self._refusals: dict[int, list[RefusalRecord]] = {}
        self._leases: dict[str, tuple[str, float]] = {}  # lease -> (token id, expires)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("this store has been closed")

    def list_campaigns(self) -> list[CampaignInfo]:
        with self._lock:
            self._check_open()
            return sorted((CampaignInfo.of(c.record) for c in self._campaigns.values()), key=lambda i: i.name)

    def find_campaign(self, name: str) -> CampaignRecord | None:
        with self._lock:
            self._check_open()
            for c in self._campaigns.values():
                if c.record.name == name:
                    return c.record
            return None

    def create_campaign(
        self,
        campaign: NewCampaign,
        events: Sequence[EventRecord] = (),
        snapshots: Sequence[SnapshotRecord] = (),
    ) -> CampaignRecord:
        with self._lock:
            self._check_open()
            if self.find_campaign(campaign.name) is not None:
                raise InputError(f"a campaign named {campaign.name!r} already exists", expected="a new name")
            record = CampaignRecord(
                id=self._next_id,
                name=campaign.name,
                system=campaign.system,
                seed=campaign.seed,
                gm=campaign.gm,
                settings=dict(campaign.settings),
                created=campaign.created,
                version=0,
            )
            stored = _Campaign(record)
            history = _History(stored)
            for e in events:
                history.append(e)
            for s in snapshots:
                history.put_snapshot(s)
            history.commit()
            self._campaigns[record.id] = stored
            self._next_id += 1
            return stored.record

    def delete_campaign(self, name: str) -> None:
        with self._lock:
            record = self.find_campaign(name)
            if record is None:
                raise unknown_campaign(self, name)
            del self._campaigns[record.id]
            self._members = [m for m in self._members if m.campaign_id != record.id]
            self._refusals.pop(record.id, None)

    def _get(self, campaign_id: int) -> _Campaign:
        self._check_open()
        try:
            return self._campaigns[campaign_id]
        except KeyError:
            raise StoreError(f"campaign #{campaign_id} no longer exists") from None

    def heads(self, campaign_ids: Collection[int]) -> dict[int, int]:
        with self._lock:
            self._check_open()
            kept = self._campaigns
            return {cid: len(kept[cid].events) for cid in campaign_ids if cid in kept}

    @contextmanager
    def reading(self, campaign_id: int) -> Iterator[HistoryReader]:
        with self._lock:
            yield _History(self._get(campaign_id))

    @contextmanager
    def writing(self, campaign_id: int) -> Iterator[HistoryWriter]:
        with self._lock:
            history = _History(self._get(campaign_id))
            yield history
            history.commit()

    def snapshots_of(self, campaign_id: int) -> list[SnapshotRecord]:
        """Every snapshot kept for a campaign (to copy a history built here into another store)."""
        with self._lock:
            snaps = self._get(campaign_id).snapshots
            return [SnapshotRecord(v, snaps[v]) for v in sorted(snaps)]

    def add_member(self, campaign_id: int, member: NewMember) -> MemberRecord:
        with self._lock:
            self._get(campaign_id)
            if any(m.token_id == member.token_id for m in self._members):
                raise StoreError("token id already used")
            record = MemberRecord(
                id=len(self._members) + 1,
                campaign_id=campaign_id,
                name=member.name,
                role=member.role,
                characters=tuple(member.characters),
                token_id=member.token_id,
                token_hash=member.token_hash,
                created=member.created,
                expires=member.expires,
                revoked=None,
            )
            self._members.append(record)
            return record

    def members(self, campaign_id: int) -> list[MemberRecord]:
        with self._lock:
            return [m for m in self._members if m.campaign_id == campaign_id]

    def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        with self._lock:
            return next((m for m in self._members if m.token_id == token_id), None)

    def revoke_members(self, campaign_id: int, name: str, when: float) -> int:
        with self._lock:
            count = 0
            for i, m in enumerate(self._members):
                if m.campaign_id == campaign_id and m.revoked is None and name in (m.name, m.token_id):
                    self._members[i] = replace(m, revoked=when)
                    count += 1
            return count

    def add_refusal(self, campaign_id: int, refusal: RefusalRecord, keep: int) -> None:
        with self._lock:
            self._get(campaign_id)
            kept = [*self._refusals.get(campaign_id, []), refusal]
            self._refusals[campaign_id] = kept[-keep:] if keep > 0 else []

    def refusals(self, campaign_id: int) -> list[RefusalRecord]:
        with self._lock:
            return list(self._refusals.get(campaign_id, []))

    def take_stream_lease(self, token_id: str, lease: str, now: float, expires: float, limit: int) -> bool:
        with self._lock:
            self._leases = {k: v for k, v in self._leases.items() if v[0] != token_id or v[1] > now}
            if sum(1 for t, _ in self._leases.values() if t == token_id) >= limit:
                return False
            self._leases[lease] = (token_id, expires)
            return True

    def renew_stream_leases(self, leases: Sequence[str], expires: float) -> None:
        with self._lock:
            for lease in leases:
                if lease in self._leases:
                    self._leases[lease] = (self._leases[lease][0], expires)

    def release_stream_leases(self, leases: Sequence[str]) -> None:
        with self._lock:
            for lease in leases:
                self._leases.pop(lease, None)

    def close(self) -> None:
        self._closed = True
