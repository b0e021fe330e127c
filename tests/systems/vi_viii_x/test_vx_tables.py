"""Rule tables and pure rules: falls, jumps, hunger and thirst, literacy, damage split, calculators."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.core import validate_params
from rulekeeper.core.arc import PLACEHOLDER_TABLE
from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import Burden
from rulekeeper.systems.vi_viii_x.checks import face_for_modifier, parse_table
from rulekeeper.systems.vi_viii_x.damage import split_damage
from rulekeeper.systems.vi_viii_x.deprivation import deprivation_damage, deprivation_table
from rulekeeper.systems.vi_viii_x.falling import fall_damage, fall_result, fall_threshold
from rulekeeper.systems.vi_viii_x.injury_actions import potion_portions
from rulekeeper.systems.vi_viii_x.jumping import jump_distances
from rulekeeper.systems.vi_viii_x.literacy import LITERACY, literacy_level

from .helpers import RULESET


@pytest.mark.parametrize(
    ("metres", "damage", "threshold"),
    [(0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 1, 3), (5, 3, 3), (6, 4, 6), (8, 6, 6), (9, 7, 9), (12, 10, 12)],
)
def test_fall_damage_and_band(metres: int, damage: int, threshold: int) -> None:
    assert fall_damage(metres) == damage
    assert fall_threshold(metres) == threshold


def test_seed_roof_fall() -> None:
    r = fall_result(6, 9)
    assert (r.base, r.threshold, r.relief, r.damage) == (4, 6, 3, 1)
    assert fall_result(6, 6).damage == 4  # not strictly above: no relief
    assert fall_result(6, 20).damage == 0  # never below 0
    assert fall_result(6, 9, threshold=3).relief == 6


@pytest.mark.parametrize(
    ("burden", "running", "standing"),
    [(Burden.NONE, 5.0, 2.5), (Burden.LIGHT, 3.0, 1.5), (Burden.MEDIUM, 1.0, 0.5), (Burden.HEAVY, 0.0, 0.0)],
)
def test_jump_by_burden(burden: Burden, running: float, standing: float) -> None:
    d = jump_distances(7, burden)
    assert d is not None and (d.running, d.standing) == (running, standing)


@pytest.mark.parametrize("burden", [Burden.FULL, Burden.OVERLOADED])
def test_no_jump_at_full_burden(burden: Burden) -> None:
    assert jump_distances(7, burden) is None


def test_starvation_and_dehydration_tables() -> None:
    assert [deprivation_damage("food", d) for d in range(1, 9)] == [0, 0, 0, 0, 1, 2, 3, 4]
    assert [deprivation_damage("water", d) for d in range(1, 7)] == [0, 0, 1, 2, 3, 4]
    food = deprivation_table("food", 8, bu=7, us=3)
    assert [(r.us, r.bu) for r in food[4:]] == [(2, 7), (0, 7), (0, 4), (0, 0)]
    water = deprivation_table("water", 6, bu=7, us=3)
    assert [(r.us, r.bu) for r in water[2:]] == [(2, 7), (0, 7), (0, 4), (0, 0)]


def test_damage_comes_off_the_us_first() -> None:
    assert split_damage(3, 6, 4) == (0, 5)
    assert split_damage(0, 5, 6) == (0, -1)
    assert split_damage(3, 6, 2) == (1, 6)


def test_literacy_table() -> None:
    assert set(LITERACY) == set(range(11))
    assert "cannot read" in literacy_level(0).description
    assert "spell" in literacy_level(1).description
    assert "full command" in literacy_level(10).description
    assert not literacy_level(5).described_by_seed and literacy_level(10).described_by_seed


def test_potion_portions_add_up() -> None:
    assert potion_portions(6, 1) == [6]
    assert potion_portions(5, 2) == [2, 3]
    assert potion_portions(2, 3) == [0, 1, 1]
    assert sum(potion_portions(5, 4)) == 5


def test_roll_modifier_table_option() -> None:
    assert parse_table(None) is PLACEHOLDER_TABLE
    assert PLACEHOLDER_TABLE.values == tuple(range(-3, 11))
    custom = parse_table([-1, 0, 1, 2])
    assert custom.sides == 4 and custom.modifier(4) == 2
    assert parse_table("0,1,2").values == (0, 1, 2)
    for bad in ([], "x", [1, "a"], 3, [True]):
        with pytest.raises(InputError):
            parse_table(bad)
    assert face_for_modifier(PLACEHOLDER_TABLE, 2) == 6
    with pytest.raises(InputError):
        face_for_modifier(PLACEHOLDER_TABLE, 11)


def _calc(name: str, **raw: object) -> dict[str, object]:
    spec = RULESET.calculators()[name]
    return dict(spec.compute(validate_params(spec.params, raw, name)).values)


def test_calculators() -> None:
    assert _calc("fall", metres=6)["damage"] == 4
    assert _calc("fall", metres=6, result=9)["damage"] == 1
    assert _calc("fall", metres=2)["damage"] == 0
    assert _calc("jump", agility=7) == {"can_jump": True, "running": 5.0, "standing": 2.5}
    assert _calc("jump", agility=7, burden="full")["can_jump"] is False
    food = _calc("starvation", days=8, bu=7, vig=3)
    assert (food["vig"], food["bu"]) == (0, 0)
    water = _calc("starvation", days=4, bu=7, vig=3, need="water")
    assert (water["vig"], water["bu"]) == (0, 7)
    assert _calc("literacy", level=10)["described_by_seed"] is True
    odds = _calc("arc-odds", stats=7, threshold="easy")
    assert odds["exact"] == "11/14"  # modifiers 0..+10 beat 6 from 7: 11 faces of 14
    assert _calc("arc-odds", stats=7, threshold="easy", fatigue=1)["exact"] == "5/7"
    assert _calc("arc-odds", stats=3, threshold=3, table="0,1")["exact"] == "1/2"
    same = _calc("arc-odds", stats=5, opponent_stats=5)
    assert Fraction(str(same["exact"])) < Fraction(1, 2)  # a tie fails
    with pytest.raises(InputError):
        _calc("arc-odds", stats=5)
