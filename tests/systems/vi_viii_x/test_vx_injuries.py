"""Damage, the four states at zero, the fatality countdown, and every way of healing (VIII.1, VIII.2)."""

from __future__ import annotations

import pytest

from rulekeeper.core.clock import DAY
from rulekeeper.errors import InputError, RuleRefusal

from .helpers import ADEPT, RANGER, Table


def test_wolf_bites_and_the_countdown() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=4)
    assert (table.view("ranger")["vig"], table.view("ranger")["bu"]) == (0, 5)
    assert table.has("ranger", "injured")
    table.turns(1)
    table.act("damage", "ranger", amount=6)
    assert table.view("ranger")["bu"] == -1
    assert not table.has("ranger", "death")  # only from the next turn
    table.turns(1)
    assert table.has("ranger", "death")
    fatality = table.char("ranger").fatalities["BU"]
    assert (fatality.turns, fatality.begins, fatality.permanent_at) == (9, 12, 66)
    table.wait(53)
    assert not table.char("ranger").fatalities["BU"].permanent
    table.wait(1)
    assert table.char("ranger").fatalities["BU"].permanent
    assert table.char("ranger").permanently_dead
    assert not [t for t in table.state.timers if t.actor == "ranger"]
    with pytest.raises(RuleRefusal, match="permanently dead"):
        table.act("heal", "ranger", amount=3)


def test_healing_that_stops_short_of_zero_keeps_the_state() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=12)  # BU -3
    table.turns(1)
    table.act("heal", "ranger", amount=3, source="other")  # BU 0: still at zero
    assert table.has("ranger", "death") and table.view("ranger")["magic_weeks"] == 0
    table.act("heal", "ranger", amount=1, source="other")
    assert not table.has("ranger", "death") and table.char("ranger").fatalities == {}
    assert not [t for t in table.state.timers if "fatality" in t.kind]


def test_healing_in_the_same_turn_stops_the_state_before_it_starts() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=9)
    table.act("heal", "ranger", amount=1)
    table.turns(20)
    assert not table.has("ranger", "death") and table.view("ranger")["bu"] == 1


@pytest.mark.parametrize(
    ("ks", "kind", "state", "us", "turns"),
    [
        ("co", "physical", "paralysis", "REF", 7),
        ("in", "mental", "coma", "MEM", 9),
        ("em", "mental", "vegetative", "EMP", 7),
    ],
)
def test_each_known_stat_has_its_state(ks: str, kind: str, state: str, us: str, turns: int) -> None:
    table = Table({"adept": ADEPT})
    table.act("damage", "adept", amount=20, kind=kind, ks=ks)
    fatality = table.char("adept").fatalities[ks.upper()]
    assert (fatality.state, fatality.us, fatality.turns) == (state, us, turns)
    table.turns(1)
    assert table.has("adept", state)
    table.turns(turns)
    assert table.char("adept").fatalities[ks.upper()].permanent
    # A permanent state is not lifted by healing: that pair takes no more points.
    table.act("heal", "adept", amount=30, source="other")
    assert table.view("adept")[ks] < 0 and table.has("adept", state)


def test_damage_kinds_target_their_stats() -> None:
    table = Table({"adept": ADEPT})
    with pytest.raises(RuleRefusal, match="physical damage lands on BU or CO"):
        table.act("damage", "adept", amount=1, kind="physical", ks="in")
    with pytest.raises(RuleRefusal, match="mental damage lands on IN or EM"):
        table.act("damage", "adept", amount=1, kind="mental", ks="bu")
    table.act("damage", "adept", amount=1, kind="other", ks="em")
    assert table.view("adept")["emp"] == 1
    with pytest.raises(InputError, match="out of range"):
        table.act("damage", "adept", amount=-1)
    with pytest.raises(InputError, match="not an unknown stat of BU"):
        table.act("damage", "adept", amount=1, us="REF")


def test_a_known_stat_with_several_unknown_stats_needs_the_one_named() -> None:
    sheet = {**RANGER, "us": {"VIG": 3, "TOU": {"ks": "BU", "value": 2}}}
    table = Table({"r": sheet})
    with pytest.raises(InputError, match="several unknown stats"):
        table.act("damage", "r", amount=2)
    table.act("damage", "r", amount=3, us="tou")
    assert (table.view("r")["tou"], table.view("r")["bu"], table.view("r")["vig"]) == (0, 5, 3)
    # Healing fills BU first, then every US of the sheet in order.
    table.act("heal", "r", amount=2, source="other")
    assert (table.view("r")["bu"], table.view("r")["tou"]) == (6, 1)


def test_a_known_stat_without_unknown_stats_takes_damage_directly() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=6, kind="mental", ks="in")
    assert table.view("ranger")["in"] == -2
    assert table.char("ranger").fatalities["IN"].turns == 4


def test_magical_healing_ages_and_other_healing_may() -> None:
    table = Table({"ranger": {**RANGER, "age": 30}})
    table.act("damage", "ranger", amount=6)
    out = table.act("heal", "ranger", amount=5)
    assert out.result["aged_weeks"] == 5 and table.view("ranger")["magic_weeks"] == 5
    assert table.view("ranger")["age"] == 30
    table.act("damage", "ranger", amount=2)
    out = table.act("heal", "ranger", amount=2, source="other", weeks_per_point=2)
    assert out.result["aged_weeks"] == 4 and table.view("ranger")["magic_weeks"] == 9


def test_healing_aimed_at_one_pair() -> None:
    table = Table({"adept": ADEPT})
    table.act("damage", "adept", amount=4)  # VIG 0, BU 5
    table.act("damage", "adept", amount=3, kind="mental", ks="in")  # MEM 1
    table.act("heal", "adept", amount=5, ks="in")
    v = table.view("adept")
    assert (v["mem"], v["bu"], v["vig"]) == (4, 5, 0)
    # Naming a US picks the pair; its KS still comes first.
    table.act("heal", "adept", amount=2, us="vig", source="other")
    assert table.view("adept")["bu"] == 6 and table.view("adept")["vig"] == 1


def test_potion_over_one_day_and_stretched() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=8)  # VIG 0, BU 1
    out = table.act("potion", "ranger", dice=[2, 3])
    assert out.result["potion_points"] == 5 and out.result["portions"] == [5]
    table.wait(DAY)  # the basic-actions day brings no natural recovery
    assert (table.view("ranger")["bu"], table.view("ranger")["vig"]) == (6, 0)
    out = table.act("potion", "ranger", dice=[1, 2], days=2)
    assert out.result["portions"] == [1, 2]
    table.wait(DAY)
    assert table.view("ranger")["vig"] == 1
    table.wait(DAY)
    assert table.view("ranger")["vig"] == 3
    assert not table.has("ranger", "injured")


def test_natural_recovery_never_passes_the_original() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=1)
    table.act("rest", "ranger", kind="total")
    table.wait(DAY, dice=[3])
    assert table.view("ranger")["vig"] == 3
    assert not [t for t in table.state.timers if t.kind.endswith("recovery")]


def test_no_recovery_while_going_without_food() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=2)
    table.act("rest", "ranger", kind="total")
    table.act("deprive", "ranger", kind="food")
    table.wait(DAY)
    assert table.view("ranger")["vig"] == 1 and "without food" in table.text
    table.act("nourish", "ranger", kind="food")
    table.wait(DAY, dice=[2])
    assert table.view("ranger")["vig"] == 3


def test_acting_while_hurt_can_kill() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=8)  # BU 1
    table.act("rest", "ranger", kind="active")
    table.wait(DAY)
    assert table.view("ranger")["bu"] == 0
    assert table.char("ranger").fatalities["BU"].state == "death"
