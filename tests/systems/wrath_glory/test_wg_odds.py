"""Exact pool odds: the core PoolTest against brute force and icepool, and the campaign-free calculators."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from wg_helpers import RULESET

from rulekeeper.core import validate_params
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.systems.wrath_glory import PoolRequest, build_test, pool_odds
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter
from rulekeeper.systems.wrath_glory.traumatic_injuries import BodyPart, Side, TraumaticInjury

FACE_ICONS = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}


def brute_force(dice: int, dn: int, wrath: int) -> tuple[Fraction, Fraction, Fraction]:
    wins = crits = comps = 0
    for faces in itertools.product(range(1, 7), repeat=dice):
        wins += sum(FACE_ICONS[f] for f in faces) >= dn
        crits += wrath > 0 and all(f == 6 for f in faces[:wrath])
        comps += any(f == 1 for f in faces[:wrath])
    total = 6**dice
    return Fraction(wins, total), Fraction(crits, total), Fraction(comps, total)


@pytest.mark.parametrize("dice", range(1, 6))
@pytest.mark.parametrize("dn", range(0, 8))
def test_pool_odds_match_brute_force(dice: int, dn: int) -> None:
    for wrath in range(0, dice + 1):
        odds = pool_odds(PoolTest(kind="wg.test", label="t", pool=dice, dn=dn, wrath_dice=wrath))
        assert (odds.success, odds.wrath_critical, odds.complication) == brute_force(dice, dn, wrath)


@pytest.mark.parametrize("dice", [1, 3, 6, 10, 15])
def test_pool_odds_match_icepool(dice: int) -> None:
    icon_die = icepool.Die({0: 3, 1: 2, 2: 1})
    pool = dice @ icon_die
    for dn in range(0, 2 * dice + 2):
        expected = Fraction(pool.probability(">=", dn)) if dn > 0 else Fraction(1)
        assert pool_odds(PoolTest(kind="wg.test", label="t", pool=dice, dn=dn)).success == expected


def test_brief_vector_three_dice_dn_three() -> None:
    odds = pool_odds(PoolTest(kind="wg.test", label="t", pool=3, dn=3))
    assert odds.success == Fraction(72, 216) == Fraction(1, 3)


def calculate(name: str, **raw: object) -> dict[str, object]:
    spec = RULESET.calculators()[name]
    return dict(spec.compute(validate_params(spec.params, raw, f"calculator {name}")).values)


def test_odds_calculator() -> None:
    values = calculate("odds", pool=3, dn=3)
    assert values["p_success"] == "1/3" and values["p_wrath_critical"] == "1/6"
    assert values["mean_icons"] == "2"
    six = calculate("odds", pool=6, dn=4, wrath_dice=1)
    assert Fraction(str(six["p_success"])) == brute_force(6, 4, 1)[0]
    dying = calculate("odds", pool=4, dn=3, traumatic_injuries=3)
    assert dying["wrath_dice"] == 3 and dying["p_wrath_critical"] == "1/216"
    assert dying["p_complication"] == str(1 - Fraction(5, 6) ** 3)


def test_other_calculators() -> None:
    assert calculate("derived", tier=1, toughness=3, willpower=3, armour=2) == {
        "resilience": 6,
        "max_wounds": 5,
        "max_shock": 4,
        "determination": 3,
        "trauma_death_threshold": 2,
        "annihilation_threshold": 10,
    }
    assert calculate("damage", damage=8, resilience=6) == {"wounds": 2, "shock": 0}
    assert calculate("damage", damage=6, resilience=6) == {"wounds": 0, "shock": 1}
    det = calculate("determination", toughness=1, wounds=2)
    assert det["p_converted"] == {"0": "1/2", "1": "1/3", "2": "1/6"}
    assert det["p_all_converted"] == "1/6" and det["mean_converted"] == "2/3"


def test_character_tests_apply_seed_modifiers() -> None:
    hurt = WrathGloryCharacter(
        toughness=3,
        willpower=3,
        wounds=6,
        traumatic_injuries=(
            TraumaticInjury(BodyPart.TORSO),
            TraumaticInjury(BodyPart.EYE, Side.LEFT),
            TraumaticInjury(BodyPart.HAND, Side.LEFT),
        ),
    )
    assert hurt.dying
    test = build_test(hurt, PoolRequest(pool=5, dn=2, attribute="toughness", sight=True), torso_dn=2)
    assert test.target == 2 + 1 + 2 + 2  # Wounded, Torso (option 2), one eye
    assert test.wrath_count == 3
    small = build_test(hurt, PoolRequest(pool=2, dn=2))
    assert small.wrath_count == 2  # never more Wrath dice than the pool
    healthy = build_test(WrathGloryCharacter(toughness=3, willpower=3), PoolRequest(pool=4, attribute="toughness"))
    assert (healthy.target, healthy.wrath_count) == (3, 1)
