"""Injury, fatigue and recovery through the engine: thresholds, timers and automation levels."""

from __future__ import annotations

import pytest
from gurps_table import Table

from rulekeeper.errors import InputError, RuleRefusal


def test_damage_applies_dr_and_wounding_and_records_result() -> None:
    t = Table(hero={"st": 20})
    out = t.act("damage", "hero", rolls=[3, 4], dice="2d+1", damage_type="cut", dr=3)
    assert out.result["penetrating"] == 5
    assert out.result["injury"] == 7
    assert t.char("hero").current_hp == 13
    assert all(step.rule.system == "gurps" and step.rule.seed == "004" for step in out.explanation)


def test_negative_damage_is_refused_with_a_clear_error() -> None:
    t = Table(hero={})
    with pytest.raises(InputError, match="amount"):
        t.act("damage", "hero", amount=-3)


def test_damage_uses_sheet_dr_by_default() -> None:
    t = Table(hero={"dr": 2})
    out = t.act("damage", "hero", amount=5)
    assert out.result["penetrating"] == 3
    assert t.char("hero").current_hp == 7


def test_prompt_mode_leaves_each_roll_pending_and_resolves_later() -> None:
    # every second, so the next roll is already due when the death check is rolled
    t = Table(automation={"gurps": "prompt"}, options={"fading_rolls": "seconds"}, hero={"ht": 12})
    t.act("damage", "hero", amount=20)  # major wound, death check and consciousness roll: all pending
    assert [p.purpose for p in t.state.pending] == ["major-wound", "death", "consciousness"]
    assert t.has("hero", "fading")
    t.resolve([3, 3, 4])  # consciousness: stays awake
    assert t.state.timers_of("hero", "gurps.consciousness")
    t.resolve([6, 6, 6])  # death check fails
    assert t.char("hero").dead
    assert t.has("hero", "dead")
    assert not t.state.pending  # the remaining roll was withdrawn
    assert not t.state.timers_of("hero")


def test_out_of_combat_an_hour_at_0_hp_is_not_3600_rolls() -> None:
    """Option fading_rolls 'turns' (the default from roll_rules 5): the HT roll 'each turn' (seed 004,
    General Damage) comes each second in combat only; out of combat once per new injury."""
    t = Table(hero={"ht": 12})
    t.act("damage", "hero", amount=12, rolls=[3, 3, 3, 3, 3, 3])  # to -2 HP: shrugs off the major wound, stays up
    assert t.has("hero", "fading") and not t.state.timers_of("hero", "gurps.consciousness")
    t.advance(3600)  # an hour passes: no roll asked, none rolled
    assert t.has("hero", "fading") and not t.has("hero", "unconscious")
    t.act("damage", "hero", amount=1, rolls=[6, 6, 6])  # a new injury: one roll, failed
    assert t.has("hero", "unconscious")
    fighter = Table(hero={"ht": 12}, orc={"dx": 12, "ht": 12})
    fighter.act("damage", "hero", amount=12, rolls=[3, 3, 3, 3, 3, 3])
    fighter.act("start_combat", None, rolls=[])
    assert fighter.state.timers_of("hero", "gurps.consciousness")  # each turn again, in the fight


def test_note_mode_only_records() -> None:
    t = Table(automation={"gurps.death": "note"}, hero={})
    out = t.act("damage", "hero", amount=20, rolls=[3, 3, 3, 3, 3, 3])  # major wound and consciousness auto
    assert "noted, not rolled" in out.render()
    assert not t.char("hero").dead
    assert not t.state.pending


def test_consciousness_penalty_option() -> None:
    t = Table(options={"consciousness_penalty": True}, hero={"ht": 12})
    t.act("damage", "hero", injury=20, rolls=[3, 3, 3, 3, 3, 3, 4, 4, 4])
    # at -10 HP (one full multiple below zero): HT 12 - 1 = 11; 12 fails
    assert t.has("hero", "unconscious")
    assert "-1 per full multiple of HP below 0" in t.text


def test_new_injury_after_waking_restarts_consciousness_rolls() -> None:
    t = Table(hero={"ht": 12})
    t.act("damage", "hero", injury=10, rolls=[3, 3, 3, 6, 6, 6])
    assert t.has("hero", "unconscious")
    t.advance(3600, rolls=[3, 3, 3])
    assert not t.has("hero", "unconscious") and not t.has("hero", "fading")
    t.act("damage", "hero", injury=1, rolls=[3, 3, 3])
    assert t.has("hero", "fading")


def test_heal_above_zero_stops_consciousness_rolls() -> None:
    t = Table(hero={"ht": 12})
    t.act("damage", "hero", injury=10, rolls=[3, 3, 3, 3, 3, 3])
    assert t.has("hero", "fading")
    t.act("heal", "hero", amount=3)
    assert not t.has("hero", "fading")
    assert not t.state.timers_of("hero", "gurps.consciousness")
    t.advance(5)  # no roll is asked for
    assert t.char("hero").current_hp == 3


def test_heal_never_exceeds_maximum() -> None:
    t = Table(hero={"current_hp": 8})
    out = t.act("heal", "hero", amount=5)
    assert t.char("hero").current_hp == 10
    assert out.result["healed"] == 2


def test_dead_characters_refuse_actions() -> None:
    t = Table(hero={})
    t.act("damage", "hero", injury=60)
    assert t.char("hero").dead
    for name, params in (("heal", {"amount": 1}), ("rest", {"kind": "short"}), ("maneuver", {"choice": "move"})):
        with pytest.raises(RuleRefusal):
            t.act(name, "hero", **params)


def test_stun_recovery_with_iq_for_mental_stun() -> None:
    t = Table(hero={"iq": 8, "ht": 14})
    t.act("stun", "hero", mental=True)
    t.advance(1, rolls=[4, 4, 4])  # IQ 8: 12 fails, though HT 14 would pass
    assert t.has("hero", "stunned")
    t.advance(1, rolls=[2, 2, 2])
    assert not t.has("hero", "stunned")


def test_stun_recovery_can_be_prompted() -> None:
    t = Table(automation={"gurps.stun": "prompt"}, hero={})
    t.act("stun", "hero")
    t.advance(10)  # one roll waits; the next depends on it, so it is not asked for yet
    assert [p.created for p in t.state.pending] == [1]
    t.resolve([6, 6, 6])  # fails at second 1: the roll due at second 2 is asked for now
    assert t.has("hero", "stunned")
    assert [p.created for p in t.state.pending] == [2]
    assert t.state.timers_of("hero", "gurps.stun") == ()
    t.resolve([2, 2, 2])  # recovers at second 2; nothing more is due
    assert not t.has("hero", "stunned")
    assert t.state.pending == ()
    assert t.state.clock == 10


def test_fatigue_floor_and_hp_cost() -> None:
    t = Table(hero={"ht": 10})
    t.act("lose_fp", "hero", amount=25)
    hero = t.char("hero")
    assert hero.current_fp == -10
    assert hero.current_hp == 10 - 15  # 10 HP for the FP from 0 to -10, 5 more at the floor
    assert t.has("hero", "unconscious")


def test_fp_recovery_while_unconscious_wakes_at_positive_fp() -> None:
    t = Table(hero={"ht": 6, "st": 20})
    t.act("lose_fp", "hero", amount=12)
    assert t.has("hero", "unconscious")
    t.advance(6 * 600)
    assert t.char("hero").current_fp == 0
    assert t.has("hero", "unconscious")
    t.advance(600)
    assert not t.has("hero", "unconscious")


def test_unconscious_from_injury_and_fatigue_needs_both_lifted() -> None:
    t = Table(hero={"ht": 6, "st": 20})
    t.act("damage", "hero", injury=20, rolls=[6, 6, 6])  # HP 0: major wound roll fails by 12 -> passes out
    assert t.has("hero", "unconscious")
    t.act("lose_fp", "hero", amount=12)
    cond = t.state.condition("hero", "unconscious")
    assert cond is not None and list(cond.data["causes"]) == ["injury", "fatigue"]
    t.advance(70 * 60, rolls=[6, 6, 6])  # FP back to 1 after 70 minutes; the hourly roll at 1h fails
    assert t.char("hero").current_fp == 1
    assert t.has("hero", "unconscious")


def test_rest_meal_gives_one_extra_fp_once() -> None:
    t = Table(hero={"current_fp": 2})
    t.act("rest", "hero", kind="hour", meal=True)
    t.advance(3600)
    assert t.char("hero").current_fp == 9  # 6 ticks + 1 for the meal


def test_rest_is_refused_while_fading() -> None:
    t = Table(hero={"ht": 12})
    t.act("damage", "hero", injury=10, rolls=[3, 3, 3, 3, 3, 3])
    with pytest.raises(RuleRefusal, match="cannot rest"):
        t.act("rest", "hero", kind="short")


def test_consciousness_action() -> None:
    t = Table(hero={"ht": 12})
    with pytest.raises(RuleRefusal, match="0 HP"):
        t.act("consciousness", "hero")
    t.act("damage", "hero", injury=10, rolls=[3, 3, 3, 3, 3, 3])
    t.act("consciousness", "hero", rolls=[6, 6, 6])
    assert t.has("hero", "unconscious")


def test_every_explanation_cites_seed_004() -> None:
    t = Table(hero={"ht": 12})
    out = t.act("damage", "hero", amount=20, rolls=[2, 3, 4, 3, 3, 4, 6, 6, 5])
    gurps_steps = [s for s in out.explanation if s.rule.system == "gurps"]
    assert gurps_steps and all(s.rule.seed == "004" and s.rule.section for s in gurps_steps)
