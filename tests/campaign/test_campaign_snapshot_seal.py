"""A snapshot sealed from the events a campaign object remembers writing is the one sealed from
the store: every snapshot written while two objects take turns, undo included, unseals against
the stored events, and equals a seal made from them afresh."""

from __future__ import annotations

from rulekeeper.campaign import Campaign, Store
from rulekeeper.campaign.snapshots import SPAN, seal_table, unseal
from rulekeeper.core.action import Action


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
