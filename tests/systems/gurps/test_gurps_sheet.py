"""The GURPS character sheet: derived values, overrides, bad input, serialisation, the GM view."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.core.engine import add_character
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps import GurpsCharacter, GurpsRuleset, new_character

RULES = get_ruleset("gurps")


def test_registry_finds_gurps_by_name_and_alias() -> None:
    assert isinstance(RULES, GurpsRuleset)
    assert get_ruleset("gurps4e") is RULES
    assert RULES.round_seconds == 1


def test_defaults_are_derived_from_attributes() -> None:
    c = new_character({"st": 12, "dx": 13, "iq": 11, "ht": 10})
    assert (c.hp, c.fp, c.will, c.per) == (12, 10, 11, 11)
    assert c.basic_speed == pytest.approx(5.75)
    assert c.basic_move == 5
    assert (c.current_hp, c.current_fp) == (12, 10)
    assert c.basic_lift == 29  # 144 / 5 = 28.8, rounded because it is 10 or more


def test_basic_lift_keeps_fractions_below_ten() -> None:
    assert new_character({"st": 6}).basic_lift == pytest.approx(7.2)
    assert new_character({"st": 10}).basic_lift == 20


def test_overrides_win_over_derived_values() -> None:
    c = new_character({"st": 10, "hp": 14, "fp": 8, "will": 13, "per": 12, "basic_speed": 6.0, "basic_move": 7})
    assert (c.hp, c.fp, c.will, c.per, c.basic_speed, c.basic_move) == (14, 8, 13, 12, 6.0, 7)
    assert c.dodge == 9


def test_skill_defaults_from_the_seed() -> None:
    c = new_character({"dx": 12, "ht": 11, "skills": {"Broadsword": 13}})
    assert c.skill("climbing") == 7  # DX-5
    assert c.skill("hiking") == 6  # HT-5
    assert c.skill("broadsword") == 13
    assert c.skill("stealth") is None


def test_parry_and_block() -> None:
    c = new_character(
        {
            "skills": {"broadsword": 13, "staff": 12},
            "shield": 12,
            "weapons": [
                {"name": "Broadsword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"},
                {"name": "Quarterstaff", "skill": "staff", "damage": "sw+2", "parry_bonus": 2},
            ],
        }
    )
    assert c.weapon_parries == {"broadsword": 9, "quarterstaff": 11}
    assert c.block == 9


@pytest.mark.parametrize(
    ("sheet", "where"),
    [
        ({"strength": 10}, "strength"),
        ({"st": "ten"}, "st"),
        ({"st": -1}, "st"),  # ST 0 is allowed (slimes, skulls)
        ({"dx": 10.5}, "dx"),
        ({"current_hp": 11}, "current_hp"),
        ({"current_hp": -50}, "current_hp"),
        ({"current_fp": -11}, "current_fp"),
        ({"skills": ["x"]}, "skills"),
        ({"skills": {"x": "high"}}, "skills.x"),
        ({"carried": -1}, "carried"),
        ({"weapons": [{"skill": "x"}]}, "weapons[0].name"),
        ({"weapons": [{"name": "x", "damage_type": "zap"}]}, "weapons[0].damage_type"),
        ({"weapons": [{"name": "x", "damage": "lots"}]}, "damage"),
        ({"weapons": [{"name": "x", "colour": "red"}]}, "weapons[0].colour"),
        ({"posture": "flying"}, "posture"),
        ({"is_pc": "maybe"}, "is_pc"),
    ],
)
def test_bad_fields_are_named(sheet: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as info:
        new_character(sheet)
    assert info.value.where == where


def test_a_state_round_trips_through_json() -> None:
    state = RULES.new_state()
    state = add_character(
        RULES,
        state,
        "dai",
        {
            "name": "Dai",
            "dx": 13,
            "skills": {"broadsword": 14},
            "shield": 12,
            "carried": 25.5,
            "weapons": [{"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
        },
    )
    data = state_to_json(RULES, state)
    back = state_from_json(RULES, data)
    assert back == state
    assert isinstance(back.characters["dai"], GurpsCharacter)


def test_view_has_every_value_a_gm_wants() -> None:
    state = add_character(RULES, RULES.new_state(), "dai", {"dx": 11, "carried": 30})
    view = RULES.view(state, "dai")
    for key in (
        "st",
        "dx",
        "iq",
        "ht",
        "hp",
        "fp",
        "will",
        "per",
        "current_hp",
        "current_fp",
        "basic_lift",
        "basic_speed",
        "basic_move",
        "encumbrance_level",
        "move",
        "dodge",
        "parry",
        "block",
        "skills",
        "dr",
        "carried",
        "conditions",
        "maneuver",
        "shock",
        "death_checks_at",
    ):
        assert key in view
    assert view["encumbrance_level"] == 1
    assert view["move"] == 4
    assert view["dodge"] == 7
    assert view["skills"]["climbing"] == 6
