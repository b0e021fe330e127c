"""The snapshot decoder reads exactly what our dump writes, the same as pydantic would, and
leaves everything else to pydantic."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.cli.demo import play_scenario_into
from rulekeeper.core.decode import NotOurs, decode
from rulekeeper.core.serial import _adapter, state_from_json, state_to_json
from rulekeeper.core.state import GameState
from rulekeeper.demo import demo_files
from rulekeeper.errors import InputError
from rulekeeper.scenario import load_scenario


def _played() -> list[Campaign]:
    campaigns = []
    store = open_store("memory://")
    for path in demo_files():
        scenario = load_scenario(path)
        c = Campaign.create(store, scenario.system, scenario.system, seed=7, settings=scenario.settings)
        play_scenario_into(c, scenario)
        campaigns.append(c)
    return campaigns


@pytest.mark.parametrize("campaign", _played(), ids=lambda c: c.system)
def test_our_dump_decodes_to_what_pydantic_gives(campaign: Campaign) -> None:
    data = json.loads(json.dumps(state_to_json(campaign.ruleset, campaign.state)))
    fast = decode(GameState[campaign.ruleset.character_type], data)  # type: ignore[name-defined]
    assert fast == _adapter(campaign.ruleset.character_type).validate_python(data)
    assert fast == campaign.state
    assert state_from_json(campaign.ruleset, data) == campaign.state


def _first_character(data: dict[str, Any]) -> dict[str, Any]:
    character: dict[str, Any] = next(iter(data["characters"].values()))
    return character


def test_anything_not_exactly_ours_goes_to_pydantic() -> None:
    campaign = _played()[0]
    data = json.loads(json.dumps(state_to_json(campaign.ruleset, campaign.state)))
    state_type = GameState[campaign.ruleset.character_type]  # type: ignore[name-defined]

    extra = json.loads(json.dumps(data))
    _first_character(extra)["a_field_we_never_wrote"] = 1
    with pytest.raises(NotOurs):
        decode(state_type, extra)
    assert state_from_json(campaign.ruleset, extra) == campaign.state  # pydantic ignores it

    wrong = json.loads(json.dumps(data))
    wrong["clock"] = "soon"
    with pytest.raises(NotOurs):
        decode(state_type, wrong)
    with pytest.raises(InputError, match="clock"):
        state_from_json(campaign.ruleset, wrong)
