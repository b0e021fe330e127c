"""What each Wrath & Glory roll left for the table is for (seed 003, "Determination", "Tests",
"Regroup"), in our own words. For Determination the number that matters is not the chance to
"pass" but how many Wounds its Icons will turn into Shock, so that distribution is given."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulekeeper.core.dice_pool import pool_distribution
from rulekeeper.core.section import StakesWords
from rulekeeper.core.stakes import Stakes, distribution_rows
from rulekeeper.core.state import AnyCheck

__all__ = ["DETERMINATION_STAKES", "MEDICAE_STAKES", "POOL_STAKES", "TEST_STAKES", "with_pool_odds"]


#: The words of one purpose's stakes: ``(check, who, data)``, None for a purpose with none.
Words = Callable[[AnyCheck, str, Mapping[str, Any]], Stakes | None]


def with_pool_odds(words: Words | None = None) -> StakesWords:
    """The stakes of a purpose (the sections' ``CheckSpec.stakes``): its own words, and for a
    pool its Wrath and pool dice and, unless the words say what matters more, the odds of each
    number of Icons against its DN."""

    def stakes_of(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        stakes = words(check, actor or "the character", data) if words is not None else None
        if check.type != "wg-pool":
            return stakes
        stakes = stakes or Stakes(purpose=purpose)
        if not stakes.dice:
            names = ("Wrath die",) * check.wrath_count + ("pool die",) * (check.dice_count - check.wrath_count)
            stakes = replace(stakes, dice=names)
        if not stakes.distribution:
            rows = distribution_rows(pool_distribution(check.dice_count))
            stakes = replace(stakes, outcome=stakes.outcome or f"Icons (DN {check.target})", distribution=rows)
        if not stakes.odds_words:
            stakes = replace(stakes, odds_words=f"{actor or 'the character'} reaches DN {check.target}")
        return stakes

    return stakes_of


def _determination(check: AnyCheck, who: str, data: Mapping[str, Any]) -> Stakes | None:
    if check.type != "wg-pool":
        return None
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
        odds_words=f"{who} shrugs off all {wounds} Wound(s)" if wounds != 1 else f"{who} shrugs off the Wound",
        odds_row=wounds,
    )


def _test(check: AnyCheck, who: str, data: Mapping[str, Any]) -> Stakes:
    dying = " while Dying (a Complication maims)" if data.get("dying") else ""
    return Stakes(
        purpose=f"{who}'s test{dying}",
        on_success="the test passes; Exalted Icons beyond the DN may be shifted",
        on_failure="the test fails",
        odds_words=f"{who} passes the test",
    )


def _medicae(check: AnyCheck, who: str, data: Mapping[str, Any]) -> Stakes:
    return Stakes(
        purpose=f"the Medicae roll for {who} during a Regroup", odds_words=f"the Medicae roll for {who} succeeds"
    )


DETERMINATION_STAKES = with_pool_odds(_determination)
TEST_STAKES = with_pool_odds(_test)
MEDICAE_STAKES = with_pool_odds(_medicae)
#: A purpose with no words of its own: a pool still shows its dice and odds.
POOL_STAKES = with_pool_odds()
