"""Character sheets: defaults, derived values, every kind of bad field, and exact JSON round trips."""

from __future__ import annotations

from typing import Any

import pytest
from wg_helpers import RULESET, act, state_with, view

from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.errors import InputError
from rulekeeper.systems.wrath_glory import BodyPart, MemorableInjury, Side, TraumaticInjury


def test_defaults_and_derived_values() -> None:
    c = RULESET.new_character({"toughness": 3, "willpower": 3})
    assert (c.tier, c.rank, c.wrath, c.wounds, c.shock, c.medicae) == (1, 1, 2, 0, 0, 0)
    assert (c.resilience, c.max_wounds, c.max_shock) == (4, 5, 4)


def test_sheet_injuries_are_read() -> None:
    c = RULESET.new_character(
        {
            "toughness": 3,
            "willpower": 3,
            "memorable_injuries": ["Missing Fingers", "twitch"],
            "traumatic_injuries": ["left hand", "torso (replaced)"],
        }
    )
    assert c.memorable_injuries == (MemorableInjury("battle_scar", escalated=True), MemorableInjury("twitch"))
    assert c.traumatic_injuries == (
        TraumaticInjury(BodyPart.HAND, Side.LEFT),
        TraumaticInjury(BodyPart.TORSO, None, replaced=True),
    )


@pytest.mark.parametrize(
    ("sheet", "where"),
    [
        ({"toughness": 3, "willpower": 3, "strength": 4}, "field strength"),
        ({"willpower": 3}, "field toughness"),
        ({"toughness": "three", "willpower": 3}, "field toughness"),
        ({"toughness": True, "willpower": 3}, "field toughness"),
        ({"toughness": 3.5, "willpower": 3}, "field toughness"),
        ({"toughness": 0, "willpower": 3}, "field toughness"),
        ({"toughness": 3, "willpower": 3, "tier": 6}, "field tier"),
        ({"toughness": 3, "willpower": 3, "wounds": -1}, "field wounds"),
        ({"toughness": 3, "willpower": 3, "name": 7}, "field name"),
        ({"toughness": 3, "willpower": 3, "memorable_injuries": ["Papercut"]}, "field memorable_injuries"),
        ({"toughness": 3, "willpower": 3, "memorable_injuries": ["Twitch", "Bad Knee"]}, "field memorable_injuries"),
        ({"toughness": 3, "willpower": 3, "traumatic_injuries": ["left torso"]}, "field traumatic_injuries"),
        ({"toughness": 3, "willpower": 3, "traumatic_injuries": 5}, "field traumatic_injuries"),
    ],
)
def test_bad_fields_are_named(sheet: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as info:
        RULESET.new_character(sheet)
    assert info.value.where == where
    assert info.value.expected


def test_numeric_text_is_accepted() -> None:
    assert RULESET.new_character({"toughness": " 4 ", "willpower": "3"}).toughness == 4


def test_state_round_trips_exactly_through_json() -> None:
    state = state_with(
        {
            "ari": {"tier": 2, "toughness": 3, "willpower": 3, "traumatic_injuries": ["right eye"]},
            "doc": {"toughness": 3, "willpower": 3, "intellect": 3, "medicae": 2, "resilience": 7},
        }
    )
    state = act(state, "damage", rolls=[1, 1, 1, 5], amount=12).state  # Dying, Twitch, prone
    state = act(state, "rest", kind="regroup", healer="doc").state  # rest in progress + timer
    state = act(state, "damage", actor="doc", amount=30, mortal=True).state  # annihilated
    data = state_to_json(RULESET, state)
    again = state_from_json(RULESET, data)
    assert again == state
    assert state_to_json(RULESET, again) == data
    assert view(again)["memorable_injuries"] == ["Twitch"]
    assert view(again, "doc")["death"] == "annihilated"


def test_state_with_pending_determination_round_trips() -> None:
    from rulekeeper.core import AutomationLevel, Settings

    state = state_with(settings=Settings(automation={"wg": AutomationLevel.PROMPT}))
    state = act(state, "damage", amount=9).state
    assert len(state.pending) == 1
    assert state_from_json(RULESET, state_to_json(RULESET, state)) == state
