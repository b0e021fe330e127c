"""A command worked out on the campaign as its object last saw it (``campaign.presumed``) is
written in one short transaction when the store is still there, and worked out again on the
stored history when it is not: the result is the same either way."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest

from rulekeeper.campaign import Campaign, Store
from rulekeeper.campaign.facade import SNAPSHOT_EVERY
from rulekeeper.core.action import Action
from rulekeeper.errors import InputError, RulesError
from rulekeeper.store.base import HistoryReader, HistoryWriter
from rulekeeper.store.records import EventRecord, SnapshotRecord


class Counting(Store):
    """``store`` with a count of the transactions each kind of call opened."""

    def __init__(self, store: Store) -> None:
        self.inner = store
        self.url = store.url
        self.calls: dict[str, int] = {"reading": 0, "writing": 0, "append_if_head": 0, "appended": 0}

    def __getattribute__(self, name: str) -> Any:
        if name in ("inner", "url", "calls", "reading", "writing", "append_if_head") or name.startswith("__"):
            return object.__getattribute__(self, name)
        return getattr(object.__getattribute__(self, "inner"), name)

    def reading(self, campaign_id: int) -> AbstractContextManager[HistoryReader]:
        self.calls["reading"] += 1
        return self.inner.reading(campaign_id)

    def writing(self, campaign_id: int) -> AbstractContextManager[HistoryWriter]:
        self.calls["writing"] += 1
        return self.inner.writing(campaign_id)

    def append_if_head(
        self,
        campaign_id: int,
        event: EventRecord,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        self.calls["append_if_head"] += 1
        done = self.inner.append_if_head(campaign_id, event, snapshot, drop_snapshots_from)
        self.calls["appended"] += done
        return done

    # The abstract methods, answered by the inner store (``__getattribute__`` above).
    list_campaigns = find_campaign = create_campaign = delete_campaign = None  # type: ignore[assignment]
    add_member = members = member_by_token_id = revoke_members = None  # type: ignore[assignment]
    add_refusal = refusals = take_stream_lease = renew_stream_leases = None  # type: ignore[assignment]
    release_stream_leases = close = heads = None  # type: ignore[assignment]


@pytest.fixture
def counted(store: Store) -> Iterator[Counting]:
    Campaign.create(store, "c", "toy", seed=7).add_character("pool", {"max_hp": 1000})
    yield Counting(store)


def _hit(campaign: Campaign, amount: int = 1, **kwargs: Any) -> Any:
    return campaign.act(Action("damage", "pool", {"amount": amount}), **kwargs)


def test_a_current_object_writes_in_one_transaction_without_reading(counted: Counting) -> None:
    campaign = Campaign.open(counted, "c")
    before = dict(counted.calls)
    result = _hit(campaign, 3)
    calls = {k: counted.calls[k] - before[k] for k in before}
    assert calls == {"reading": 0, "writing": 0, "append_if_head": 1, "appended": 1}
    assert result.version == campaign.version == 2
    assert Campaign.open(counted.inner, "c").state == campaign.state


def test_a_stale_object_works_the_command_out_again_on_top(counted: Counting) -> None:
    stale = Campaign.open(counted, "c")
    other = Campaign.open(counted.inner, "c")
    _hit(other, 5)  # written behind the stale object's back (another process, say)
    before = dict(counted.calls)
    result = _hit(stale, 2)
    assert counted.calls["append_if_head"] - before["append_if_head"] == 1
    assert counted.calls["appended"] == before["appended"]  # refused: the head had moved
    assert result.version == 3
    fresh = Campaign.open(counted.inner, "c")
    assert fresh.state == stale.state
    assert fresh.state.characters["pool"].hp == 1000 - 5 - 2
    assert [e.seq for e in fresh.log()][-2:] == [2, 3]


def test_a_refusal_on_a_stale_object_is_judged_on_the_stored_history(counted: Counting) -> None:
    stale = Campaign.open(counted, "c")
    Campaign.open(counted.inner, "c").add_character("newcomer", {"max_hp": 10})
    # Unknown to the stale object, known to the store: applied, not refused.
    result = stale.act(Action("damage", "newcomer", {"amount": 4}))
    assert result.version == 3
    assert stale.state.characters["newcomer"].hp == 6
    # Unknown to both: refused, and nothing written.
    with pytest.raises(RulesError):
        stale.act(Action("damage", "nobody", {"amount": 1}))
    assert Campaign.open(counted.inner, "c").version == 3


def test_a_retried_key_answers_the_first_result_and_writes_once(counted: Counting) -> None:
    campaign = Campaign.open(counted, "c")
    first = _hit(campaign, 4, key="k1")
    again = _hit(campaign, 4, key="k1")
    assert again.retried and again.seq == first.seq
    # A second object that never saw the key presumes it unused: the store says otherwise.
    other = Campaign.open(counted.inner, "c")
    third = _hit(other, 4, key="k1")
    assert third.retried and third.seq == first.seq
    with pytest.raises(InputError):
        _hit(other, 9, key="k1")  # the same key for another command
    assert Campaign.open(counted.inner, "c").version == 2
    assert Campaign.open(counted.inner, "c").state.characters["pool"].hp == 996


def test_a_stale_expected_version_is_judged_on_the_stored_history(counted: Counting) -> None:
    stale = Campaign.open(counted, "c")
    moved = Campaign.open(counted.inner, "c")
    _hit(moved)
    # The client saw version 2 (from the other object): the stale object must not refuse it.
    result = _hit(stale, expected_version=2)
    assert result.version == 3


def test_snapshots_are_still_kept(counted: Counting) -> None:
    campaign = Campaign.open(counted, "c")
    for _ in range(SNAPSHOT_EVERY - 1):  # the campaign's first event (the character) is version 1
        _hit(campaign)
    before = dict(counted.calls)
    for _ in range(SNAPSHOT_EVERY):
        _hit(campaign)
    calls = {k: counted.calls[k] - before[k] for k in before}
    # This object wrote every event the second snapshot covers: it went with its command's
    # conditional append, and nothing was read (the command was not worked out a second time).
    assert calls == {"reading": 0, "writing": 0, "append_if_head": SNAPSHOT_EVERY, "appended": SNAPSHOT_EVERY}
    with counted.inner.reading(campaign.record.id) as history:
        assert history.latest_snapshot(SNAPSHOT_EVERY) is not None
        snapshot = history.latest_snapshot()
    assert snapshot is not None and snapshot.version == 2 * SNAPSHOT_EVERY
    reopened = Campaign.open(counted.inner, "c")
    assert reopened.state == campaign.state
    reopened.verify()


def test_two_writers_taking_turns_do_not_presume_each_time(counted: Counting) -> None:
    """Once the store is found moved on, the next commands are worked out on the stored history
    at once (no second working-out, no refused write) until this object is known current again."""
    mine = Campaign.open(counted, "c")
    other = Campaign.open(counted.inner, "c")
    for _ in range(3):
        _hit(other)
        before = dict(counted.calls)
        _hit(mine)
        tried = counted.calls["append_if_head"] - before["append_if_head"]
        assert counted.calls["appended"] == before["appended"]
        assert tried <= 1
    assert tried == 0  # after the first miss, no more presuming while the other writes between
    before = dict(counted.calls)
    _hit(mine)  # nobody wrote between this object's last two commands: presuming again
    _hit(mine)
    assert counted.calls["appended"] - before["appended"] == 1
    mine.refresh()  # caught up: current again
    _hit(other)
    mine.refresh()
    before = dict(counted.calls)
    _hit(mine)
    assert counted.calls["appended"] - before["appended"] == 1
    assert Campaign.open(counted.inner, "c").state == mine.state


def test_the_players_numbering_from_the_rules_own_steps_is_the_stored_historys(store: Store) -> None:
    """The object that wrote a command counts the players' numbering from the steps its rules
    gave (kept with the event written), not from the stored text: the same numbers, secret
    rolls and all, as an object that reads them back from the store."""
    campaign = Campaign.create(store, "count", "gurps", seed=2)
    campaign.add_character("hero", {"name": "Hero", "per": 12, "iq": 11, "ht": 10}, player="ana")
    campaign.set_settings(automation={"gurps.sense.vision": "prompt", "gurps.sense.danger": "prompt"})
    for dangerous, dice in ((True, [6, 6, 6]), (False, [3, 3, 3]), (True, [6, 6, 6])):
        campaign.act(Action("sense", "hero", {"dangerous": dangerous, "danger_sense": True}))
        campaign.resolve(campaign.pending()[0].id, dice)  # the hero's Vision roll
        for check in campaign.pending():  # the GM's secret Danger Sense, after a miss
            campaign.resolve(check.id)
        campaign.act(Action("damage", "hero", {"amount": 1}))
        assert campaign.player_timeline() == Campaign.open(store, "count").player_timeline()
    assert campaign.player_timeline().hidden  # secret rolls were made, and are not counted
