"""What each Wrath & Glory roll left for the table is for (seed 003, "Determination", "Tests",
"Regroup"), in our own words. For Determination the number that matters is not the chance to
"pass" but how many Wounds its Icons will turn into Shock, so that distribution is given."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulekeeper.core.dice_pool import pool_distribution
from rulekeeper.core.stakes import Stakes, distribution_rows
from rulekeeper.core.state import AnyCheck
from rulekeeper.systems.wrath_glory.damage import DETERMINATION_PURPOSE
from rulekeeper.systems.wrath_glory.pool_tests import TEST_PURPOSE
from rulekeeper.systems.wrath_glory.rest import MEDICAE_PURPOSE

__all__ = ["wg_stakes"]


def wg_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a roll; a pool also names its Wrath and pool dice and, unless the purpose
    says what matters more, shows the odds of each number of Icons against its DN."""
    stakes = _purpose_stakes(purpose, check, actor, data)
    if check.type != "wg-pool":
        return stakes
    stakes = stakes or Stakes(purpose=purpose)
    if not stakes.dice:
        names = ("Wrath die",) * check.wrath_count + ("pool die",) * (check.dice_count - check.wrath_count)
        stakes = replace(stakes, dice=names)
    if not stakes.distribution:
        rows = distribution_rows(pool_distribution(check.dice_count))
        stakes = replace(stakes, outcome=stakes.outcome or f"Icons (DN {check.target})", distribution=rows)
    return stakes


def _purpose_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    who = actor or "the character"
    if purpose == DETERMINATION_PURPOSE and check.type == "wg-pool":
        wounds = int(data.get("wounds", 0))
        converted: dict[int, Fraction] = {}
        for icons, p in pool_distribution(check.dice_count).items():
            key = min(icons, wounds)
            converted[key] = converted.get(key, Fraction(0)) + p
        return Stakes(
            purpose=f"{who}'s Determination against {wounds} Wound(s)",
            on_success="every Wound becomes Shock",
            on_failure="each Icon turns one Wound into Shock; the rest are suffered",
            outcome="Wounds turned into Shock",
            distribution=distribution_rows(converted),
            headline="distribution",  # how many Wounds it saves matters, not whether it "passes"
        )
    if purpose == TEST_PURPOSE:
        dying = " while Dying (a Complication maims)" if data.get("dying") else ""
        return Stakes(
            purpose=f"{who}'s test{dying}",
            on_success="the test passes; Exalted Icons beyond the DN may be shifted",
            on_failure="the test fails",
        )
    if purpose == MEDICAE_PURPOSE:
        return Stakes(purpose=f"the Medicae roll for {who} during a Regroup")
    return None
