"""Death checks, the dying timer, doom, the heroic last effort and the end of the scene."""

from __future__ import annotations

import pytest

from rulekeeper.errors import RuleRefusal

from .helpers import TOROMEEN, Table

DOWN = {**TOROMEEN, "survival": 0, "verve": 0, "mojo": 5}


def dying_table(**sheet: object) -> Table:
    """Toromeen hit to 2 injuries, death roll lost: dying for 13 minutes."""
    table = Table({"t": {**DOWN, **sheet}, "gralen": {"archetype": "sorceror", "survival": 5, "mojo": 4}})
    table.act("damage", "t", amount=2, in_combat=True, dice=[1])
    table.wait(10, dice=[1, 20])
    assert table.has("t", "dying")
    return table


def test_death_check_counts_verve_only_for_archetypal_injuries() -> None:
    # 2 injuries given directly while 5 verve remain: archetypal -> 2 < 0 + 5, no roll.
    table = Table({"t": {**TOROMEEN, "survival": 0, "verve": 5}}, automation={"gm.death": "prompt"})
    table.act("injure", "t", injuries=2, archetypal=True, dice=[1])
    table.wait(10)
    assert not table.state.pending
    # Not archetypal: verve does not count and the death roll is asked.
    table.act("injure", "t", injuries=1, dice=[1])
    table.wait(10)
    assert [p.purpose for p in table.state.pending] == ["death"]


def test_death_roll_pending_when_table_rolls() -> None:
    table = Table({"t": DOWN}, automation={"gm.death": "prompt"})
    table.act("damage", "t", amount=2, dice=[5])
    table.wait(10)
    pending = table.state.pending[0]
    assert pending.check.kind == "gm.death" and pending.check.dice_sides == (20, 20)
    table.resolve([2, 14])  # injuries succeed (2 <= 2), endurance 13 fails on 14
    assert table.has("t", "dying")
    assert table.view("t")["death_in_seconds"] == 13 * 60


def test_resisting_endurance_keeps_him_alive() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, dice=[5])
    table.wait(10, dice=[1, 13])
    assert not table.has("t", "dying")
    assert table.last is not None and table.last.result["death_roll"] == "survived"


def test_injuries_failing_their_roll_keeps_him_alive() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, dice=[5])
    table.wait(10, dice=[3, 20])
    assert not table.has("t", "dying")


def test_unconscious_bonus_of_two_on_death_roll() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, dice=[5])
    table.act("fall_unconscious", "t")
    table.wait(10, dice=[1, 15])  # 15 - 2 + 2 = 15
    assert "+2 unconscious" in table.text
    assert not table.has("t", "dying")


def test_failed_consciousness_roll_falls_before_the_death_roll() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, dice=[19])
    table.wait(10, dice=[1, 20])
    assert table.has("t", "unconscious") and table.has("t", "dying")
    assert table.view("t")["dying_unit"] == "hours"
    assert table.view("t")["death_in_seconds"] == 13 * 3600


def test_semi_conscious_counts_as_unconscious_and_costs_mojo() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, dice=[19])
    table.wait(10, dice=[1, 1])  # death roll survived (endurance 15 - 2 + 2)
    table.act("semi_conscious", "t")
    assert table.has("t", "semi-conscious") and not table.has("t", "unconscious")
    assert table.char("t").mojo == 4
    table.act("damage", "t", amount=1)
    table.wait(10, dice=[1, 15])  # 15 - 3 + 2 = 14: fails -> dying, in hours
    assert "+2 unconscious" in table.text
    assert table.view("t")["dying_unit"] == "hours"


def test_semi_consciousness_needs_unconsciousness_and_mojo() -> None:
    table = Table({"t": {**DOWN, "mojo": 0}})
    with pytest.raises(RuleRefusal, match="not unconscious"):
        table.act("semi_conscious", "t")
    table.act("fall_unconscious", "t", minutes=5)
    with pytest.raises(RuleRefusal, match="no mojo"):
        table.act("semi_conscious", "t")


def test_awakening_roll_at_injury_penalty_retries_on_failure() -> None:
    table = Table({"t": {**DOWN, "injuries": 3, "health": 10}})
    table.act("fall_unconscious", "t")
    table.wait(3 * 60, dice=[8])  # health 10 - 3 = 7: fails
    assert "health to awaken 10 (-3 3 injuries) = 7" in table.text
    assert table.has("t", "unconscious")
    table.wait(3 * 60, dice=[7])
    assert not table.has("t", "unconscious")


def test_unhurt_character_wakes_without_roll() -> None:
    table = Table({"t": TOROMEEN})
    table.act("fall_unconscious", "t", minutes=1)
    table.wait(60)
    assert not table.has("t", "unconscious")


def test_no_second_death_roll_while_dying() -> None:
    table = dying_table()
    table.act("damage", "t", amount=1, dice=[1])
    table.wait(10)
    assert "already dying" in table.text


def test_dying_time_runs_out_then_doomed_and_healing_refused() -> None:
    table = dying_table()
    table.wait(13 * 60)
    assert table.has("t", "doomed") and not table.has("t", "dying")
    with pytest.raises(RuleRefusal, match="even healing cannot help"):
        table.act("heal", "t", injuries=2)
    with pytest.raises(RuleRefusal, match="rest cannot help"):
        table.act("rest", "t", kind="night")


def test_no_time_left_means_doomed_at_once() -> None:
    table = Table({"t": {**DOWN, "endurance": 3, "injuries": 1}})
    table.act("damage", "t", amount=2, dice=[1])
    table.wait(10, dice=[1, 20])
    assert table.has("t", "doomed")
    assert "no time" in table.text


def test_heroic_last_effort_with_level_bonus_no_injury_penalty_and_mojo() -> None:
    table = dying_table()
    table.wait(13 * 60)
    table.act("heroic_last_effort", "t", against="strength", mojo=3, contributions="gralen:2", dice=[16])
    # strength 10 + level 2 + 5 mojo = 17; the 16 needed 4 mojo beyond 12: 3 from Toromeen, 1 from Gralen.
    assert "strength 10 (+2 heroic last effort (level), +5 mojo bid) = 17" in table.text
    roll_line = next(line for line in table.text.splitlines() if "= 17" in line)
    assert "injur" not in roll_line
    assert table.last is not None
    assert table.last.result["heroic"] == {"success": True, "mojo_spent": {"t": 3, "gralen": 1}}
    assert table.char("t").mojo == 2 and table.char("gralen").mojo == 3
    assert table.has("t", "dead") and not table.has("t", "doomed")


def test_heroic_bid_spends_all_with_option() -> None:
    table = dying_table()
    table.state = table.state.with_settings(
        type(table.state.settings)(automation=table.state.settings.automation, options={"mojo_bid_spend": "all"})
    )
    table.wait(13 * 60)
    table.act("heroic_last_effort", "t", score=14, mojo=2, dice=[3])
    assert table.char("t").mojo == 3


def test_failed_heroic_effort_spends_no_mojo() -> None:
    table = dying_table()
    table.wait(13 * 60)
    table.act("heroic_last_effort", "t", against="strength", mojo=5, dice=[20])
    assert table.char("t").mojo == 5 and table.has("t", "dead")


def test_heroic_last_effort_refusals() -> None:
    table = dying_table()
    with pytest.raises(RuleRefusal, match="has not run out"):
        table.act("heroic_last_effort", "t", against="strength")
    table.wait(13 * 60)
    with pytest.raises(RuleRefusal, match="only 5 mojo"):
        table.act("heroic_last_effort", "t", against="strength", mojo=6)
    with pytest.raises(RuleRefusal, match="gralen has only 4"):
        table.act("heroic_last_effort", "t", against="strength", contributions="gralen:9")


def test_end_of_scene_kills_the_doomed_only() -> None:
    table = dying_table()
    table.wait(13 * 60)
    table.act("end_scene")
    assert table.has("t", "dead")
    assert not table.has("gralen", "dead")
    assert table.view("t")["alive"] is False
    with pytest.raises(RuleRefusal, match="dead"):
        table.act("rest", "t", kind="night")


def test_phantasmal_death_means_shock_cured_by_night_rest() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, phantasmal=True, dice=[5])
    table.wait(10, dice=[1, 20])
    assert table.has("t", "shock") and not table.has("t", "dying")
    with pytest.raises(RuleRefusal, match="shock"):
        table.act("semi_conscious", "t")
    table.act("rest", "t", kind="night")
    table.wait(8 * 3600, dice=[1])
    assert not table.has("t", "shock")


def test_magical_healing_ends_shock() -> None:
    table = Table({"t": DOWN})
    table.act("damage", "t", amount=2, phantasmal=True, dice=[5])
    table.wait(10, dice=[1, 20])
    table.act("heal", "t", survival=1, magical=True)
    assert not table.has("t", "shock")


def test_healing_to_zero_injuries_cancels_death() -> None:
    table = dying_table()
    table.act("heal", "t", injuries=1)
    assert table.has("t", "dying")
    table.act("heal", "t", injuries=1)
    assert not table.has("t", "dying") and not table.state.timers_of("t", "gm.death")
