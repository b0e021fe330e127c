"""Rules usable without a campaign: pool odds, derived stats, damage against Resilience, Determination odds."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rulekeeper.core.action import Calculation, CalculatorSpec, ParamSpec
from rulekeeper.core.dice_pool import PoolTest, pool_distribution
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.section import Section
from rulekeeper.limits import MAX_POOL, MAX_POOL_DICE
from rulekeeper.systems.wrath_glory import citations, formulas
from rulekeeper.systems.wrath_glory.pool_tests import pool_odds

__all__ = [
    "CALCULATORS",
    "CALCULATORS_SECTION",
    "damage_calculation",
    "derived_calculation",
    "determination_calculation",
    "odds_calculation",
]


def odds_calculation(params: Params) -> Calculation:
    pool, dn = params.int("pool"), params.int("dn")
    steps: list[Step] = []
    trauma = params.opt_int("traumatic_injuries")
    if trauma is not None:
        wrath = formulas.dying_wrath_dice(trauma, pool)
        steps.append(
            Step(
                f"while Dying with {trauma} Traumatic Injuries, {wrath} of the {pool} dice are Wrath dice",
                citations.DYING_TESTS,
            )
        )
    else:
        wrath = params.int("wrath_dice")
    odds = pool_odds(PoolTest(kind="wg.odds", label="pool", pool=pool, dn=dn, wrath_dice=wrath))
    steps.append(
        Step(
            f"{odds.dice} dice against DN {odds.dn}: exactly {odds.success} to succeed "
            f"({float(odds.success):.2%}); {odds.wrath_dice} Wrath {'die' if odds.wrath_dice == 1 else 'dice'}: "
            f"Wrath Critical {odds.wrath_critical}, "
            f"Complication {odds.complication}",
            citations.POOL_TESTS,
        )
    )
    return Calculation(values=odds.to_values(), steps=tuple(steps))


def derived_calculation(params: Params) -> Calculation:
    tier, toughness = params.int("tier"), params.int("toughness")
    willpower, armour = params.int("willpower"), params.int("armour")
    values = {
        "resilience": formulas.resilience(toughness, armour),
        "max_wounds": formulas.max_wounds(tier, toughness),
        "max_shock": formulas.max_shock(willpower, tier),
        "determination": toughness,
        "trauma_death_threshold": formulas.trauma_death_threshold(tier),
        "annihilation_threshold": 2 * formulas.max_wounds(tier, toughness),
    }
    steps = (
        Step(f"Resilience = Toughness {toughness} + 1 + armour {armour} = {values['resilience']}", citations.DAMAGE),
        Step(f"Max Wounds = Tier {tier} x 2 + Toughness {toughness} = {values['max_wounds']}", citations.DERIVED),
        Step(f"Max Shock = Willpower {willpower} + Tier {tier} = {values['max_shock']}", citations.DERIVED),
        Step(f"Determination rolls {toughness} dice (Toughness)", citations.DETERMINATION),
        Step(f"more than {values['trauma_death_threshold']} Traumatic Injuries kill", citations.TRAUMA_DEATH),
        Step(f"more than {values['annihilation_threshold']} Wounds from one attack annihilate", citations.ANNIHILATION),
    )
    return Calculation(values=values, steps=steps)


def damage_calculation(params: Params) -> Calculation:
    damage, resilience = params.int("damage"), params.int("resilience")
    hit = formulas.damage_against_resilience(damage, resilience)
    text = f"damage {damage} against Resilience {resilience}: {hit.wounds} Wound(s), {hit.shock} Shock"
    return Calculation(values={"wounds": hit.wounds, "shock": hit.shock}, steps=(Step(text, citations.DAMAGE),))


def determination_calculation(params: Params) -> Calculation:
    toughness, wounds = params.int("toughness"), params.int("wounds")
    converted: dict[int, Fraction] = {}
    for icons, p in pool_distribution(toughness).items():
        n = formulas.wounds_converted(icons, wounds)
        converted[n] = converted.get(n, Fraction(0)) + p
    mean = sum((n * p for n, p in converted.items()), Fraction(0))
    values = {
        "p_converted": {str(n): str(p) for n, p in sorted(converted.items())},
        "p_all_converted": str(converted.get(wounds, Fraction(0))),
        "mean_converted": str(mean),
    }
    text = (
        f"Determination with {toughness} dice against {wounds} Wound(s): all converted with probability "
        f"{values['p_all_converted']}, {float(mean):.3f} converted on average"
    )
    return Calculation(values=values, steps=(Step(text, citations.DETERMINATION),))


CALCULATORS: Mapping[str, CalculatorSpec] = {
    "odds": CalculatorSpec(
        "odds",
        "exact odds of a dice pool test: any pool, any DN, any number of Wrath dice (several while Dying)",
        odds_calculation,
        params=(
            ParamSpec("pool", "int", "dice in the pool", required=True, minimum=1, maximum=MAX_POOL),
            ParamSpec("dn", "int", "Difficulty Number", default=3, minimum=0, maximum=2 * MAX_POOL_DICE),
            ParamSpec("wrath_dice", "int", "Wrath dice in the pool", default=1, minimum=0, maximum=MAX_POOL),
            ParamSpec(
                "traumatic_injuries",
                "int",
                "Dying: Wrath dice follow this many Traumatic Injuries",
                minimum=0,
                maximum=MAX_POOL,
            ),
        ),
        rule=citations.POOL_TESTS,
    ),
    "derived": CalculatorSpec(
        "derived",
        "Resilience, Max Wounds, Max Shock and the death thresholds from a sheet's numbers",
        derived_calculation,
        params=(
            ParamSpec("tier", "int", "Tier", default=1, minimum=1, maximum=5),
            ParamSpec("toughness", "int", "Toughness", required=True, minimum=1),
            ParamSpec("willpower", "int", "Willpower", default=1, minimum=1),
            ParamSpec("armour", "int", "armour rating", default=0, minimum=0),
        ),
        rule=citations.DERIVED,
    ),
    "damage": CalculatorSpec(
        "damage",
        "what damage does against a Resilience: Wounds, 1 Shock, or nothing",
        damage_calculation,
        params=(
            ParamSpec("damage", "int", "the attack's damage", required=True, minimum=0),
            ParamSpec("resilience", "int", "the target's Resilience", required=True, minimum=0),
        ),
        rule=citations.DAMAGE,
    ),
    "determination": CalculatorSpec(
        "determination",
        "exact odds of how many Wounds Determination turns into Shock",
        determination_calculation,
        params=(
            ParamSpec("toughness", "int", "Toughness (dice rolled)", required=True, minimum=1, maximum=60),
            ParamSpec("wounds", "int", "Wounds suffered", required=True, minimum=1),
        ),
        rule=citations.DETERMINATION,
    ),
}


#: What the table can work out without a campaign.
CALCULATORS_SECTION = Section("calculators", calculators=CALCULATORS)
