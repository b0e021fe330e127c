"""Reading sheets: every field, defaults, and an error naming each bad field; states round-trip as JSON."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import Burden, Regimen

from .helpers import ADEPT, RANGER, RULESET, Table


def test_ranger_sheet() -> None:
    ranger = RULESET.new_character(RANGER)
    assert ranger.ks["BU"].original == 6 and ranger.ks["BU"].current == 6
    assert ranger.us["VIG"].ks == "BU" and ranger.us["VIG"].current == 3
    assert ranger.us_of("BU") == ("VIG",) and ranger.us_of("CO") == ()
    assert ranger.som == 5 and ranger.burden is Burden.NONE and ranger.regimen is Regimen.BASIC
    assert ranger.magic_weeks == 0 and ranger.agility is None


def test_full_sheet_with_lowered_values_and_lower_case_keys() -> None:
    sheet = {
        "bu": {"original": 6, "current": 4},
        "co": 5,
        "in": 4,
        "em": 5,
        "us": {"vig": {"value": 3, "current": 0}, "wil": {"ks": "in", "value": 5}},
        "es": {"Body Control": {"us": "wil", "level": 2}},
        "som": 10,
        "burden": "Heavy",
        "agility": 7,
        "age": 40,
        "magic_weeks": 3,
        "mov": 12,
        "actions": 2,
    }
    c = RULESET.new_character(sheet)
    assert (c.ks["BU"].original, c.ks["BU"].current) == (6, 4)
    assert (c.us["VIG"].original, c.us["VIG"].current) == (3, 0)
    assert c.us["WIL"].ks == "IN"
    assert c.es["body-control"].us == "WIL"
    assert c.burden is Burden.HEAVY and c.som == 10 and c.magic_weeks == 3 and c.actions == 2
    assert c.lowered() == ("BU", "VIG")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"BU": None}, "field BU"),
        ({"BU": 11}, "field BU"),
        ({"BU": 0}, "field BU"),
        ({"BU": True}, "field BU"),
        ({"BU": "six"}, "field BU"),
        ({"BU": {"original": 6, "current": 7}}, "field BU.current"),
        ({"BU": {"original": 6, "current": 0}}, "field BU.current"),
        ({"BU": {"current": 3}}, "field BU"),
        ({"strength": 3}, "field strength"),
        ({"Som": 3}, "field Som"),
        ({"som": 11}, "field som"),
        ({"burden": "crushing"}, "field burden"),
        ({"us": {"WIL": 4}}, "field us.WIL"),
        ({"us": {"VIG": {"ks": "CO", "value": 3}}}, "field us.VIG"),
        ({"us": {"BU": 3}}, "field us.BU"),
        ({"us": {"SOM": {"ks": "EM", "value": 3}}}, "field us.SOM"),
        ({"us": {"VIG": {"value": 3, "current": 4}}}, "field us.VIG.current"),
        ({"us": {"REF": {"ks": "XX", "value": 3}}}, "field us.REF"),
        ({"us": [3]}, "field us"),
        ({"es": {"stamina": {"us": "NOPE", "level": 3}}}, "field es.stamina"),
        ({"es": {"stamina": {"us": "VIG", "level": 0}}}, "field es.stamina.level"),
        ({"es": {"stamina": {"us": "VIG", "rank": 2}}}, "field es.stamina"),
        ({"agility": -1}, "field agility"),
        ({"actions": 0}, "field actions"),
        ({"name": 5}, "field name"),
    ],
)
def test_bad_fields_are_named(change: dict[str, Any], where: str) -> None:
    sheet = {**RANGER, **change}
    if change.get("BU", 1) is None:
        del sheet["BU"]
    with pytest.raises(InputError) as err:
        RULESET.new_character(sheet)
    assert err.value.where == where
    assert err.value.expected


def test_a_known_stat_given_twice_is_refused() -> None:
    with pytest.raises(InputError, match="twice"):
        RULESET.new_character({**RANGER, "bu": 6})


def test_state_round_trips_through_json() -> None:
    table = Table({"adept": ADEPT, "ranger": RANGER})
    table.act("damage", "ranger", amount=10)
    table.act("afflict", "adept", kind="poison", name="nightshade", amount=2, ks="co")
    table.act("exert", "adept")
    table.act("state", "adept", kind="entangled", modifier=-2, limbs="arms", turns=3)
    table.act("deprive", "adept", kind="water", days=1)
    table.act("burden", "adept", kind="medium")
    before = table.state
    data = state_to_json(RULESET, before)
    again = state_from_json(RULESET, data)
    assert again == before
    assert state_to_json(RULESET, again) == data
    assert again.characters["ranger"].fatalities["BU"].turns == 9


def test_no_unknown_stat_name_can_shadow_a_view_key() -> None:
    view = Table({"ranger": RANGER}).view("ranger")
    for key in view:
        name = key.upper()
        if "_" in key or name in ("BU", "CO", "IN", "EM", "VIG"):
            continue
        with pytest.raises(InputError, match="cannot name an unknown stat"):
            RULESET.new_character({**RANGER, "us": {name: {"ks": "CO", "value": 3}}})
