"""Resolving a check that was already resolved names the log entry that resolved it (issue #27):
the second of two tabs, or a command typed twice, learns where the roll went."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rulekeeper.campaign import Campaign, Store, open_store
from rulekeeper.campaign.results import CheckAlreadyResolved
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.errors import RuleRefusal, UnknownNameError


@pytest.fixture
def memory() -> Iterator[Store]:
    store = open_store("memory://")
    yield store
    store.close()


def _waiting(store: Store) -> tuple[Campaign, int]:
    settings = Settings(automation={"gurps.consciousness": AutomationLevel.PROMPT})
    campaign = Campaign.create(store, "night", "gurps", seed=1, settings=settings)
    campaign.add_character("hero", {"ht": 12})
    campaign.act(Action("damage", "hero", {"amount": 11}))
    (check,) = campaign.pending()
    return campaign, check.id


def test_a_second_resolve_names_the_entry_that_resolved_the_check(memory: Store) -> None:
    campaign, check = _waiting(memory)
    first = campaign.resolve(check, [3, 3, 3])
    with pytest.raises(CheckAlreadyResolved) as caught:
        campaign.resolve(check, [4, 4, 4])
    assert caught.value.seq == first.seq
    assert f"check #{check} was already resolved by #{first.seq}" in str(caught.value)
    assert isinstance(caught.value, RuleRefusal)  # a refusal (409, exit 1), not an unknown name
    assert campaign.version == first.seq  # nothing applied twice


def test_a_stale_second_tab_hears_already_resolved_not_changed_since(memory: Store) -> None:
    campaign, check = _waiting(memory)
    seen = campaign.version
    first = campaign.resolve(check, [3, 3, 3], expected_version=seen)
    with pytest.raises(CheckAlreadyResolved, match=f"already resolved by #{first.seq}"):
        campaign.resolve(check, [4, 4, 4], expected_version=seen)


def test_a_retry_with_the_same_key_still_gets_its_first_answer(memory: Store) -> None:
    campaign, check = _waiting(memory)
    first = campaign.resolve(check, [3, 3, 3], key="roll-1")
    again = campaign.resolve(check, [3, 3, 3], key="roll-1")
    assert again.seq == first.seq


def test_a_check_never_asked_for_is_still_unknown(memory: Store) -> None:
    campaign, check = _waiting(memory)
    with pytest.raises(UnknownNameError, match=f"no pending check #{check + 50}"):
        campaign.resolve(check + 50, [3, 3, 3])


def test_an_undone_resolution_lets_the_check_wait_again(memory: Store) -> None:
    campaign, check = _waiting(memory)
    campaign.resolve(check, [3, 3, 3])
    campaign.undo()
    assert [p.id for p in campaign.pending()] == [check]
    campaign.resolve(check, [4, 4, 4])  # resolved anew: the undone entry does not count


def test_a_players_refused_resolve_searches_only_the_latest_commands(
    memory: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player told "already resolved by #N" needs only the latest commands searched; reading
    the whole history for every refused attempt let one player slow every table (a review's
    finding: 0.2-0.8 s a try on 6,000 events, under the server's write lock)."""
    from rulekeeper.campaign import facade
    from rulekeeper.campaign.seat import Seat, SeatRefusal

    campaign, check = _waiting(memory)
    ana = Seat("ana", frozenset({"hero"}), is_gm=False, role="player")
    first = campaign.resolve(check, [3, 3, 3])
    with pytest.raises(CheckAlreadyResolved, match=f"already resolved by #{first.seq}"):
        campaign.resolve(check, [4, 4, 4], seat=ana)
    monkeypatch.setattr(facade, "RESOLVED_LATELY", 5)
    for _ in range(5):
        campaign.act(Action("heal", "hero", {"amount": 1}))
    with pytest.raises(SeatRefusal) as refused:  # beyond the latest 5: the seat's own answer
        campaign.resolve(check, [4, 4, 4], seat=ana)
    assert not isinstance(refused.value, CheckAlreadyResolved)

    def searched(*_a: object, **_k: object) -> None:
        raise AssertionError("an id never given out was looked for in the history")

    monkeypatch.setattr(campaign, "resolved_by", searched)
    with pytest.raises(SeatRefusal):
        campaign.resolve(99_999, [4, 4, 4], seat=ana)


def test_a_players_stale_version_reads_only_the_latest_commands(memory: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """A player resolving their own waiting check with a version from long ago: neither the
    search for who resolved it nor the list of what changed reads the whole history (a review:
    a stale If-Match sent over and over read every event under the write lock)."""
    from rulekeeper.campaign import CampaignConflict, facade
    from rulekeeper.campaign.seat import Seat

    campaign, check = _waiting(memory)
    ana = Seat("ana", frozenset({"hero"}), is_gm=False, role="player")
    for _ in range(6):
        campaign.act(Action("heal", "hero", {"amount": 0}))
    monkeypatch.setattr(facade, "RESOLVED_LATELY", 3)
    monkeypatch.setattr(facade, "CONFLICT_CHANGES", 4)

    read = campaign._log_events

    def bounded(*args: Any, **kw: Any) -> Any:
        assert kw.get("latest") is not None, "the whole history was read"
        return read(*args, **kw)

    monkeypatch.setattr(campaign, "_log_events", bounded)
    with pytest.raises(CampaignConflict) as stale:
        campaign.resolve(check, [3, 3, 3], expected_version=1, seat=ana)
    assert len(stale.value.changes) == 4 and stale.value.current_version == campaign.version
    assert campaign.pending()  # nothing applied
