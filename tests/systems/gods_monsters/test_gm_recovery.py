"""Rest and recovery: night, day, maximums, verve by day and by encounter, NPC nights, bonus pools."""

from __future__ import annotations

import pytest

from rulekeeper.errors import RuleRefusal

from .helpers import TOROMEEN, Table

HURT = {**TOROMEEN, "survival": 2, "max_survival": 7, "verve": 0, "max_verve": 17, "health": 12}


def test_successful_night_heals_an_injury_by_default() -> None:
    table = Table({"t": {**HURT, "injuries": 2}})
    table.act("rest", "t", kind="night")
    table.wait(8 * 3600, dice=[10])  # health 12 - 2 = 10
    assert table.char("t").injuries == 1 and table.char("t").survival == 2


def test_player_may_choose_survival_instead_of_injury() -> None:
    table = Table({"t": {**HURT, "injuries": 1}})
    table.act("rest", "t", kind="night", recover="survival")
    table.wait(8 * 3600, dice=[1])
    assert table.char("t").injuries == 1 and table.char("t").survival == 4


def test_night_rest_roll_can_be_left_to_the_table() -> None:
    table = Table({"t": HURT}, automation={"gm.rest": "prompt"})
    table.act("rest", "t", kind="night")
    table.wait(8 * 3600)
    assert table.char("t").verve == 17  # the new day does not wait for the roll
    assert table.char("t").survival == 2
    table.resolve([20])
    assert table.char("t").survival == 3


def test_full_day_of_rest_needs_no_roll() -> None:
    table = Table({"t": HURT})
    table.act("rest", "t", kind="day")
    table.wait(24 * 3600)
    assert table.char("t").survival == 4 and table.char("t").verve == 17


def test_rest_never_exceeds_maximum() -> None:
    table = Table({"t": {**HURT, "survival": 6}})
    table.act("rest", "t", kind="day")
    table.wait(24 * 3600)
    assert table.char("t").survival == 7


def test_unhealable_aging_injuries_stay() -> None:
    table = Table({"t": {**HURT, "injuries": 1, "unhealable_injuries": 1}})
    table.act("rest", "t", kind="day")
    table.wait(24 * 3600)
    assert table.char("t").injuries == 1 and table.char("t").survival == 4
    table.act("heal", "t", injuries=1)
    assert table.char("t").injuries == 1


def test_cannot_rest_twice_at_once() -> None:
    table = Table({"t": HURT})
    table.act("rest", "t", kind="night")
    with pytest.raises(RuleRefusal, match="already resting"):
        table.act("rest", "t", kind="day")


def test_npc_regains_level_survival_each_night_without_roll() -> None:
    table = Table({"orc": {"is_npc": True, "level": 3, "survival": 4, "max_survival": 15}})
    table.act("rest", "orc", kind="night")
    table.wait(8 * 3600)  # no dice: no roll
    assert table.char("orc").survival == 7
    assert table.char("orc").verve == 0


def test_encounter_restores_up_to_level_verve_once_per_adventure() -> None:
    table = Table({"t": HURT, "k": {"archetype": "thief", "level": 4, "survival": 5, "verve": 2, "max_verve": 10}})
    table.act("encounter", encounter="merchant")
    assert table.char("t").verve == 2 and table.char("k").verve == 6
    table.act("encounter", encounter="merchant")
    assert table.char("t").verve == 2
    assert "already restored" in table.text
    with pytest.raises(RuleRefusal, match="already restored"):
        table.act("encounter", "t", encounter="merchant")
    table.act("new_adventure")
    table.act("encounter", "t", encounter="merchant")
    assert table.char("t").verve == 4


def test_encounter_verve_never_exceeds_maximum() -> None:
    table = Table({"k": {"archetype": "thief", "level": 4, "survival": 5, "verve": 9, "max_verve": 10}})
    table.act("encounter", encounter="sage")
    assert table.char("k").verve == 10


def test_conflict_encounters_restore_nothing() -> None:
    table = Table({"t": HURT})
    with pytest.raises(RuleRefusal, match="outside of conflict"):
        table.act("encounter", encounter="ambush", conflict=True)


def test_new_day_for_everyone() -> None:
    table = Table({"t": HURT, "k": {"archetype": "thief", "survival": 5, "verve": 1, "max_verve": 8}})
    table.act("new_day")
    assert table.char("t").verve == 17 and table.char("k").verve == 8


def test_bonus_pool_ends_early_and_same_name_replaces() -> None:
    table = Table({"t": TOROMEEN})
    table.act("bonus_pool", "t", points=5, name="prowess", duration="10m")
    table.act("bonus_pool", "t", points=3, name="prowess", duration="1m")
    assert table.view("t")["bonus_pool"] == 3
    assert len([t for t in table.state.timers if t.kind.startswith("gm.bonus-pool")]) == 1
    table.act("end_bonus_pool", "t", name="prowess")
    assert table.view("t")["bonus_pool"] == 0
    with pytest.raises(RuleRefusal, match="no bonus pool"):
        table.act("end_bonus_pool", "t", name="prowess")


def test_exhausted_pool_disappears_with_its_timer() -> None:
    table = Table({"t": TOROMEEN})
    table.act("bonus_pool", "t", points=4, duration="5m")
    table.act("damage", "t", amount=6, in_combat=True)
    assert table.view("t")["bonus_pools"] == [] and table.char("t").verve == 15
    assert not [t for t in table.state.timers if t.kind.startswith("gm.bonus-pool")]


def test_mojo_gain_and_spend() -> None:
    table = Table({"t": {**TOROMEEN, "mojo": 2}})
    table.act("mojo", "t", gain=3, spend=1)
    assert table.char("t").mojo == 4
    with pytest.raises(RuleRefusal):
        table.act("mojo", "t", spend=5)
