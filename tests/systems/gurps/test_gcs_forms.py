"""Each form GCS writes, read from the real file that uses it (tests/data/gcs), and the rules
consequences of the forms that reach play (multiplied dice, attributes of 0)."""

from __future__ import annotations

import copy

import pytest
from gurps_table import Table
from tests.systems.gurps.gcs_library import load

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps import import_gcs, new_character
from rulekeeper.systems.gurps.damage_table import DamageDice, parse_damage
from rulekeeper.systems.gurps.gcs_damage import PROGRESSIONS, swing_for, thrust_for

AMANDA = "1shotadventures/Characters/Black Mine of Teihiihan/Amanda-Birnstead.gcs"
SPRIGGAN = "Home Brew/Ptolemy's Elder Scrolls/Elder Scrolls Bestiary/Monsters/Spriggan Matron.gcs"
MINDWARPER = "Dungeon Fantasy/Dungeon Fantasy 2/Mindwarper.gcs"
NAGA = "Dungeon Fantasy RPG/Monsters/Naga.gcs"
RUDOLF = "Home Brew/Characters/Rudolf Vautour.gcs"
HOLY_WARRIOR = "Dungeon Fantasy/Dungeon Fantasy Adventure 1/Rivals/Holy Warrior.gcs"
SLIME = "Dungeon Fantasy/Dungeon Fantasy 2/Erupting Slime.gcs"
SKULL = "Dungeon Fantasy/Dungeon Fantasy 2/Flaming Skull.gcs"
SPECTER = "Dungeon Fantasy RPG/Monsters/Specter.gcs"


def _weapon(result: object, usage: str) -> object:
    return next(w for w in result.weapons if w.usage == usage or w.owner == usage)  # type: ignore[attr-defined]


def test_knowing_your_own_strength_reads_its_own_table() -> None:
    data = load(AMANDA)
    assert data["settings"]["damage_progression"] == "knowing_your_own_strength"
    result = import_gcs(data)
    assert result.disagreements == []
    assert result.derived["thrust"] == data["calc"]["thrust"]
    assert result.derived["swing"] == data["calc"]["swing"]
    # Pyramid 3/83's steps: a die per 4 ST, from 1d-1 at ST 11 thrust and ST 9 swing
    assert (str(thrust_for(11, "knowing_your_own_strength")), str(thrust_for(12, "knowing_your_own_strength"))) == (
        "1d-1",
        "1d",
    )
    assert str(swing_for(13, "knowing_your_own_strength")) == "2d-1"


@pytest.mark.parametrize("progression", PROGRESSIONS)
def test_every_progression_grows_with_st_and_another_file_reads_it(progression: str) -> None:
    data = copy.deepcopy(load(AMANDA))
    data["settings"]["damage_progression"] = progression
    result = import_gcs(data)  # no calc to agree with: only that it reads, and the table's shape
    assert result.derived["thrust"]
    low, high = thrust_for(8, progression), thrust_for(40, progression)
    assert high.sides * high.dice + high.adds > low.sides * low.dice + low.adds


def test_an_unknown_progression_is_refused_by_name() -> None:
    data = copy.deepcopy(load(AMANDA))
    data["settings"]["damage_progression"] = "house_special"
    with pytest.raises(InputError) as caught:
        import_gcs(data)
    assert caught.value.where == "settings.damage_progression"
    assert "knowing_your_own_strength" in str(caught.value.expected)


def test_accuracy_jet_is_a_jet_without_acc() -> None:
    result = import_gcs(load(SPRIGGAN))
    assert result.disagreements == []
    jets = [w for w in result.weapons if w.ranged and w.acc == 0]
    assert jets
    assert any(w.fragmentation == "[2d tox]" for w in result.weapons)


def test_multiplied_dice_are_read_and_rolled_multiplied() -> None:
    result = import_gcs(load(MINDWARPER))
    assert result.disagreements == []
    multiplied = [w for w in result.weapons if w.dice is not None and w.dice.multiplier > 1]
    assert [str(w.dice) for w in multiplied] == ["3dx5"]
    dice = parse_damage("3dx5")
    assert dice == DamageDice(3, 0, 6, 5)
    assert (dice.minimum, dice.maximum, dice.notation) == (15, 90, "(3d6)*5")
    t = Table(hero={"hp": 100})
    out = t.act("damage", "hero", rolls=[1, 2, 3], dice="3dx5", damage_type="cr", dr=0)
    assert out.result["injury"] == 30


def test_lifting_st_damage_with_an_effective_st_bonus() -> None:
    result = import_gcs(load(NAGA))
    assert result.disagreements == []
    grapple = _weapon(result, "Grapple")
    assert grapple.damage_text == "3d+2 control"  # type: ignore[attr-defined]


def test_skill_defaults_written_as_criteria() -> None:
    data = load(RUDOLF)
    assert isinstance(data["skills"][5]["defaults"][1]["name"], dict)
    result = import_gcs(data)
    assert result.disagreements == []
    changed = copy.deepcopy(data)
    changed["skills"][5]["defaults"][1]["name"] = {"compare": "sounds_like", "qualifier": "x"}
    with pytest.raises(InputError) as caught:
        import_gcs(changed)
    assert caught.value.where == "skills[5].defaults[1].name"


def test_enhanced_parry_names_its_skill_through_the_traits_replacements() -> None:
    result = import_gcs(load(HOLY_WARRIOR))
    assert result.disagreements == []
    assert _weapon(result, "Swung").parry == "13U"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("path", "zero"), [(SLIME, "will"), (SKULL, "fp"), (SPECTER, "hp")])
def test_attributes_of_zero_import(path: str, zero: str) -> None:
    sheet = import_gcs(load(path)).sheet
    assert sheet[zero] == 0
    char = new_character(sheet)
    assert getattr(char, zero) == 0


def test_hp_0_takes_no_injury_and_fp_0_no_fatigue() -> None:
    t = Table(specter={"hp": 0, "st": 0}, skull={"fp": 0})
    out = t.act("damage", "specter", amount=12)
    assert t.char("specter").current_hp == 0
    assert any("insubstantial" in step.text for step in out.explanation)
    assert not t.has("specter", "unconscious")
    t.act("lose_fp", "skull", amount=5)
    assert t.char("skull").current_fp == 0
    assert t.char("skull").current_hp == 10
    assert not t.has("skull", "verge of collapse")


def test_a_weapon_without_damage_is_on_the_sheet_and_its_hit_is_left_to_the_gm() -> None:
    result = import_gcs(load("Dungeon Fantasy RPG/Monsters/Bear.gcs"))
    grapple = next(w for w in result.sheet["weapons"] if w["name"] == "Grapple")
    assert grapple["damage"] == "" and grapple["effect"].endswith("ctrl")
    t = Table(bear=result.sheet, hunter={})
    out = t.act("attack", "bear", rolls=[3, 3, 4], target="hunter", weapon="Grapple", defense="none")
    assert out.result["hit"] is True
    assert out.result["effect"] == grapple["effect"]
    assert t.char("hunter").current_hp == t.char("hunter").hp  # no damage roll, no injury
    assert any("the GM does" in step.text for step in out.explanation)
