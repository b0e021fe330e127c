"""A snapshot sealed from the events a campaign object remembers writing is the one sealed from
the store: every snapshot written while two objects take turns, undo included, unseals against
the stored events, and equals a seal made from them afresh."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulekeeper.campaign import Campaign, Store, snapshots
from rulekeeper.campaign.snapshots import SPAN, SnapshotProblem, seal_table, unseal
from rulekeeper.core.action import Action
from rulekeeper.store.records import EventRecord, SnapshotRecord


def _snapshots(store: Store, campaign: Campaign) -> list[int]:
    found: list[int] = []
    with store.reading(campaign.record.id) as history:
        at_most = history.head()
        while (snapshot := history.latest_snapshot(at_most)) is not None:
            found.append(snapshot.version)
            at_most = snapshot.version - 1
    return sorted(found)


def test_snapshots_sealed_from_remembered_events_match_the_store(store: Store) -> None:
    first = Campaign.create(store, "seal", "toy", seed=3)
    first.add_character("bob", {"max_hp": 10_000})
    first.snapshot_every = 40
    # Long runs by one object (its memory covers a whole span), then the other object writes
    # (the first one's memory no longer ends at the head), then undo and redo.
    for i in range(SPAN + 30):
        first.act(Action("damage" if i % 2 == 0 else "heal", "bob", {"amount": 1 + i % 3}))
    second = Campaign.open(store, "seal")
    second.snapshot_every = 40
    for _ in range(25):
        second.act(Action("damage", "bob", {"amount": 2}))
    for i in range(SPAN + 10):
        first.act(Action("heal" if i % 3 else "damage", "bob", {"amount": 1}))
    first.undo()
    first.redo()
    for _ in range(45):
        first.act(Action("damage", "bob", {"amount": 1}))

    versions = _snapshots(store, first)
    assert len(versions) >= 6, versions
    with store.reading(first.record.id) as history:
        for version in versions:
            snapshot = history.latest_snapshot(version)
            assert snapshot is not None and snapshot.version == version
            table = unseal(first.ruleset, snapshot, history)  # raises when the digest differs
            covered = history.events(after=max(0, version - SPAN), until=version)
            table_text = snapshot.data[snapshot.data.index('"table":') + len('"table":') : -1]
            assert seal_table(version, table_text, covered) == snapshot
            assert table.game.clock >= 0
    reopened = Campaign.open(store, "seal")
    assert reopened.state == first.state


def _latest(store: Store, campaign: Campaign) -> tuple[SnapshotRecord, list[EventRecord]]:
    with store.reading(campaign.record.id) as history:
        snapshot = history.latest_snapshot()
        assert snapshot is not None
        return snapshot, history.events(after=max(0, snapshot.version - SPAN), until=snapshot.version)


def _table_text(snapshot: SnapshotRecord) -> str:
    return snapshot.data[snapshot.data.index('"table":') + len('"table":') : -1]


def _replace_snapshot(store: Store, campaign: Campaign, snapshot: SnapshotRecord) -> None:
    with store.writing(campaign.record.id) as history:
        history.drop_snapshots(snapshot.version)
        history.put_snapshot(snapshot)


def _played(store: Store, name: str, actions: int) -> Campaign:
    campaign = Campaign.create(store, name, "toy", seed=5)
    campaign.add_character("bob", {"max_hp": 10_000})
    campaign.snapshot_every = 20
    for i in range(actions):
        campaign.act(Action("damage" if i % 2 == 0 else "heal", "bob", {"amount": 1 + i % 3}))
    return campaign


def test_new_snapshots_carry_the_second_seal_and_one_sealed_the_first_way_is_still_used(store: Store) -> None:
    campaign = _played(store, "seals", 45)
    snapshot, covered = _latest(store, campaign)
    assert snapshot.data.startswith('{"digest_v2":"')
    # The same table sealed as an earlier rulekeeper did: its load starts from it, with no warning.
    table_text = _table_text(snapshot)
    first_way = SnapshotRecord(
        snapshot.version, f'{{"digest":"{snapshots._digest_v1(covered, table_text)}","table":{table_text}}}'
    )
    _replace_snapshot(store, campaign, first_way)
    reopened = Campaign.open(store, "seals")
    assert reopened.warnings == ()
    assert reopened.state == campaign.state
    with store.reading(campaign.record.id) as history:
        assert unseal(campaign.ruleset, first_way, history) == unseal(campaign.ruleset, snapshot, history)
        # A first-way snapshot with the second seal's digest (or the reverse) matches nothing.
        crossed = SnapshotRecord(snapshot.version, first_way.data.replace('{"digest":"', '{"digest_v2":"', 1))
        with pytest.raises(SnapshotProblem, match="does not match"):
            unseal(campaign.ruleset, crossed, history)
        crossed = SnapshotRecord(snapshot.version, snapshot.data.replace('{"digest_v2":"', '{"digest":"', 1))
        with pytest.raises(SnapshotProblem, match="does not match"):
            unseal(campaign.ruleset, crossed, history)
        with pytest.raises(SnapshotProblem, match="carries no digest"):
            unseal(campaign.ruleset, SnapshotRecord(snapshot.version, '{"digest_v3":"x"}'), history)


@pytest.mark.parametrize("column", ["outcome", "command", "dice"])
def test_an_edited_event_under_either_seal_is_found_out(store: Store, column: str) -> None:
    campaign = _played(store, f"edited-{column}", 45)
    snapshot, covered = _latest(store, campaign)
    first_way = SnapshotRecord(
        snapshot.version,
        f'{{"digest":"{snapshots._digest_v1(covered, _table_text(snapshot))}","table":{_table_text(snapshot)}}}',
    )
    edited = covered[-1]
    changed = {
        "outcome": replace(edited, outcome=edited.outcome.replace('"amount"', '"amount" ', 1) + " "),
        "command": replace(edited, command={**edited.command, "note": "edited"}),
        "dice": replace(edited, dice=((6, 6),)),
    }[column]
    text = _table_text(snapshot)
    for sealed, digest in ((snapshot, snapshots._digest), (first_way, snapshots._digest_v1)):
        assert sealed.data.split('"', 4)[3] == digest(covered, text)
        assert digest([*covered[:-1], changed], text) != digest(covered, text)


def test_the_second_seal_cannot_move_text_between_an_outcome_and_what_follows() -> None:
    # The outcome's length is hashed before it: a byte moved from the end of one event's outcome
    # to the table text (or to the next event) gives another digest.
    base = EventRecord(
        seq=1, kind="act", command={"kind": "act"}, dice=(), outcome='{"a":1}\n', actors=(), refs=(),
        at=0, until=0, next_id=1, next_id_after=1, key=None, base_version=None, wall_time=0.0,
    )  # fmt: skip
    shorter = replace(base, outcome='{"a":1}')
    assert snapshots._digest([base], "T") != snapshots._digest([shorter], "\nT")
