"""The arithmetic of seed 003 as pure functions, shared by the actions and the calculators.

Nothing here touches game state or dice; each function is one rule (or one reading of it), so
the stateful handlers and the campaign-free calculators cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "WRATH_AFTER_RESPITE",
    "DamageOutcome",
    "damage_against_resilience",
    "defence",
    "dies_of_trauma",
    "dying_wrath_dice",
    "is_annihilated",
    "is_dying",
    "is_exhausted",
    "max_shock",
    "max_wounds",
    "medicae_pool",
    "resilience",
    "shock_restored",
    "trauma_death_threshold",
    "wounds_after_recovery",
    "wounds_converted",
]

WRATH_AFTER_RESPITE = 2


def resilience(toughness: int, armour: int) -> int:
    """Toughness + 1 + armour rating (rules brief, Context: derived stats)."""
    return toughness + 1 + armour


def defence(agility: int) -> int:
    """Initiative - 1, where Initiative is Agility: the DN of an attack on the character (W&G Core,
    derived attributes, as the Foundry VTT system for W&G carries them; seed 003 does not give it,
    so it shows on cards and changes no rule here)."""
    return agility - 1


def max_wounds(tier: int, toughness: int) -> int:
    """Tier x 2 + Toughness (seed 003, Wounds)."""
    return tier * 2 + toughness


def max_shock(willpower: int, tier: int) -> int:
    """Willpower + Tier (rules brief, Context: derived stats)."""
    return willpower + tier


def medicae_pool(intellect: int, medicae: int) -> int:
    """The Medicae (Int) pool: Intellect plus the Medicae rating (W&G skill pools add the two)."""
    return intellect + medicae


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    """What one attack's damage does to one target before Determination."""

    wounds: int
    shock: int


def damage_against_resilience(damage: int, resilience_value: int) -> DamageOutcome:
    """Seed 003, Damage: a Wound per point over Resilience; exactly Resilience is 1 Shock; less is nothing."""
    if damage > resilience_value:
        return DamageOutcome(wounds=damage - resilience_value, shock=0)
    if damage == resilience_value:
        return DamageOutcome(wounds=0, shock=1)
    return DamageOutcome(wounds=0, shock=0)


def wounds_converted(icons: int, wounds: int) -> int:
    """Wounds Determination turns into Shock: one per Icon, never more than were suffered."""
    return max(0, min(icons, wounds))


def is_annihilated(wounds_from_attack: int, max_wounds_value: int) -> bool:
    """One attack inflicting more than twice Max Wounds kills outright (seed 003, Wounds)."""
    return wounds_from_attack > 2 * max_wounds_value


def is_dying(wounds: int, max_wounds_value: int) -> bool:
    """Wounds exceeding (not reaching) Max Wounds (seed 003, Wounds)."""
    return wounds > max_wounds_value


def is_exhausted(shock: int, max_shock_value: int) -> bool:
    """More Shock than Max Shock (seed 003, Shock)."""
    return shock > max_shock_value


def trauma_death_threshold(tier: int) -> int:
    """The most Traumatic Injuries a character survives: Tier + 1 (seed 003, Dying)."""
    return tier + 1


def dies_of_trauma(traumatic_injuries: int, tier: int) -> bool:
    return traumatic_injuries > trauma_death_threshold(tier)


def dying_wrath_dice(traumatic_injuries: int, pool: int) -> int:
    """Wrath dice of a test made while Dying: one per Traumatic Injury, at least one, at most the pool."""
    return max(1, min(traumatic_injuries, pool)) if pool >= 1 else 0


def shock_restored(rank: int, tier: int) -> int:
    """Shock a Combat Action and a point of Wrath restore (seed 003, Shock)."""
    return rank + tier


def wounds_after_recovery(wounds: int, recovered: int, max_wounds_value: int, *, cap: bool = False) -> int:
    """Wounds left after recovering some.

    Any recovery ends Dying (seed 003, Dying). The seed's literal reading heals exactly what was
    healed; with ``cap`` (option ``dying_recovery: cap``) the excess over Max Wounds goes too.
    """
    if recovered <= 0:
        return wounds
    left = max(0, wounds - recovered)
    return min(left, max_wounds_value) if cap else left
