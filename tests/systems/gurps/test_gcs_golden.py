"""Hand-checked sheets from real GCS files, with the arithmetic (Basic Set pages) beside each value."""

from __future__ import annotations

import pytest
from tests.systems.gurps.gcs_library import load, without_calc

from rulekeeper.systems.gurps import import_gcs, new_character


def test_el_clavo_combat_reflexes_boxing_and_a_revolver() -> None:
    result = import_gcs(without_calc(load("1shotadventures/Characters/The Phantom Jungle/El Clavo.gcs")))
    sheet = result.sheet
    char = new_character(sheet)
    # adj ST +3, DX +3, IQ +2, HT +4, Per +3 over 10; Will and Per start at IQ, HP at ST, FP at HT
    assert (char.st, char.dx, char.iq, char.ht) == (13, 13, 12, 14)
    assert (char.will, char.per, char.hp, char.fp) == (12, 15, 13, 14)
    assert char.basic_speed == 6.75  # (DX 13 + HT 14) / 4 (B17)
    assert char.basic_move == 6  # floor(6.75)
    assert char.basic_lift == 34  # 13 x 13 / 5 = 33.8, rounded (B15)
    assert char.basic_dodge == 10  # floor(6.75) + 3 = 9, +1 Combat Reflexes (B43)
    punch = char.weapon("Punch")
    assert punch is not None and punch.kind == "unarmed"
    # Boxing 8 points at DX/A: 13 - 1 + 1 + 8/4 = 15 (B170); Parry 3 + 15/2 = 10, +1 Combat Reflexes
    assert char.weapon_level(punch) == 15
    assert char.weapon_parry(punch) == 11
    # thrust for ST 13 is 1d (B16), Punch thr-1 = 1d-1; Boxing at DX+1 and at DX+2: +1 per die each
    assert next(w.damage_text for w in result.weapons if w.usage == "Punch") == "1d+1 cr"
    colt = char.weapon("Colt M1873 SAA, .45 Long Colt")
    assert colt is not None and colt.ranged and not colt.can_parry
    # Guns (Pistol) 4 points at DX/E: 13 + 0 + 1 + 4/4 = 15; Acc 2, Bulk -2, six shots
    assert (char.weapon_level(colt), colt.acc, colt.bulk, colt.shots, colt.kind) == (15, 2, -2, "6(3i)", "firearm")
    assert (colt.damage, colt.damage_type) == ("3d-2", "pi+")


def test_rock_mite_iq_0_damage_resistance_and_lifting_st() -> None:
    char = new_character(import_gcs(load("Dungeon Fantasy/Dungeon Fantasy Monsters 1/Rock Mite.gcs")).sheet)
    # IQ 10 - 10 = 0, allowed; Will is IQ 0 + 12 = 12; Per 0 + 9 = 9
    assert (char.st, char.iq, char.will, char.per) == (12, 0, 12, 9)
    # Basic Speed (10 + 13) / 4 = 5.75, adj -0.75 = 5.0; Basic Move floor(5.0) - 1 = 4
    assert (char.basic_speed, char.basic_move) == (5.0, 4)
    # Damage Resistance 5 and Damage Resistance 25, one point per level on every location: 30;
    # the skull adds its own DR 2 (the humanoid body: B399)
    assert char.dr == 30
    assert char.dr_at("skull") == 32
    assert char.dr_at("eye") == 0
    # Lifting ST 6 (B65): Basic Lift on ST 18 = 18 x 18 / 5 = 64.8 -> 65 lb; striking ST stays 12
    assert char.basic_lift == 65
    bite = char.weapon("Bite")
    assert bite is not None and bite.damage == "thr" and bite.damage_type == "cut"


def test_goblin_berserker_buys_up_from_a_skill_default() -> None:
    result = import_gcs(
        load("Home Brew/Ptolemy's Elder Scrolls/Elder Scrolls Bestiary/Goblins/Goblin Berserker.gcs")
    )
    skills = result.sheet["skills"]
    # Axe/Mace 8 points at DX 11 /A: 11 - 1 + 1 + 2 = 13
    assert skills["axe/mace"] == 13
    # Two-Handed Axe/Mace defaults to Axe/Mace - 3 = 10, the level 1 point buys (DX - 1), so its
    # 7 points count as 8 (B173): 11 - 1 + 1 + 2 = 13, not the 12 that 7 points alone would buy
    assert skills["two-handed axe/mace"] == 13


def test_dremora_lord_leveled_innate_attack() -> None:
    result = import_gcs(load("Home Brew/Ptolemy's Elder Scrolls/Elder Scrolls Bestiary/Daedra/Dremora Lord.gcs"))
    firestorm = next(w for w in result.sheet["weapons"] if w["name"] == "Firestorm")
    # Burning Attack 6 levels at 1d each = 6d burn (B42); a ranged weapon by its fields
    assert (firestorm["damage"], firestorm["damage_type"], firestorm["kind"]) == ("6d", "burn", "missile")
    # its default names "Innate Attack (@Attack Type@)", filled from the trait: Projectile;
    # Innate Attack (Projectile) 8 points at DX 15 /E: 15 + 0 + 1 + 2 = 18
    char = new_character(result.sheet)
    on_sheet = char.weapon("Firestorm")
    assert on_sheet is not None and char.weapon_level(on_sheet) == 18
    assert firestorm["skill"] == "innate attack (projectile)" and "level" not in firestorm  # it follows the skill
    assert firestorm["acc"] == 3
    assert result.derived["basic_lift"] == pytest.approx(115)  # ST 24: 24 x 24 / 5 = 115.2 -> 115
