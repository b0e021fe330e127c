"""The rule references every Wrath & Glory consequence carries.

Sections are the headings of seed 003 (``003_0904c72d841f8d1d.txt``). Book pages appear only
where the seed itself gives one (Crawl p.180, Blinded p.199). Readings name the choice made in
``shared/rules/wrath-and-glory.md`` (or in this package's docs) where the seed is ambiguous.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule

__all__ = [
    "ACTIONS_WHILST_DYING",
    "ANNIHILATION",
    "BLINDED",
    "CRAWL_ONLY",
    "DAMAGE",
    "DERIVED",
    "DETERMINATION",
    "DYING",
    "DYING_RECOVERY",
    "DYING_RECOVERY_CAP",
    "DYING_TESTS",
    "DYING_TRAUMA",
    "MEMORABLE_INJURY",
    "MORTAL_WOUNDS",
    "MULTIPLE_TARGETS",
    "POOL_TESTS",
    "REGROUP",
    "RESPITE",
    "SEED",
    "SHOCK",
    "SYSTEM",
    "TRAUMATIC_INJURY",
    "TRAUMA_DEATH",
    "WOUNDED",
    "WOUNDS",
    "WRATH",
    "rule",
]

SYSTEM = "wrath-and-glory"
SEED = "003"


def rule(section: str, *, page: str | None = None, reading: str | None = None) -> Rule:
    """A citation of seed 003 under ``section``."""
    return Rule(system=SYSTEM, section=section, seed=SEED, page=page, reading=reading)


DERIVED = rule(
    "Wounds",
    reading="Max Wounds = Tier x2 + Toughness (seed); Resilience = Toughness + 1 + armour and "
    "Max Shock = Willpower + Tier (rules brief, Context: derived stats)",
)
DAMAGE = rule("Damage", reading="Resilience = Toughness + 1 + armour rating unless the sheet overrides it")
MULTIPLE_TARGETS = rule("Damage Against Multiple Targets")
DETERMINATION = rule(
    "Determination",
    reading="Exalted Icons count 2; never more Wounds converted than the attack inflicted; "
    "not a Test, so no Wrath die and no DN penalties",
)
WOUNDS = rule("Wounds")
ANNIHILATION = rule("Wounds", reading="Wounds > 2 x Max Wounds from one attack; order set by option annihilation_order")
MORTAL_WOUNDS = rule("Mortal Wounds")
WOUNDED = rule("Wounded")
DYING = rule("Dying")
DYING_RECOVERY = rule("Dying", reading="recovering any Wounds ends Dying; only the Wounds healed are removed")
DYING_RECOVERY_CAP = rule(
    "Dying",
    reading="option dying_recovery: cap: recovering Wounds while Dying also drops those above Max Wounds",
)
DYING_TRAUMA = rule("Dying", reading="one Traumatic Injury per attack, in place of its Wounds")
DYING_TESTS = rule(
    "Dying",
    reading="Wrath dice = Traumatic Injuries (at least 1, at most the pool); one Traumatic Injury per test "
    "with any Complication (option dying_complication_injuries)",
)
TRAUMA_DEATH = rule("Dying", reading="more Traumatic Injuries than Tier + 1 (option replaced_injuries_count)")
ACTIONS_WHILST_DYING = rule("Actions Whilst Dying")
MEMORABLE_INJURY = rule("Memorable Injury")
TRAUMATIC_INJURY = rule("Traumatic Injury")
CRAWL_ONLY = rule(
    "Traumatic Injury",
    page="W&G Core p.180",
    reading="a side's legs count as lost when its foot or its leg is lost",
)
BLINDED = rule("Traumatic Injury", page="W&G Core p.199")
SHOCK = rule("Shock")
WRATH = Rule(system=SYSTEM, section="Context: Wrath (rules brief)", reading="a per-character point pool, never below 0")
REGROUP = rule("Resting: Regroup")
RESPITE = rule("Resting: Respite")
POOL_TESTS = Rule(
    system=SYSTEM,
    section="Context: dice pool tests (rules brief)",
    reading="4-5 an Icon, 6 an Exalted Icon worth 2; pass when Icons >= DN; 1 on a Wrath die a Complication",
)
