"""Combat through the engine: maneuvers, attacks, defenses and their interplay with injury."""

from __future__ import annotations

from typing import Any

import pytest
from gurps_table import Table

from rulekeeper.errors import InputError, RuleRefusal

KNIGHT: dict[str, Any] = {
    "st": 12,
    "dx": 12,
    "ht": 12,
    "skills": {"broadsword": 14},
    "shield": 12,
    "weapons": [{"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
}
ORC: dict[str, Any] = {
    "dx": 11,
    "ht": 11,
    "skills": {"brawling": 12},
    "weapons": [{"name": "fist", "skill": "brawling", "damage": "thr-1", "kind": "unarmed"}],
}
GUN: dict[str, Any] = {
    "dx": 12,
    "skills": {"guns": 13},
    "weapons": [
        {"name": "rifle", "skill": "guns", "damage": "2d", "damage_type": "pi", "kind": "firearm", "acc": 4, "rof": 5}
    ],
}


def test_prompted_attack_defense_and_damage() -> None:
    t = Table(automation={"gurps": "prompt"}, knight=KNIGHT, orc=ORC)
    t.act("attack", "knight", target="orc")
    assert [p.purpose for p in t.state.pending] == ["attack"]
    t.resolve([3, 3, 4])
    assert t.char("orc").incoming[0].attacker == "knight"
    t.act("defend", "orc", defense="dodge")
    assert [p.purpose for p in t.state.pending] == ["defense"]
    # the dodge fails, so the damage roll is the next pending check; the orc is untouched until then
    t.resolve([6, 6, 6])
    assert t.char("orc").incoming == ()
    assert [p.purpose for p in t.state.pending] == ["damage"]
    assert t.char("orc").current_hp == 10
    t.resolve([3])
    assert t.char("orc").current_hp == 1  # 1d+3 = 6 cutting -> 9
    assert [p.purpose for p in t.state.pending] == ["major-wound"]


def test_typed_damage_roll() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    # sw+1 at ST 12 is 1d+3; 4 cutting -> 6 injury, a major wound (HT roll 9 succeeds)
    t.act("attack", "knight", rolls=[3, 3, 4, 3, 3, 3], target="orc", defense="none", damage_roll=4)
    assert t.char("orc").current_hp == 10 - 6


def test_typed_damage_total_must_be_possible_on_the_dice() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    with pytest.raises(InputError, match="2 cannot be rolled on 1d\\+3"):
        t.act("attack", "knight", rolls=[3, 3, 4], target="orc", defense="none", damage_roll=2)
    assert t.char("orc").current_hp == 10


def test_shock_applies_to_the_next_attack_and_then_ends() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    t.act("damage", "knight", amount=3)
    out = t.act("attack", "knight", rolls=[6, 6, 6], target="orc", defense="none")
    assert out.result["attack_skill"] == 11
    assert "-3 shock" in out.render()
    out = t.act("attack", "knight", rolls=[6, 6, 6], target="orc", defense="none")
    assert out.result["attack_skill"] == 14
    assert not t.has("knight", "shock")


def test_attack_needs_a_skill_or_a_weapon() -> None:
    t = Table(knight=KNIGHT, bare={})
    with pytest.raises(InputError, match="damage"):
        t.act("attack", "bare", target="knight")
    out = t.act("attack", "bare", rolls=[6, 6, 6], target="knight", damage="1d-2")
    assert out.result["attack_skill"] == 10  # DX for an improvised attack
    with pytest.raises(InputError, match="no weapon"):
        t.act("attack", "knight", target="bare", weapon="halberd")


def test_cannot_attack_oneself() -> None:
    t = Table(knight=KNIGHT)
    with pytest.raises(InputError):
        t.act("attack", "knight", target="knight")


def test_off_hand_penalty() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    out = t.act("attack", "knight", rolls=[6, 6, 6], target="orc", off_hand=True)
    assert out.result["attack_skill"] == 10


def test_suppression_fire_is_recorded_but_not_resolved() -> None:
    t = Table(gun=GUN, orc=ORC)
    t.act("maneuver", "gun", choice="all-out-attack", option="suppression", weapon="rifle")
    assert "p. 410" in t.text
    with pytest.raises(RuleRefusal, match="410"):
        t.act("attack", "gun", target="orc")
    pistol = dict(GUN, weapons=[dict(GUN["weapons"][0], rof=3)])
    t2 = Table(gun=pistol)
    with pytest.raises(RuleRefusal, match="RoF 5"):
        t2.act("maneuver", "gun", choice="all-out-attack", option="suppression", weapon="rifle")


def test_aim_with_a_rifle_and_ranged_steps() -> None:
    t = Table(gun=GUN, orc=ORC)
    t.act("maneuver", "gun", choice="aim", target="orc", weapon="rifle")
    out = t.act("attack", "gun", rolls=[6, 6, 6], target="orc", size_modifier=1, range_speed=-5, circumstances=-1)
    assert out.result["attack_skill"] == 13 + 4 + 1 - 5 - 1
    # the aim is used up by the attack
    out = t.act("attack", "gun", rolls=[6, 6, 6], target="orc")
    assert out.result["attack_skill"] == 13


def test_aim_is_lost_when_switching_target() -> None:
    t = Table(gun=GUN, orc=ORC, other=ORC)
    t.act("maneuver", "gun", choice="aim", target="orc", weapon="rifle")
    t.act("maneuver", "gun", choice="aim", target="other", weapon="rifle")
    assert t.view("gun")["aim_turns"] == 1
    out = t.act("attack", "gun", rolls=[6, 6, 6], target="orc")
    assert out.result["attack_skill"] == 13


def test_a_collapsing_attacker_does_not_attack() -> None:
    t = Table(knight=dict(KNIGHT, current_fp=0), orc=ORC)
    out = t.act("attack", "knight", rolls=[6, 6, 6], target="orc")
    assert t.has("knight", "collapsed")
    assert "collapses instead of attacking" in out.render()
    assert t.char("orc").current_hp == 10


def test_unconscious_defenders_get_no_defense() -> None:
    t = Table(knight=KNIGHT, orc=dict(ORC, current_hp=0))
    t.act("stun", "orc")
    t.act("consciousness", "orc", rolls=[6, 6, 6])
    assert t.has("orc", "unconscious")
    out = t.act("attack", "knight", rolls=[3, 3, 4, 1], target="orc", defense="dodge")
    assert "orc is unconscious, so no defense" in out.render()


def test_stunned_defends_at_minus_four() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    t.act("stun", "knight")
    out = t.act("attack", "orc", rolls=[3, 3, 4, 2, 2, 1], target="knight", defense="dodge")
    assert "-4 stunned" in out.render()
    assert out.result["defended"] is True


def test_feint_resist_override_and_next_turn_only() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    out = t.act("maneuver", "knight", rolls=[3, 3, 4, 6, 6, 6], choice="feint", target="orc", resist=9)
    assert out.result["feint"] == 4
    t.act("maneuver", "knight", choice="move")  # the feinted turn passes without an attack
    out = t.act("attack", "knight", rolls=[3, 3, 4, 6, 6, 6, 1, 3, 3, 3], target="orc", defense="dodge")
    assert "feinted" not in out.render()


def test_defend_picks_a_waiting_attack_by_id() -> None:
    t = Table(knight=KNIGHT, orc=ORC, goblin=ORC)
    t.act("attack", "orc", rolls=[3, 3, 4], target="knight")
    t.act("attack", "goblin", rolls=[3, 3, 4], target="knight")
    first, second = (a.id for a in t.char("knight").incoming)
    with pytest.raises(InputError, match="no waiting attack"):
        t.act("defend", "knight", defense="dodge", attack=999)
    t.act("defend", "knight", rolls=[3, 3, 3], defense="block", attack=second)
    assert [a.id for a in t.char("knight").incoming] == [first]
    with pytest.raises(RuleRefusal, match="one block per turn"):
        t.act("defend", "knight", defense="block")
    t.act("defend", "knight", rolls=[3, 3, 3], defense="dodge")
    assert t.char("knight").incoming == ()


def test_change_posture_needs_a_posture() -> None:
    t = Table(knight=KNIGHT)
    with pytest.raises(InputError, match="posture"):
        t.act("maneuver", "knight", choice="change-posture")


def test_evaluate_needs_a_target_and_aod_increased_a_defense() -> None:
    t = Table(knight=KNIGHT)
    with pytest.raises(InputError, match="opponent"):
        t.act("maneuver", "knight", choice="evaluate")
    with pytest.raises(InputError, match="defense"):
        t.act("maneuver", "knight", choice="all-out-defense", option="increased")


def test_start_combat_resets_turns_and_records_order() -> None:
    t = Table(knight=KNIGHT, orc=ORC)
    t.act("maneuver", "knight", choice="move")
    out = t.act("start_combat", characters="orc,knight")
    assert out.result["order"] == ["knight", "orc"]
    assert t.view("knight")["turn"] == 0
    with pytest.raises(InputError, match="unknown character"):
        t.act("start_combat", characters="orc,nobody")
    with pytest.raises(InputError, match="twice"):
        t.act("start_combat", characters="orc,orc")
