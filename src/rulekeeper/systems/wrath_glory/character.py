"""The Wrath & Glory character: what the sheet stores, and the values derived from it."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rulekeeper.systems.wrath_glory import formulas
from rulekeeper.systems.wrath_glory.memorable_injuries import MemorableInjury
from rulekeeper.systems.wrath_glory.traumatic_injuries import TraumaticInjury

__all__ = ["Death", "RestInProgress", "RestKind", "WrathGloryCharacter"]


class RestKind(enum.Enum):
    REGROUP = "regroup"
    RESPITE = "respite"


class Death(enum.Enum):
    """Why a character died."""

    ANNIHILATED = "annihilated"
    TRAUMA = "traumatic injuries"


@dataclass(frozen=True)
class RestInProgress:
    """A Regroup or Respite under way: when it began and ends, light activity so far, who treats the resting one."""

    kind: RestKind
    started: int
    ends: int
    timer: int
    light_seconds: int = 0
    healer: str | None = None
    dying_during: bool = False


@dataclass(frozen=True)
class WrathGloryCharacter:
    """A character sheet. ``resilience_override`` replaces the derived Resilience when set."""

    tier: int = 1
    rank: int = 1
    toughness: int = 1
    willpower: int = 1
    intellect: int = 1
    medicae: int = 0
    armour: int = 0
    resilience_override: int | None = None
    wounds: int = 0
    shock: int = 0
    wrath: int = 2
    memorable_injuries: tuple[MemorableInjury, ...] = ()
    traumatic_injuries: tuple[TraumaticInjury, ...] = ()
    death: Death | None = None
    rest: RestInProgress | None = None
    name: str = ""
    # Wounds recovered while Dying end Dying even if Wounds still exceed Max Wounds (seed 003, Dying).
    dying_ended: bool = False
    #: Agility, when the sheet gives it: Initiative, and through it Defence (W&G Core, derived attributes).
    agility: int | None = None

    @property
    def resilience(self) -> int:
        if self.resilience_override is not None:
            return self.resilience_override
        return formulas.resilience(self.toughness, self.armour)

    @property
    def defence(self) -> int | None:
        return None if self.agility is None else formulas.defence(self.agility)

    @property
    def max_wounds(self) -> int:
        return formulas.max_wounds(self.tier, self.toughness)

    @property
    def max_shock(self) -> int:
        return formulas.max_shock(self.willpower, self.tier)

    @property
    def medicae_pool(self) -> int:
        return formulas.medicae_pool(self.intellect, self.medicae)

    @property
    def dead(self) -> bool:
        return self.death is not None

    @property
    def dying(self) -> bool:
        return not self.dead and not self.dying_ended and formulas.is_dying(self.wounds, self.max_wounds)

    @property
    def wounded(self) -> bool:
        return not self.dead and self.wounds > 0

    @property
    def exhausted(self) -> bool:
        return not self.dead and formulas.is_exhausted(self.shock, self.max_shock)

    def traumatic_count(self, *, count_replaced: bool = True) -> int:
        return sum(1 for i in self.traumatic_injuries if count_replaced or not i.replaced)
