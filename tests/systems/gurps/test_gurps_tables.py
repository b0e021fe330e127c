"""Pure GURPS rules: tables and formulas, golden values from the brief, brute-force cross-checks."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice, parse_damage, swing, thrust
from rulekeeper.systems.gurps.encumbrance import basic_lift, encumbered_dodge, encumbered_move, encumbrance_level
from rulekeeper.systems.gurps.fatigue import fp_loss
from rulekeeper.systems.gurps.maneuvers import MANEUVER_NAMES, maneuver_named
from rulekeeper.systems.gurps.ranged import aim_bonus
from rulekeeper.systems.gurps.thresholds import (
    consciousness_penalty,
    death_multiples_crossed,
    death_thresholds,
    is_major_wound,
    is_reeling,
    is_very_tired,
    shock_penalty,
    wake_band,
)
from rulekeeper.systems.gurps.turn_order import Combatant, tie_rollers, turn_order
from rulekeeper.systems.gurps.turns import feint_margin
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES, injury_from, penetrating

CALC = get_ruleset("gurps").calculators()


def test_basic_lift_st_10_and_limits() -> None:
    bl = basic_lift(10)
    assert bl == 20
    assert [encumbrance_level(w, bl) for w in (20, 40, 60, 120, 200, 200.5)] == [0, 1, 2, 3, 4, 5]
    assert [encumbrance_level(w, bl) for w in (20.5, 40.5, 60.5, 120.5)] == [1, 2, 3, 4]


def test_encumbrance_move_and_dodge_at_basic_speed_5() -> None:
    assert [encumbered_move(5, level) for level in range(5)] == [5, 4, 3, 2, 1]
    assert [encumbered_dodge(8, level) for level in range(5)] == [8, 7, 6, 5, 4]


def test_encumbrance_never_below_one() -> None:
    assert encumbered_move(2, 4) == 1  # 2 x 0.2 = 0.4, dropped to 0, raised to 1
    assert encumbered_dodge(3, 4) == 1
    assert encumbered_move(7, 1) == 5  # 5.6 -> 5, fractions dropped


def test_encumbrance_calculator() -> None:
    out = CALC["encumbrance"].calculate(
        {"st": 10, "basic_lift": None, "carried": 45.0, "basic_move": None, "basic_speed": 5.0}
    )
    assert out.values["basic_lift"] == 20
    assert out.values["limits"] == [20, 40, 60, 120, 200]
    assert out.values["moves"] == [5, 4, 3, 2, 1]
    assert out.values["dodges"] == [8, 7, 6, 5, 4]
    assert out.values["level"] == 2
    assert out.values["move"] == 3


def test_defenses_calculator_golden() -> None:
    out = CALC["defenses"].calculate(
        {
            "basic_speed": 5.25,
            "encumbrance_level": 0,
            "reeling": False,
            "very_tired": False,
            "weapon_skill": 13,
            "parry_bonus": 0,
            "shield_skill": 12,
        }
    )
    assert out.values == {"dodge": 8, "parry": 9, "block": 9}


def test_defenses_calculator_explains_every_halving() -> None:
    params = {"basic_speed": 5.75, "encumbrance_level": 1, "weapon_skill": 13, "parry_bonus": 1, "shield_skill": None}
    out = CALC["defenses"].calculate({**params, "reeling": True, "very_tired": True})
    # 5 + 3 - 1 = 7, halved for reeling (4), halved again for very tired (2).
    assert out.values == {"dodge": 2, "parry": 10}
    texts = [step.text for step in out.steps]
    assert texts[0] == "Dodge = floor(5.75) + 3 - 1 (encumbrance) = 7"
    assert texts[1] == "reeling (below 1/3 HP): Dodge 7 halved, rounded up = 4"
    assert texts[2] == "very tired (below 1/3 FP): Dodge 4 halved, rounded up = 2"
    assert texts[3] == "Parry = 3 + 13 / 2 (round down) + 1 (weapon) = 10"
    assert {out.steps[1].rule.section, out.steps[2].rule.section} == {"General Damage", "Lost Fatigue Points"}
    plain = CALC["defenses"].calculate({**params, "reeling": False, "very_tired": False})
    assert plain.values["dodge"] == 7 and not any("halved" in step.text for step in plain.steps)


def test_thrust_and_swing_table() -> None:
    assert str(thrust(10)) == "1d-2"
    assert str(swing(10)) == "1d"
    assert str(thrust(20)) == "2d-1"
    assert str(swing(17)) == "3d-1"
    assert str(thrust(1)) == "1d-6"
    with pytest.raises(InputError):
        thrust(0)
    # above ST 20: the B16 pattern (GCS basic_set arithmetic), checked against B16 rows
    strengths = (21, 23, 25, 27, 30, 50, 100)
    assert [str(thrust(st)) for st in strengths] == ["2d", "2d+1", "2d+2", "3d-1", "3d", "5d+2", "11d"]
    assert [str(swing(st)) for st in strengths] == ["4d-1", "4d+1", "5d-1", "5d+1", "5d+2", "8d-1", "13d"]
    assert CALC["thrust_swing"].calculate({"st": 12}).values == {"thrust": "1d-1", "swing": "1d+2"}


def test_damage_text() -> None:
    assert parse_damage("2d+1") == DamageDice(2, 1)
    assert parse_damage("sw+1", 12) == DamageDice(1, 3)
    assert parse_damage("thr", 10) == DamageDice(1, -2)
    assert parse_damage("3") == DamageDice(0, 3)
    assert DamageDice(2, 1).maximum == 13
    with pytest.raises(InputError):
        parse_damage("sw")  # needs ST
    with pytest.raises(InputError):
        parse_damage("two dice")


def test_wounding_golden() -> None:
    # 2d+1 cutting rolled 8 against DR 3: penetrating 5, injury floor(7.5) = 7
    assert penetrating(8, 3) == 5
    assert injury_from(5, "cut", min_injury=True) == 7
    assert injury_from(5, "imp", min_injury=True) == 10
    assert injury_from(5, "cr", min_injury=True) == 5
    assert injury_from(1, "pi-", min_injury=True) == 1
    assert injury_from(1, "pi-", min_injury=False) == 0
    assert injury_from(0, "imp", min_injury=True) == 0
    assert penetrating(3, 3) == 0
    out = CALC["wounding"].calculate({"damage": 8, "dr": 3, "damage_type": "cut", "min_injury": True})
    assert out.values == {"penetrating": 5, "injury": 7}


def test_every_wounding_multiplier_rounds_as_fraction_arithmetic_does() -> None:
    # Each row's whole-number product against the exact Fraction, rounded toward zero.
    for row in DAMAGE_TYPES.values():
        for damage in (*range(-40, 200), 10**6 + 1, -(10**6) - 1):
            assert row.times(damage) == int(damage * row.multiplier), (row.code, damage)


def test_shock_golden() -> None:
    assert shock_penalty(10, 3) == -3
    assert shock_penalty(10, 6) == -4
    assert shock_penalty(25, 5) == -2  # 20+ HP: -1 per 2 HP lost
    assert shock_penalty(25, 1) == 0
    assert shock_penalty(40, 20) == -4
    assert CALC["shock"].calculate({"hp": 10, "lost": 3}).values == {"shock": -3}


def test_death_thresholds_golden() -> None:
    assert death_thresholds(10) == (-10, -20, -30, -40)
    out = CALC["death_thresholds"].calculate({"hp": 10}).values
    assert out["checks"] == [-10, -20, -30, -40]
    assert out["dead_at"] == -50
    assert death_multiples_crossed(10, 5, -25) == (1, 2)
    assert death_multiples_crossed(10, -10, -19) == ()
    assert death_multiples_crossed(10, -45, -50) == (5,)


def test_hp_and_fp_thresholds() -> None:
    assert [is_reeling(10, hp) for hp in (4, 3)] == [False, True]
    assert [is_very_tired(10, fp) for fp in (4, 3)] == [False, True]
    assert is_major_wound(10, 6) and not is_major_wound(10, 5)
    assert consciousness_penalty(10, -9) == 0
    assert consciousness_penalty(10, -10) == -1
    assert consciousness_penalty(10, -25) == -2
    assert [wake_band(10, hp) for hp in (1, 0, -9, -10)] == ["15 minutes", "hourly", "hourly", "12 hours"]


def test_fp_loss_brute_force() -> None:
    # One FP at a time: HP cost when at 0 or below, FP never below -FP.
    for max_fp, current, amount in itertools.product(range(1, 8), range(-7, 8), range(0, 20)):
        if not -max_fp <= current <= max_fp:
            continue
        fp, hp = current, 0
        for _ in range(amount):
            if fp <= 0:
                hp += 1
            if fp > -max_fp:
                fp -= 1
        assert fp_loss(max_fp, current, amount) == (fp, hp)


def test_success_odds_golden() -> None:
    ten = CALC["success_odds"].calculate({"skill": 10, "modifier": 0}).values
    assert Fraction(ten["fraction"]) == Fraction(1, 2)
    sixteen = CALC["success_odds"].calculate({"skill": 16, "modifier": 0}).values
    assert sixteen["critical_success"] == [3, 6]
    fifteen = CALC["success_odds"].calculate({"skill": 15, "modifier": 0}).values
    assert fifteen["critical_success"] == [3, 5]
    assert fifteen["critical_failure"] == [17, 18]
    low = CALC["success_odds"].calculate({"skill": 3, "modifier": 0}).values
    assert low["critical_failure"] == [13, 18]  # 10 over effective skill


def test_ranged_five_steps() -> None:
    assert aim_bonus(2, 0) == 0
    assert [aim_bonus(2, turns) for turns in (1, 2, 3, 5)] == [2, 3, 4, 4]
    out = CALC["ranged"].calculate(
        {"skill": 13, "acc": 2, "aim_turns": 3, "size_modifier": 1, "range_speed": -3, "circumstances": -2}
    )
    assert out.values["effective"] == 13 + 4 + 1 - 3 - 2
    assert len(out.steps) == 6


def test_all_thirteen_maneuvers() -> None:
    assert len(MANEUVER_NAMES) == 13
    assert maneuver_named("all-out-attack").defenses == ()
    assert maneuver_named("move-and-attack").defenses == ("dodge", "block")
    assert maneuver_named("Move and Attack").movement == "full move"
    assert maneuver_named("aoa").movement == "half move forward"


def test_turn_order_rules() -> None:
    combatants = [
        Combatant("npc2", 5.0, 10, False),
        Combatant("npc1", 5.0, 12, False),
        Combatant("slow_pc", 5.0, 9, True),
        Combatant("fast", 6.0, 10, True),
        Combatant("a", 5.5, 11, True),
        Combatant("b", 5.5, 11, True),
    ]
    rolls = {"a": 8, "b": 12}
    asked: list[str] = []

    def roll(cid: str) -> int:
        asked.append(cid)
        return rolls[cid]

    order = turn_order(combatants, roll)
    # A PC is involved in the 5.0 tie, so DX decides it there too.
    assert order == ("fast", "b", "a", "npc1", "npc2", "slow_pc")
    assert asked == ["a", "b"]
    npcs_only = turn_order([Combatant("x", 5.0, 10, False), Combatant("y", 5.0, 14, False)], roll)
    assert npcs_only == ("x", "y")  # the GM's order


def test_feint_margin() -> None:
    assert feint_margin(True, 4, False, -2) == 4  # foe failed: my margin of success
    assert feint_margin(True, 4, True, 1) == 3  # both succeeded: margin of victory
    assert feint_margin(True, 2, True, 2) == 0  # foe as good: feint fails
    assert feint_margin(False, -1, False, -5) == 0  # I failed


def test_fatigue_calculator() -> None:
    out = CALC["fatigue"].calculate({"fp": 10, "current_fp": 2, "loss": 15}).values
    assert out == {"current_fp": -10, "hp_lost": 13, "very_tired": True, "verge_of_collapse": True, "unconscious": True}


def test_npcs_tied_with_pcs_roll_as_one_side_and_keep_the_gms_order() -> None:
    combatants = [
        Combatant("orc2", 5.0, 11, False),
        Combatant("pc", 5.0, 11, True),
        Combatant("orc1", 5.0, 11, False),
    ]
    assert tie_rollers(combatants) == ("orc2,orc1", "pc")
    asked: list[str] = []

    def roll(side: str) -> int:
        asked.append(side)
        return {"orc2,orc1": 14, "pc": 9}[side]

    assert turn_order(combatants, roll) == ("orc2", "orc1", "pc")
    assert asked == ["orc2,orc1", "pc"]
    # a PC rolling higher goes first; the NPCs still keep the GM's order between themselves
    assert turn_order(combatants, lambda side: 3 if "," in side else 18) == ("pc", "orc2", "orc1")
