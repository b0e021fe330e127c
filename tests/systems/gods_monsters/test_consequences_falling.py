"""Seed 002 "Falling": the height table, injuries per die, evasion, time aloft, the fall action."""

from __future__ import annotations

import itertools

import pytest

from rulekeeper.core import resolve_check
from rulekeeper.dice.source import ScriptedSource
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.falling import (
    FALL_TABLE,
    MAX_FALL_DICE,
    EvasionEffect,
    fall_band,
    fall_damage,
    fall_seconds,
)

from .helpers import RULESET, Table


@pytest.mark.parametrize(
    ("feet", "dice", "evasion"),
    [
        (0, 1, EvasionEffect.NEGATES),
        (5, 1, EvasionEffect.NEGATES),
        (9, 1, EvasionEffect.NEGATES),
        (10, 2, EvasionEffect.HALVES),
        (15, 2, EvasionEffect.HALVES),
        (19, 2, EvasionEffect.HALVES),
        (20, 3, EvasionEffect.NONE),
        (30, 3, EvasionEffect.NONE),
        (39, 3, EvasionEffect.NONE),
        (40, 4, EvasionEffect.NONE),
        (79, 4, EvasionEffect.NONE),
        (80, 5, EvasionEffect.NONE),
        (159, 5, EvasionEffect.NONE),
        (160, 6, EvasionEffect.NONE),
        (319, 6, EvasionEffect.NONE),
        (320, 7, EvasionEffect.NONE),
        (450, 7, EvasionEffect.NONE),
        (100_000, 7, EvasionEffect.NONE),
    ],
)
def test_height_table(feet: int, dice: int, evasion: EvasionEffect) -> None:
    band = fall_band(feet)
    assert (band.dice, band.evasion) == (dice, evasion)


def test_table_rows_are_contiguous_and_capped() -> None:
    for lower, upper in itertools.pairwise(FALL_TABLE):
        assert lower.high is not None
        assert upper.low == lower.high + 1
        assert upper.dice == lower.dice + 1
    assert FALL_TABLE[-1].dice == MAX_FALL_DICE == 7
    assert FALL_TABLE[-1].high is None


@pytest.mark.parametrize(
    ("feet", "seconds"),
    [
        (5, 1),
        (15, 2),
        (30, 3),
        (79, 4),
        (159, 5),
        (319, 6),
        (320, 7),
        (450, 7),
        (451, 7),
        (599, 7),
        (600, 8),
        (749, 8),
        (750, 9),
        (1500, 14),
    ],
)
def test_time_aloft(feet: int, seconds: int) -> None:
    assert fall_seconds(feet) == seconds


def test_vector_falls() -> None:
    # 5 ft: d6, 1 injury, evasion negates.
    assert fall_damage(5, (4,)).damage == 4
    assert fall_damage(5, (4,)).injuries == 1
    negated = fall_damage(5, (4,), evaded=True)
    assert (negated.damage, negated.injuries, negated.evaded) == (0, 0, True)
    # 15 ft: 2d6, 2 injuries, evasion halves (rounded down) and then no injuries.
    assert (fall_damage(15, (5, 4)).damage, fall_damage(15, (5, 4)).injuries) == (9, 2)
    halved = fall_damage(15, (5, 4), evaded=True)
    assert (halved.damage, halved.injuries, halved.rolled) == (4, 0, 9)
    # 30 ft: 3d6, 3 injuries, evasion does nothing.
    full = fall_damage(30, (6, 5, 1), evaded=True)
    assert (full.damage, full.injuries, full.evaded) == (12, 3, False)


def test_injuries_are_part_of_the_damage() -> None:
    outcome = fall_damage(1000, (1, 1, 1, 1, 1, 1, 1))
    assert outcome.damage == 7
    assert outcome.injuries == 7


@pytest.mark.parametrize("feet", [-1, True, 2.5])
def test_bad_heights(feet: object) -> None:
    with pytest.raises(InputError):
        fall_band(feet)  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [(), (1, 2), (7,), (0,)])
def test_bad_dice(dice: tuple[int, ...]) -> None:
    with pytest.raises(InputError, match="needs 1 d6"):
        fall_damage(5, dice)


# -- the action ----------------------------------------------------------------------------------
def _table(**extra: int) -> Table:
    return Table(
        {
            "ada": {
                "survival": 20,
                "max_survival": 20,
                "verve": 10,
                "max_verve": 10,
                "evasion": 12,
                "fortitude": 18,
                "archetype": "thief",
                **extra,
            }
        }
    )


def test_archetypal_fall_comes_off_verve_except_the_injuries() -> None:
    table = _table()
    table.act("fall", "ada", dice=[6, 6, 6, 1], feet=30, archetypal=True)
    character = table.char("ada")
    assert character.injuries == 3
    assert character.verve == 0
    assert character.survival == 20 - (18 - 3 - 10)


def test_unconscious_faller_gets_no_evasion_roll() -> None:
    table = _table()
    table.act("fall_unconscious", "ada", minutes=5)
    outcome = table.act("fall", "ada", dice=[3], feet=5)
    assert table.char("ada").injuries == 1
    assert "gm.fall" not in {c.kind for c in outcome.checks}


def test_evasion_can_be_refused_by_the_table() -> None:
    table = _table()
    table.act("fall", "ada", dice=[2, 5, 18], feet=12, evasion=False)
    assert table.char("ada").injuries == 2


def test_prompted_evasion_waits_then_applies() -> None:
    table = Table({"ada": {"survival": 20, "evasion": 12, "fortitude": 18}}, automation={"gm.fall": "prompt"})
    outcome = table.act("fall", "ada", feet=15)
    assert len(outcome.pending) == 1
    assert table.char("ada").survival == 20
    resolved = resolve_check(RULESET, table.state, outcome.pending[0].id, ScriptedSource([6, 5]), [3])
    assert resolved.result["fall"]["damage"] == 5
    assert resolved.state.characters["ada"].survival == 15
    assert resolved.state.characters["ada"].injuries == 0


def test_negative_height_is_refused_by_the_action() -> None:
    table = _table()
    with pytest.raises(InputError, match="out of range"):
        table.act("fall", "ada", feet=-5)
