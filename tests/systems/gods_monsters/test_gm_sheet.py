"""The character sheet: fields, defaults, NPC estimates, errors naming the bad field, JSON round trip."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core import add_character
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters.character import SCORES

from .helpers import RULESET, TOROMEEN, Table


def test_player_character_defaults() -> None:
    c = RULESET.new_character({"survival": 7, "verve": 17, "archetype": "Warrior", "level": 2})
    assert (c.survival, c.max_survival, c.verve, c.max_verve) == (7, 7, 17, 17)
    assert c.archetype == "warrior" and c.archetypal_ability == "strength" and c.archetypal_reaction == "fortitude"
    assert all(c.score(s) == 10 for s in SCORES)
    assert (c.injuries, c.mojo, c.movement, c.is_npc, c.size) == (0, 0, 10, False, "medium")


def test_player_character_without_survival_has_none() -> None:
    c = RULESET.new_character({"movement": 12})
    assert (c.survival, c.max_survival, c.survival_dice) == (0, 0, "")


def test_npc_defaults_endurance_survival_dice_no_verve() -> None:
    c = RULESET.new_character({"is_npc": True, "level": 5, "archetype": "warrior"})
    assert c.endurance == 12 and c.verve == 0 and c.max_verve == 0
    assert c.survival_dice == "5d10"
    thief = RULESET.new_character({"is_npc": True, "level": 3, "archetype": "thief", "survival_bonus": 2})
    assert thief.endurance == 13 and thief.survival_dice == "3d6+6"
    known = RULESET.new_character({"is_npc": True, "level": 3, "endurance": 16, "survival": 11})
    assert known.endurance == 16 and known.survival == 11 and known.survival_dice == ""


def test_roll_npc_survival_action() -> None:
    table = Table({"orc": {"is_npc": True, "level": 2}, "t": TOROMEEN})
    table.act("roll_npc_survival", "orc", dice=[3, 5])
    assert table.char("orc").survival == 8 and table.char("orc").max_survival == 8
    with pytest.raises(RuleRefusal, match="already known"):
        table.act("roll_npc_survival", "orc")
    with pytest.raises(RuleRefusal, match="player character"):
        table.act("roll_npc_survival", "t")


@pytest.mark.parametrize(
    ("sheet", "where"),
    [
        ({"survival": 7, "strenght": 12}, "field strenght"),
        ({"survival": "many"}, "field survival"),
        ({"survival": 7, "level": True}, "field level"),
        ({"survival": 7, "fortitude": -1}, "field fortitude"),
        ({"survival": 7, "archetype": "bard"}, "field archetype"),
        ({"survival": 8, "max_survival": 7}, "field survival"),
        ({"survival": 7, "verve": 9, "max_verve": 8}, "field verve"),
        ({"is_npc": True, "level": 2, "verve": 3}, "field verve"),
        ({"survival": 7, "injuries": 1, "unhealable_injuries": 2}, "field unhealable_injuries"),
        ({"survival": 7, "fields": {"falling": "lots"}}, "field fields.falling"),
        ({"survival": 7, "fields": ["falling"]}, "field fields"),
        ({"survival": 7, "size": "enormous"}, "field size"),
        ({"survival": 7, "is_npc": "perhaps"}, "field is_npc"),
        ({"survival": 7, "survival_dice": "2d6"}, "field survival_dice"),
        ({"is_npc": True, "survival_dice": "lots"}, "field survival_dice"),
        ({"survival": 7.5}, "field survival"),
    ],
)
def test_bad_fields_are_named(sheet: dict[str, Any], where: str) -> None:
    with pytest.raises(InputError) as info:
        RULESET.new_character(sheet)
    assert info.value.where == where
    assert info.value.expected


def test_state_round_trips_through_json() -> None:
    table = Table({"t": {**TOROMEEN, "fields": {"falling": 2}, "mojo": 3}, "orc": {"is_npc": True, "level": 2}})
    table.act("bonus_pool", "t", points=5, duration="1m")
    table.act("damage", "t", amount=30, in_combat=True, dice=[20])
    table.act("encounter", encounter="inn")
    data = state_to_json(RULESET, table.state)
    again = state_from_json(RULESET, data)
    assert again == table.state
    assert state_to_json(RULESET, again) == data


def test_add_character_rejects_duplicates() -> None:
    state = add_character(RULESET, RULESET.new_state(), "t", TOROMEEN)
    with pytest.raises(InputError):
        add_character(RULESET, state, "t", TOROMEEN)
