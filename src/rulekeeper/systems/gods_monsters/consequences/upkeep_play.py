"""The ``upkeep`` action: what living and upkeep cost over some days (see :mod:`.upkeep`).

Characters carry no purse in this engine, so the action only works the cost out and explains it;
the table deducts it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.params import Params
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section
from rulekeeper.systems.gods_monsters.consequences.sections import UPKEEP, c_rule
from rulekeeper.systems.gods_monsters.consequences.upkeep import LIFESTYLES, upkeep

__all__ = ["UPKEEP_ACTIONS", "UPKEEP_PARAMS", "UPKEEP_SECTION", "silver", "upkeep_values"]


def silver(value: Fraction) -> int | float:
    """Silver coins for results: whole when whole, else to the hundredth."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


def upkeep_values(params: Params) -> dict[str, int | float]:
    cost = upkeep(
        days=params.int("days"),
        lifestyle=params.str("lifestyle"),
        weapons_cost=params.int("weapons_cost"),
        armor_cost=params.int("armor_cost"),
        riding_animals_cost=params.int("riding_animals_cost"),
        other_animals_cost=params.int("other_animals_cost"),
    )
    return {
        "days": cost.days,
        "living": silver(cost.living),
        "weapons": silver(cost.weapons),
        "armor": silver(cost.armor),
        "riding_animals": silver(cost.riding_animals),
        "other_animals": silver(cost.other_animals),
        "total": silver(cost.total),
    }


def _upkeep(play: Play[Any], action: Call) -> None:
    values = upkeep_values(action.params)
    play.explain(
        f"{values['days']} days of {action.params.str('lifestyle')} living: {values['living']} silver; weapons "
        f"{values['weapons']}, armor {values['armor']}, riding animals {values['riding_animals']}, other animals "
        f"{values['other_animals']}: {values['total']} silver in all",
        c_rule(UPKEEP, reading="a month is 30 days, a year 360"),
        actor=action.actor,
    )
    play.result["upkeep"] = values


UPKEEP_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec("days", "int", "days covered", default=30, minimum=0, maximum=100_000),
    ParamSpec(
        "lifestyle",
        "choice",
        "poor (1 silver a week), basic (1 a day), extravagant (10 a day), lavish (100 a day)",
        default="basic",
        choices=tuple(LIFESTYLES),
    ),
    ParamSpec("weapons_cost", "int", "price of the weapons kept up (10% a year)", default=0, minimum=0, maximum=10**9),
    ParamSpec("armor_cost", "int", "price of the armor kept up (5% a month)", default=0, minimum=0, maximum=10**9),
    ParamSpec(
        "riding_animals_cost", "int", "price of riding animals (10% a month)", default=0, minimum=0, maximum=10**9
    ),
    ParamSpec("other_animals_cost", "int", "price of other animals (5% a month)", default=0, minimum=0, maximum=10**9),
)

UPKEEP_ACTIONS: dict[str, ActionSpec] = {
    "upkeep": ActionSpec(
        "upkeep",
        "Work out living expenses and upkeep over some days (seed 002, Upkeep and living expenses)",
        _upkeep,
        params=UPKEEP_PARAMS,
        actor="optional",
        kind="note",
    ),
}


#: Upkeep and living expenses (seed 002).
UPKEEP_SECTION = Section("upkeep", actions=UPKEEP_ACTIONS)
