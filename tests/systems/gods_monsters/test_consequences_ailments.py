"""Seed 002 "Ailments": the table as data, strength, reactions, and ailments over game time."""

from __future__ import annotations

import pytest

from rulekeeper.core import HOUR, MINUTE, Action, GameState, advance, apply_action
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.ailments import (
    AILMENTS,
    CONCENTRATION_SCORES,
    ailment_from_json,
    ailment_to_json,
    find_ailment,
    parse_penalties,
    penalty_for_score,
    resist_reaction,
    strength_at_throw_off,
    strength_while_exposed,
)

from .helpers import RULESET, Table


def test_example_table() -> None:
    rows = {a.name: (a.type_text, a.strength, a.action_time) for a in AILMENTS}
    assert rows == {
        "alcohol": ("chronic", -1, 20 * MINUTE),
        "common cold": ("chronic", 1, 24 * HOUR),
        "food poisoning": ("chronic", 3, HOUR),
        "black widow": ("once", 0, 30 * MINUTE),
        "giant spider": ("once", 4, 10),
        "huge spider": ("once", 2, 10),
        "large spider": ("once", 1, 10),
        "shadow spider": ("once", 1, 20),
        "sleep gas": ("inescapable", 0, 10),
    }
    food = find_ailment("Food  Poisoning")
    assert food is not None
    assert food.effect.injuries == "1"
    assert not food.effect.penalties  # the example's concentration penalty is an optional extra
    gas = find_ailment("sleep gas")
    assert gas is not None and gas.effect.sleep_minutes == "2d10"
    spider = find_ailment("giant spider")
    assert spider is not None and spider.effect.paralysis_minutes == "1d4"
    alcohol = find_ailment("alcohol")
    assert alcohol is not None
    assert dict(alcohol.effect.penalties) == {"agility": -1, "concentration": -1, "evasion": -1, "fortitude": -1}
    assert find_ailment("plague") is None


def test_reactions_by_exposure() -> None:
    assert resist_reaction("accepted") == ("health", -4)
    assert resist_reaction("avoidable") == ("perception", 0)
    assert resist_reaction("forced") == ("evasion", 0)
    with pytest.raises(InputError):
        resist_reaction("inhaled")


def test_strength_over_time() -> None:
    # Chronic: one weaker before each throw-off roll (food poisoning: 2, 1, 0, -1 ...).
    assert [strength_at_throw_off(3, n) for n in range(4)] == [2, 1, 0, -1]
    # Chronic inescapable: one stronger each action time of exposure.
    assert [strength_while_exposed(1, n) for n in range(3)] == [1, 2, 3]


def test_concentration_penalties_land_on_mental_abilities() -> None:
    penalties = {"concentration": -4, "agility": -1}
    assert CONCENTRATION_SCORES == ("charisma", "wisdom", "intelligence")
    assert penalty_for_score(penalties, "wisdom") == -4
    assert penalty_for_score(penalties, "agility") == -1
    assert penalty_for_score(penalties, "strength") == 0


def test_parse_penalties() -> None:
    assert parse_penalties("agility=-1, concentration=-4") == {"agility": -1, "concentration": -4}
    assert parse_penalties("evasion=-1,evasion=-1,") == {"evasion": -2}
    for bad in ("luck=-1", "agility", "agility=x"):
        with pytest.raises(InputError, match="penalty"):
            parse_penalties(bad)


def test_ailment_json_round_trip() -> None:
    for ailment in AILMENTS:
        assert ailment_from_json(ailment_to_json(ailment)) == ailment


# -- over game time --------------------------------------------------------------------------------
def _victim() -> Table:
    sheet = {"survival": 10, "max_survival": 10, "health": 12, "evasion": 12, "perception": 12, "fortitude": 18}
    return Table({"v": sheet})


def test_resisted_ailment_leaves_nothing() -> None:
    table = _victim()
    out = table.act("ailment", "v", dice=[1], name="huge spider")
    assert out.result["ailment"]["stage"] == "resisted"
    assert not table.state.conditions
    assert not table.state.timers


def test_giant_spider_paralyses() -> None:
    table = _victim()
    table.act("ailment", "v", dice=[20], name="giant spider")
    table.wait(10, dice=[3])
    assert table.has("v", "paralyzed")
    assert not table.has("v", "giant spider")
    table.wait(3 * MINUTE)
    assert not table.has("v", "paralyzed")


def test_custom_ailments_need_an_action_time_and_an_effect() -> None:
    table = _victim()
    with pytest.raises(InputError, match="action time"):
        table.act("ailment", "v", name="swamp fever", injuries="1d2")
    with pytest.raises(InputError, match="needs an effect"):
        table.act("ailment", "v", name="swamp fever", action_time="1h")
    with pytest.raises(InputError, match="names a condition"):
        table.act("ailment", "v", name="Unconscious", action_time="1h", injuries="1")
    with pytest.raises(InputError, match="penalt"):
        table.act("ailment", "v", name="swamp fever", action_time="1h", penalties="luck=-2")


def test_custom_ailment_overrides() -> None:
    table = _victim()
    table.act(
        "ailment", "v", name="swamp fever", action_time="2h", strength=-2, chronic=True, injuries="1", contracted=True
    )
    view = table.view("v")
    assert view["ailments"]["swamp fever"] == {"stage": "incubating", "strength": -2, "times": 0}
    assert table.state.timers_of("v", "gm.c.ailment.swamp-fever")[0].due == 2 * HOUR


def test_contracting_twice_is_refused() -> None:
    table = _victim()
    table.act("ailment", "v", name="alcohol", contracted=True)
    with pytest.raises(RuleRefusal, match="already has alcohol"):
        table.act("ailment", "v", name="alcohol", contracted=True)


def test_alcohol_penalties_add_up_and_end_when_thrown_off() -> None:
    table = _victim()
    table.act("ailment", "v", name="alcohol", contracted=True)
    table.wait(20 * MINUTE)
    assert table.view("v")["ailment_penalties"] == {"agility": -1, "concentration": -1, "evasion": -1, "fortitude": -1}
    # Throw-off: health 12 at strength -2 (+2) = 14; 15 fails and the penalties double.
    table.wait(20 * MINUTE, dice=[15])
    assert table.view("v")["ailment_penalties"]["agility"] == -2
    roll = table.act("roll", "v", dice=[9], against="evasion")
    assert "evasion 12 (-2 ailments) = 10 or less" in roll.render()
    table.wait(20 * MINUTE, dice=[1])
    assert table.view("v")["ailment_penalties"] == {}
    assert not table.has("v", "alcohol")


def test_one_time_ailment_with_penalties_stays_until_cured() -> None:
    table = _victim()
    table.act("ailment", "v", name="hex", action_time="10s", penalties="wisdom=-2", contracted=True)
    table.wait(10)
    assert table.view("v")["ailments"]["hex"]["stage"] == "affected"
    table.wait(HOUR)
    assert table.view("v")["ailment_penalties"] == {"wisdom": -2}
    table.act("cure_ailment", "v", name="hex")
    assert table.view("v")["ailment_penalties"] == {}
    with pytest.raises(RuleRefusal):
        table.act("cure_ailment", "v", name="hex")


def test_cure_keeps_injuries_and_stops_the_timers() -> None:
    table = _victim()
    table.act("ailment", "v", name="food poisoning", contracted=True)
    table.wait(HOUR, dice=[2])
    table.act("cure_ailment", "v", name="food poisoning")
    assert table.char("v").injuries == 1
    assert not table.state.timers_of("v", "gm.c.ailment.food-poisoning")
    table.wait(5 * HOUR)
    assert table.char("v").injuries == 1


def test_leaving_an_escapable_exposure_is_refused() -> None:
    table = _victim()
    table.act("ailment", "v", name="food poisoning", contracted=True)
    with pytest.raises(RuleRefusal, match="not exposed"):
        table.act("remove_exposure", "v", name="food poisoning")


def test_chronic_inescapable_left_before_it_takes_hold_just_ends() -> None:
    table = _victim()
    table.act("expose", "v", name="miasma", chronic=True, action_time="10s", penalties="health=-1")
    table.wait(10, dice=[1])
    table.act("remove_exposure", "v", name="miasma")
    assert not table.has("v", "miasma")
    assert not table.state.timers


def test_prompted_throw_off_waits_for_dice_and_keeps_the_schedule() -> None:
    table = Table(
        {"v": {"survival": 10, "health": 12, "fortitude": 18}},
        automation={"gm.ailment.throw-off": "prompt"},
    )
    table.act("ailment", "v", name="food poisoning", contracted=True)
    table.wait(HOUR, dice=[2])
    table.wait(HOUR)
    assert len(table.state.pending) == 1
    assert table.state.pending[0].check.kind == "gm.ailment.throw-off"
    table.wait(30 * MINUTE)
    # The throw-off fails (20): a second injury, and its consciousness roll (2).
    table.resolve([20, 2], table.state.pending[0].id)
    assert table.char("v").injuries == 2
    assert not table.state.pending
    # The next action time is an hour after the roll was asked (2 h), not after it was answered.
    assert table.state.timers_of("v", "gm.c.ailment.food-poisoning")[0].due == 3 * HOUR


def test_state_with_ailments_round_trips_through_json() -> None:
    table = _victim()
    table.act("expose", "v", name="sleep gas")
    table.wait(10, dice=[20, 4, 4])
    table.act("ailment", "v", name="alcohol", contracted=True)
    data = state_to_json(RULESET, table.state)
    assert state_from_json(RULESET, data) == table.state
    assert data["conditions"]


def test_ailment_replay_is_deterministic() -> None:
    def run(seed: int) -> GameState[GmCharacter]:
        table = _victim()
        action = Action("expose", "v", {"name": "sleep gas"})
        state = apply_action(RULESET, table.state, action, SeededSource(seed)).state
        for step in range(6):
            state = advance(RULESET, state, 10, SeededSource(seed * 100 + step)).state
        return state

    assert run(7) == run(7)


def test_an_illusory_poison_is_resisted_at_plus_ten() -> None:
    table = _victim()
    out = table.act("ailment", "v", dice=[17], name="huge spider", illusory=True)
    assert "evasion 12 (-2 ailment strength, +10 only an illusion) = 20 or less" in out.render()
    assert out.result["ailment"]["stage"] == "resisted"
