"""Wrath & Glory (seed 003): Wounds and Shock, Determination, Annihilation, Dying, Memorable and
Traumatic Injuries, Regroup and Respite, and exact dice pool odds.

The public names are listed in ``__all__``; everything else is an implementation module.
"""

from rulekeeper.systems.wrath_glory.character import Death, RestInProgress, RestKind, WrathGloryCharacter
from rulekeeper.systems.wrath_glory.memorable_injuries import MEMORABLE_INJURIES, MemorableInjury
from rulekeeper.systems.wrath_glory.pool_tests import PoolOdds, PoolRequest, build_test, pool_odds
from rulekeeper.systems.wrath_glory.ruleset import WrathGloryRuleset
from rulekeeper.systems.wrath_glory.traumatic_injuries import TRAUMATIC_INJURIES, BodyPart, Side, TraumaticInjury

__all__ = [
    "MEMORABLE_INJURIES",
    "TRAUMATIC_INJURIES",
    "BodyPart",
    "Death",
    "MemorableInjury",
    "PoolOdds",
    "PoolRequest",
    "RestInProgress",
    "RestKind",
    "Side",
    "TraumaticInjury",
    "WrathGloryCharacter",
    "WrathGloryRuleset",
    "build_test",
    "pool_odds",
]
