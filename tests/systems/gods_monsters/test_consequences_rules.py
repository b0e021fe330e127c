"""Seed 002 pure rules: aging, chases, group effort, concentration, illusions, item reactions,
searching and tracking, semi-consciousness, suffocation and upkeep."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.aging import aging_injuries_by, aging_starts_at, can_trade
from rulekeeper.systems.gods_monsters.consequences.chases import chase_movement_bonus
from rulekeeper.systems.gods_monsters.consequences.concentration import concentration_limits, hit_can_break
from rulekeeper.systems.gods_monsters.consequences.group_effort import group_effort_bonus
from rulekeeper.systems.gods_monsters.consequences.illusions import disbelief_penalty, phantasmal_regain
from rulekeeper.systems.gods_monsters.consequences.item_reactions import (
    MATERIALS,
    item_reaction_target,
    item_survival,
    material,
    parse_thickness,
    thickness_bonus,
)
from rulekeeper.systems.gods_monsters.consequences.searching import (
    covering_penalty,
    search_minutes,
    tracking_modifier,
)
from rulekeeper.systems.gods_monsters.consequences.semi_conscious import semi_conscious_allows, semi_conscious_limits
from rulekeeper.systems.gods_monsters.consequences.suffocation import (
    suffocation_buffer_rounds,
    suffocation_interval,
    suffocation_modifier,
)
from rulekeeper.systems.gods_monsters.consequences.upkeep import upkeep


def test_aging() -> None:
    assert aging_starts_at(15) == 55
    assert aging_injuries_by(54, 15) == 0
    assert aging_injuries_by(55, 15) == 1
    assert aging_injuries_by(60, 15) == 6
    assert can_trade(4) and not can_trade(3)
    with pytest.raises(InputError):
        aging_injuries_by(-1, 10)


@pytest.mark.parametrize(
    ("mine", "theirs", "bonus"), [(16, 10, 2), (10, 16, 0), (12, 10, 0), (13, 10, 1), (10, 10, 0), (30, 0, 10)]
)
def test_chase_movement_bonus(mine: int, theirs: int, bonus: int) -> None:
    assert chase_movement_bonus(mine, theirs) == bonus


@pytest.mark.parametrize(
    ("size", "bonus"), [(1, 0), (2, 1), (3, 1), (4, 2), (7, 2), (8, 3), (15, 3), (16, 4), (1023, 9), (1024, 10)]
)
def test_group_effort_chart(size: int, bonus: int) -> None:
    assert group_effort_bonus(size) == bonus


def test_bad_groups_and_chases() -> None:
    for bad in (0, -3, True):
        with pytest.raises(InputError):
            group_effort_bonus(bad)
    with pytest.raises(InputError):
        chase_movement_bonus(-1, 10)


def test_concentration() -> None:
    limits = concentration_limits(11)
    assert (limits.max_movement, limits.may_attack, limits.may_start_actions, limits.defense_modifier) == (
        5,
        False,
        False,
        -1,
    )
    assert hit_can_break(2) and not hit_can_break(1)


@pytest.mark.parametrize(("total", "kept", "regained"), [(15, 2, 13), (10, 1, 9), (1, 1, 0), (0, 0, 0), (21, 3, 18)])
def test_phantasmal_regain(total: int, kept: int, regained: int) -> None:
    regain = phantasmal_regain(total)
    assert (regain.kept, regain.regained) == (kept, regained)


def test_disbelief_penalty_is_halved_for_willpower() -> None:
    assert disbelief_penalty(5, "perception") == 5
    assert disbelief_penalty(5, "willpower") == 2
    with pytest.raises(InputError):
        disbelief_penalty(2, "faith")
    with pytest.raises(InputError):
        disbelief_penalty(-1, "willpower")
    with pytest.raises(InputError):
        phantasmal_regain(-1)


@pytest.mark.parametrize(
    ("thickness", "bonus"),
    [
        ("1/8", 0),
        ("1/4", 1),
        ("1/2", 2),
        ("1", 3),
        ("2", 4),
        ("3", 4),
        ("4", 5),
        ("¼", 1),
        ("0.5", 2),
        ("1 1/2", 3),
        ('1"', 3),
    ],
)
def test_glass_thickness_vector(thickness: str, bonus: int) -> None:
    assert thickness_bonus(parse_thickness(thickness), material("glass").bonus_thickness) == bonus


def test_materials_as_data() -> None:
    names = {m.name: m for m in MATERIALS}
    assert set(names) == {"glass", "ice", "metal", "paper", "stone", "wood"}
    assert {n: m.bonus_thickness for n, m in names.items()} == {
        "glass": Fraction(1, 4),
        "ice": Fraction(1, 2),
        "metal": Fraction(1, 4),
        "paper": Fraction(1, 2),
        "stone": Fraction(1),
        "wood": Fraction(1),
    }
    # Only paper prints all three modifiers; every other row is flagged unconfirmed.
    assert not names["paper"].unconfirmed
    assert all(m.unconfirmed for n, m in names.items() if n != "paper")
    assert all(m.printed for m in MATERIALS)


def test_item_reaction_target_and_override() -> None:
    paper = material("Paper")
    assert item_reaction_target(paper, "fire", Fraction(1, 2)) == 4 - 2 + 1
    assert item_reaction_target(paper, "fire", Fraction(1, 2), modifier=-6, bonus=1) == 4 - 6 + 1 + 1
    assert item_reaction_target(paper, "other", Fraction(1, 4)) == 4
    with pytest.raises(InputError):
        item_reaction_target(paper, "lightning", Fraction(1))


def test_item_survival_is_weight_in_pounds() -> None:
    assert item_survival(12) == 12
    assert item_survival(2.9) == 2
    assert item_survival(0.5) == 0
    with pytest.raises(InputError):
        item_survival(-1)


@pytest.mark.parametrize("bad", ["", "0", "-1", "thick", "1/0", True])
def test_bad_thickness(bad: object) -> None:
    with pytest.raises(InputError):
        parse_thickness(bad)  # type: ignore[arg-type]


def test_unknown_material() -> None:
    with pytest.raises(InputError, match="unknown material"):
        material("mithril")


def test_searching_and_tracking() -> None:
    assert search_minutes(100) == 2
    assert search_minutes(101) == 4
    assert search_minutes(250) == 6
    assert search_minutes(0) == 0
    assert tracking_modifier(days=3) == -3
    assert tracking_modifier(days=1, group_size=12) == 2
    assert tracking_modifier(days=0, covered=4) == -4
    assert covering_penalty(4) == 4 and covering_penalty(-2) == 0
    with pytest.raises(InputError):
        search_minutes(-1)
    with pytest.raises(InputError):
        tracking_modifier(days=-1)


def test_semi_consciousness_limits() -> None:
    limits = semi_conscious_limits()
    assert limits.may_start == ("movement",)
    assert not limits.defense_agility_bonus and not limits.attackers_bonus
    assert limits.reply_roll == "willpower" and limits.reply_delay_dice == "1d4"
    assert limits.counts_as_unconscious_for_death_rolls
    assert semi_conscious_allows("move") and not semi_conscious_allows("feat")


def test_suffocation() -> None:
    assert suffocation_buffer_rounds(endurance=12, prepared=True) == 12
    assert suffocation_buffer_rounds(endurance=12, prepared=True, at_rest=True) == 24
    assert suffocation_buffer_rounds(endurance=12, prepared=False, d4=3) == 3
    assert suffocation_buffer_rounds(endurance=5, prepared=False, d4=1, contributor=-2) == 0
    assert suffocation_interval() == 60 and suffocation_interval(at_rest=True) == 120
    assert [suffocation_modifier(n) for n in range(4)] == [0, -1, -2, -3]
    with pytest.raises(InputError):
        suffocation_buffer_rounds(endurance=5, prepared=False)
    with pytest.raises(InputError):
        suffocation_modifier(-1)


def test_upkeep() -> None:
    month = upkeep(days=30, armor_cost=100, riding_animals_cost=50, other_animals_cost=20, weapons_cost=360)
    assert [month.living, month.armor, month.riding_animals, month.other_animals] == [30, 5, 5, 1]
    assert month.weapons == 3
    assert month.total == 44
    assert upkeep(days=7, lifestyle="poor").living == 1
    assert upkeep(days=2, lifestyle="lavish").living == 200
    with pytest.raises(InputError):
        upkeep(days=1, lifestyle="royal")
    with pytest.raises(InputError):
        upkeep(days=-1)
