"""State is a fold over history: long random histories in every system replay to identical state."""

from __future__ import annotations

import random

import pytest
from campaign_fuzz import landed_systems, play_randomly, random_automation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.campaign import Campaign, Store, open_store
from rulekeeper.core import AutomationLevel, Settings, get_ruleset
from rulekeeper.core.serial import state_to_json

SYSTEMS = ["toy", *landed_systems()]


def _new(store: Store, system: str, seed: int) -> Campaign:
    rng = random.Random(seed)
    ruleset = get_ruleset(system)
    levels = {k: AutomationLevel(v) for k, v in random_automation(ruleset, rng).items()}
    campaign = Campaign.create(store, f"{system}-{seed}", system, seed=seed, settings=Settings(automation=levels))
    campaign.snapshot_every = 7  # small, so loads, undos and snapshots meet often
    return campaign


def _check_replays(store: Store, campaign: Campaign) -> None:
    ruleset = campaign.ruleset
    live = state_to_json(ruleset, campaign.state)
    assert state_to_json(ruleset, Campaign.open(store, campaign.name).state) == live
    assert state_to_json(ruleset, Campaign.open(store, campaign.name, use_snapshots=False).state) == live
    campaign.verify()
    document = campaign.export()
    with open_store("memory://") as elsewhere:
        copy = Campaign.import_(elsewhere, document)
        assert copy.export() == document


@pytest.mark.slow
@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("seed", [1, 2])
def test_long_random_histories_replay_exactly(system: str, seed: int) -> None:
    with open_store("memory://") as store:
        campaign = _new(store, system, seed)
        counts = play_randomly(campaign, random.Random(seed), 250)
        assert counts["applied"] > 100, counts
        assert campaign.version == counts["applied"]
        _check_replays(store, campaign)


@pytest.mark.parametrize("system", SYSTEMS)
def test_random_history_on_a_database(store: Store, system: str) -> None:
    campaign = _new(store, system, 5)
    counts = play_randomly(campaign, random.Random(5), 60)
    assert counts["applied"] > 20, counts
    _check_replays(store, campaign)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), system=st.sampled_from(SYSTEMS))
def test_replay_determinism_property(seed: int, system: str) -> None:
    with open_store("memory://") as store:
        campaign = _new(store, system, seed)
        play_randomly(campaign, random.Random(seed), 80)
        _check_replays(store, campaign)
