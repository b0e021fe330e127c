"""The pure rule functions of seed 003, against the brief's vectors and their boundaries."""

from __future__ import annotations

import pytest

from rulekeeper.systems.wrath_glory import formulas
from rulekeeper.systems.wrath_glory.memorable_injuries import (
    MEMORABLE_INJURIES,
    MemorableInjury,
    MemorableStep,
    memorable_row,
    roll_memorable,
)
from rulekeeper.systems.wrath_glory.traumatic_injuries import (
    TRAUMATIC_INJURIES,
    BodyPart,
    Side,
    TraumaticInjury,
    blinded,
    cannot_hold_weapons,
    crawl_only,
    parse_injury_label,
    side_for_roll,
    traumatic_row,
)


def test_derived_stats_vectors() -> None:
    assert formulas.max_wounds(tier=1, toughness=3) == 5
    assert formulas.resilience(toughness=3, armour=2) == 6
    assert formulas.max_shock(willpower=3, tier=1) == 4
    assert formulas.medicae_pool(intellect=3, medicae=2) == 5


@pytest.mark.parametrize(("damage", "wounds", "shock"), [(8, 2, 0), (6, 0, 1), (5, 0, 0), (0, 0, 0), (7, 1, 0)])
def test_damage_against_resilience_6(damage: int, wounds: int, shock: int) -> None:
    hit = formulas.damage_against_resilience(damage, 6)
    assert (hit.wounds, hit.shock) == (wounds, shock)


def test_determination_never_converts_more_than_suffered() -> None:
    assert formulas.wounds_converted(icons=3, wounds=2) == 2
    assert formulas.wounds_converted(icons=1, wounds=2) == 1
    assert formulas.wounds_converted(icons=0, wounds=2) == 0


def test_thresholds_are_strictly_greater() -> None:
    assert not formulas.is_dying(5, 5) and formulas.is_dying(6, 5)
    assert not formulas.is_annihilated(10, 5) and formulas.is_annihilated(11, 5)
    assert not formulas.is_exhausted(4, 4) and formulas.is_exhausted(5, 4)
    assert not formulas.dies_of_trauma(2, tier=1) and formulas.dies_of_trauma(3, tier=1)


@pytest.mark.parametrize(
    ("trauma", "pool", "wrath"), [(0, 5, 1), (1, 5, 1), (2, 5, 2), (4, 3, 3), (6, 1, 1), (3, 0, 0)]
)
def test_dying_wrath_dice(trauma: int, pool: int, wrath: int) -> None:
    assert formulas.dying_wrath_dice(trauma, pool) == wrath


def test_recovery_removes_what_was_healed_or_with_cap_ends_at_max_wounds() -> None:
    assert formulas.wounds_after_recovery(wounds=10, recovered=1, max_wounds_value=5) == 9
    assert formulas.wounds_after_recovery(wounds=8, recovered=1, max_wounds_value=5, cap=True) == 5
    assert formulas.wounds_after_recovery(wounds=8, recovered=6, max_wounds_value=5, cap=True) == 2
    assert formulas.wounds_after_recovery(wounds=3, recovered=1, max_wounds_value=5) == 2
    assert formulas.wounds_after_recovery(wounds=3, recovered=9, max_wounds_value=5) == 0
    assert formulas.wounds_after_recovery(wounds=8, recovered=0, max_wounds_value=5, cap=True) == 8


def test_shock_restored_is_rank_plus_tier() -> None:
    assert formulas.shock_restored(rank=2, tier=3) == 5


def test_memorable_table_covers_every_face_once() -> None:
    faces = [face for row in MEMORABLE_INJURIES for face in range(row.low, row.high + 1)]
    assert sorted(faces) == [1, 2, 3, 4, 5, 6]
    assert [memorable_row(face).name for face in range(1, 7)] == [
        "Battle Scar",
        "Battle Scar",
        "Focused Burn",
        "Broken Jaw",
        "Twitch",
        "Torn Ear",
    ]
    assert {row.escalation for row in MEMORABLE_INJURIES} == {
        "Missing Fingers",
        "Severe Burn",
        "Cut Tongue",
        "Bad Knee",
        "Nagging Wound",
    }
    assert all(row.rule.seed == "003" and row.rule.section == "Memorable Injury" for row in MEMORABLE_INJURIES)


def test_memorable_new_escalate_ignore() -> None:
    injuries, row, step = roll_memorable((), 2)
    assert step is MemorableStep.NEW and injuries == (MemorableInjury("battle_scar"),) and row.low == 1
    injuries, _, step = roll_memorable(injuries, 1)
    assert step is MemorableStep.ESCALATED and injuries[0].name == "Missing Fingers"
    again, _, step = roll_memorable(injuries, 2)
    assert step is MemorableStep.IGNORED and again == injuries


def test_traumatic_table_rows_and_sides() -> None:
    assert [traumatic_row(face).part for face in range(1, 7)] == list(BodyPart)
    assert [traumatic_row(face).sided for face in range(1, 7)] == [True, True, True, True, False, True]
    assert [side_for_roll(face) for face in range(1, 7)] == [Side.LEFT] * 3 + [Side.RIGHT] * 3
    assert all(row.rule.seed == "003" for row in TRAUMATIC_INJURIES)
    assert traumatic_row(3).rule.page == "W&G Core p.180"
    assert traumatic_row(6).rule.page == "W&G Core p.199"


def test_lasting_effects_and_replacement() -> None:
    left_hand = TraumaticInjury(BodyPart.HAND, Side.LEFT)
    right_arm = TraumaticInjury(BodyPart.ARM, Side.RIGHT)
    assert not cannot_hold_weapons([left_hand])
    assert cannot_hold_weapons([left_hand, right_arm])
    assert not cannot_hold_weapons([left_hand, TraumaticInjury(BodyPart.ARM, Side.RIGHT, replaced=True)])
    assert not cannot_hold_weapons([left_hand, TraumaticInjury(BodyPart.HAND, Side.LEFT)])
    assert crawl_only([TraumaticInjury(BodyPart.LEG, Side.LEFT), TraumaticInjury(BodyPart.FOOT, Side.RIGHT)])
    assert blinded([TraumaticInjury(BodyPart.EYE, Side.LEFT), TraumaticInjury(BodyPart.EYE, Side.RIGHT)])
    assert not blinded([TraumaticInjury(BodyPart.EYE, Side.LEFT), TraumaticInjury(BodyPart.EYE, Side.LEFT)])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("left hand", TraumaticInjury(BodyPart.HAND, Side.LEFT)),
        ("Torso", TraumaticInjury(BodyPart.TORSO)),
        ("right eye (replaced)", TraumaticInjury(BodyPart.EYE, Side.RIGHT, replaced=True)),
        ("left torso", None),
        ("hand", None),
        ("middle leg", None),
    ],
)
def test_parse_injury_label(text: str, expected: TraumaticInjury | None) -> None:
    assert parse_injury_label(text) == expected
