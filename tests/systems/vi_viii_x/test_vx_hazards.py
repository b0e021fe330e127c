"""Non-combat cases (VIII.3): climb, disease and poison, falls, jumps, prolonged action, hunger and thirst."""

from __future__ import annotations

import pytest

from rulekeeper.core.clock import DAY
from rulekeeper.errors import InputError, RuleRefusal

from .helpers import ADEPT, RANGER, Table, face


def test_climb_on_grips_is_a_stamina_arct() -> None:
    table = Table({"adept": ADEPT})
    out = table.act("climb", "adept", dice=[face(0)], threshold="average")  # BU 6 + VIG 3 = 9: not above 9
    assert out.result["climbed"] is False and out.checks[0].total == 9
    out = table.act("climb", "adept", dice=[face(1)], threshold="average")
    assert out.result["climbed"] is True
    with pytest.raises(InputError, match="threshold"):
        table.act("climb", "adept")


def test_climb_without_grips_needs_a_tool() -> None:
    table = Table({"adept": ADEPT})
    with pytest.raises(RuleRefusal, match="without grips"):
        table.act("climb", "adept", grips=False)
    out = table.act("climb", "adept", grips=False, tool=True)
    assert out.result == {"climbed": True, "checked": False}
    out = table.act("climb", "adept", dice=[face(-3)], grips=False, tool=True, threshold="trivial")
    assert out.result["climbed"] is True  # 9 - 3 = 6 > 3


def test_untrained_stamina_checks_build_alone() -> None:
    table = Table({"ranger": RANGER})
    out = table.act("climb", "ranger", dice=[face(0)], threshold=5)
    assert out.checks[0].total == 6  # BU 6, no skill, no US


def test_disease_lowers_stats_until_every_point_is_back() -> None:
    table = Table({"adept": ADEPT, "doc": ADEPT})
    table.act("afflict", "adept", kind="disease", name="Marsh Fever", amount=4)
    v = table.view("adept")
    assert (v["vig"], v["bu"]) == (0, 5) and "injured" in v["conditions"]
    assert v["ailments"] == [
        {"name": "marsh fever", "kind": "disease", "stats": ["BU", "VIG"], "cure_found": False, "eradicated": False}
    ]
    # The doctor's Education medicine: IN 5 + MEM 4 = 9, +1 beats easy (6).
    out = table.act("cure", "adept", dice=[face(1)], ailment="marsh fever", healer="doc", threshold="easy")
    assert out.checks[0].total == 10 and out.result["cure_found"] is True
    assert table.view("adept")["ailments"][0]["cure_found"] is True
    table.act("heal", "adept", amount=2, source="other")  # BU 6, VIG 1: not yet gone
    assert table.view("adept")["ailments"][0]["eradicated"] is False
    table.act("heal", "adept", amount=2, source="other")
    assert table.view("adept")["ailments"][0]["eradicated"] is True
    with pytest.raises(InputError, match="no ailment"):
        table.act("cure", "adept", ailment="marsh fever", threshold="easy")


def test_poison_is_cured_with_medicine_or_alchemy_but_disease_with_medicine() -> None:
    table = Table({"adept": ADEPT})
    table.act("afflict", "adept", kind="poison", name="nightshade", amount=1, ks="co")
    out = table.act("cure", "adept", dice=[face(-3)], ailment="nightshade", skill="education-alchemy", threshold=3)
    assert out.result["cure_found"] is True
    table.act("afflict", "adept", kind="disease", name="pox", amount=1)
    with pytest.raises(RuleRefusal, match="education-medicine"):
        table.act("cure", "adept", ailment="pox", skill="education-alchemy", threshold=3)


def test_fall_in_note_mode_lands_the_full_damage() -> None:
    table = Table({"adept": ADEPT}, automation={"vi-viii-x.fall": "note"})
    out = table.act("fall", "adept", metres=6)
    assert out.result["damage"] == 4 and table.view("adept")["vig"] == 0
    assert not table.state.pending


def test_fall_in_prompt_mode_waits_for_the_die() -> None:
    table = Table({"adept": ADEPT}, automation={"vi-viii-x": "prompt"})
    table.act("fall", "adept", metres=6)
    assert table.view("adept")["vig"] == 3 and len(table.state.pending) == 1
    out = table.resolve([face(2)])
    assert out.result["damage"] == 1 and out.result["relief"] == 3
    assert table.view("adept")["vig"] == 2


def test_falls_may_land_on_control() -> None:
    table = Table({"adept": ADEPT})
    out = table.act("fall", "adept", metres=9, ks="co", body_control=False)
    assert out.result["damage"] == 7 and table.view("adept")["co"] == 0


def test_jump_needs_agility_and_free_limbs() -> None:
    table = Table({"ranger": RANGER, "adept": ADEPT})
    with pytest.raises(InputError, match="agility"):
        table.act("jump", "ranger")
    table.act("state", "adept", kind="grappled")
    with pytest.raises(RuleRefusal, match="grappled"):
        table.act("jump", "adept")
    table.act("state", "adept", kind="grappled", on=False)
    table.act("burden", "adept", kind="overloaded")
    with pytest.raises(RuleRefusal, match="overloaded"):
        table.act("jump", "adept")


def test_prolonged_action_fatigue_and_rest() -> None:
    table = Table({"adept": ADEPT})
    table.act("exert", "adept")  # Stamina: BU 6 + VIG 3 = 9; thresholds 3, 6, 9, ...
    table.turns(1, dice=[face(-3)])  # 6 > 3: kept up
    assert table.char("adept").fatigue == 0
    table.turns(1, dice=[face(-3)])  # 6 against 6: fails
    assert table.char("adept").fatigue == 1 and table.has("adept", "fatigued")
    out = table.turns(1, dice=[face(1)])  # 9 + 1 - 1 fatigued = 9 against 9: fails
    assert out.checks[0].total == 9 and table.char("adept").fatigue == 2
    assert table.view("adept")["check_modifier"] == -2
    table.act("rest", "adept", kind="basic")
    assert table.char("adept").effort is None
    table.turns(1)
    assert table.char("adept").fatigue == 1
    table.turns(1)
    assert table.char("adept").fatigue == 0 and not table.has("adept", "fatigued")
    assert not table.state.timers


def test_starvation_day_by_day() -> None:
    table = Table({"w": {"BU": 7, "CO": 5, "IN": 5, "EM": 5, "us": {"VIG": 3}}})
    table.act("deprive", "w", kind="food")
    seen = []
    for _ in range(8):
        table.wait(DAY)
        seen.append((table.view("w")["vig"], table.view("w")["bu"]))
    assert seen == [(3, 7), (3, 7), (3, 7), (3, 7), (2, 7), (0, 7), (0, 4), (0, 0)]
    table.turns(1)
    assert table.has("w", "death") and table.has("w", "starving")


def test_deprivation_may_start_part_way() -> None:
    table = Table({"ranger": RANGER})
    table.act("deprive", "ranger", kind="water", days=2)
    assert table.has("ranger", "dehydrated")
    table.wait(DAY)
    assert table.view("ranger")["vig"] == 2


def test_a_prolonged_action_of_known_length_ends_by_itself() -> None:
    table = Table({"adept": ADEPT})
    table.act("exert", "adept", turns=2, threshold="easy")
    table.turns(1, dice=[face(0)])  # 9 > 6
    out = table.turns(1, dice=[face(-3)])  # 6 against 9: fatigued
    assert table.char("adept").fatigue == 1 and "ends" in out.render()
    assert table.char("adept").effort is None
    out = table.turns(3)
    assert not out.checks and table.char("adept").fatigue == 1  # no rest yet
    table.act("rest", "adept", kind="total")
    table.turns(1)
    assert table.char("adept").fatigue == 0


def test_entangled_legs_stop_a_jump_but_arms_do_not() -> None:
    table = Table({"adept": ADEPT})
    table.act("state", "adept", kind="entangled", limbs="arms")
    assert table.act("jump", "adept").result["max_distance"] == 5.0
    table.act("state", "adept", kind="entangled", limbs="legs")
    assert table.view("adept")["can_jump"] is False
    with pytest.raises(RuleRefusal, match="entangled"):
        table.act("jump", "adept")
