"""The VI·VIII·X character: known stats, the unknown stats behind them, exclusive skills, and what rules track.

Three layers of stats (rules brief, "Context"): each known stat (KS: BU, CO, IN, EM) has the
unknown stats (US) the sheet declares under it, and each exclusive skill (ES) rests on one US.
Every stat keeps its original value beside the current one (seed 001, VIII.1). US values are
the GM's secret; :mod:`.visibility` is the only way a player sees a character.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = [
    "KS_NAMES",
    "KS_TITLES",
    "Ailment",
    "AilmentKind",
    "Burden",
    "Character",
    "Effort",
    "Fatality",
    "Regimen",
    "Score",
    "Skill",
    "UnknownStat",
]

KS_NAMES: tuple[str, ...] = ("BU", "CO", "IN", "EM")
KS_TITLES: Mapping[str, str] = {"BU": "Build", "CO": "Control", "IN": "Intellect", "EM": "Empathy"}


class Burden(enum.Enum):
    """Burden ranks, from normal clothes to more than a full burden (seed 001, VIII.4 Burdened/Overloaded)."""

    NONE = "none"
    LIGHT = "light"
    MEDIUM = "medium"
    HEAVY = "heavy"
    FULL = "full"
    OVERLOADED = "overloaded"


class Regimen(enum.Enum):
    """How an injured character spends the day, which decides natural recovery (VIII.2)."""

    TOTAL = "total"  # total rest: 1d3 a day
    BASIC = "basic"  # basic actions only: recovery suspended
    ACTIVE = "active"  # acting as if unhurt: 1 more damage a day


class AilmentKind(enum.Enum):
    DISEASE = "disease"
    POISON = "poison"


@dataclass(frozen=True)
class Score:
    """A known stat: the original value and the current, possibly lowered, one."""

    original: int
    current: int


@dataclass(frozen=True)
class UnknownStat:
    """A US, tied to one KS; only the GM knows its values."""

    ks: str
    original: int
    current: int


@dataclass(frozen=True)
class Skill:
    """An exclusive skill: its level and the US it rests on. ``language`` marks a literacy skill's tongue."""

    us: str
    level: int
    language: str | None = None


@dataclass(frozen=True)
class Ailment:
    """A disease or poison: the stats it lowered, whether a cure was found, whether it is gone."""

    name: str
    kind: AilmentKind
    stats: tuple[str, ...]
    cure_found: bool = False
    eradicated: bool = False
    # The known stats it has actually lowered: what its victim can feel of it.
    felt: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fatality:
    """A KS at 0 or below: its state, the fatality countdown and whether the state became permanent.

    ``begins`` is the start of the turn after the one in which the pair reached zero and
    ``permanent_at`` the end of the countdown, both in game seconds (VIII.1).
    """

    ks: str
    us: str | None
    state: str
    turns: int
    begins: int
    permanent_at: int
    permanent: bool = False


@dataclass(frozen=True)
class Effort:
    """A prolonged action under way: the next Stamina ARCT's threshold, its rise, and the turns left (if known)."""

    threshold: int
    step: int
    turns_left: int | None = None


@dataclass(frozen=True)
class Character:
    name: str
    ks: Mapping[str, Score]
    us: Mapping[str, UnknownStat] = field(default_factory=dict)
    es: Mapping[str, Skill] = field(default_factory=dict)
    som: int = 5
    burden: Burden = Burden.NONE
    agility: int | None = None
    age: int | None = None
    magic_weeks: int = 0
    mov: int | None = None
    actions: int = 1
    regimen: Regimen = Regimen.BASIC
    fatigue: int = 0
    effort: Effort | None = None
    days_without_food: int | None = None
    days_without_water: int | None = None
    ailments: tuple[Ailment, ...] = ()
    fatalities: Mapping[str, Fatality] = field(default_factory=dict)
    # Game time until which a healing potion works; its 2d3 replaces natural recovery till then (VIII.2).
    potion_until: int | None = None

    # -- reading the layers ------------------------------------------------------------------
    def us_of(self, ks: str) -> tuple[str, ...]:
        """The unknown stats declared under ``ks``, in sheet order."""
        return tuple(name for name, stat in self.us.items() if stat.ks == ks)

    def current(self, stat: str) -> int:
        return self.ks[stat].current if stat in self.ks else self.us[stat].current

    def original(self, stat: str) -> int:
        return self.ks[stat].original if stat in self.ks else self.us[stat].original

    def pair_value(self, ks: str, us: str | None) -> int:
        """KS + US as they stand now: the stats an ARC adds."""
        return self.ks[ks].current + (self.us[us].current if us else 0)

    def lowered(self) -> tuple[str, ...]:
        """Every stat below its original value, KS first."""
        names = [n for n, s in self.ks.items() if s.current < s.original]
        names += [n for n, s in self.us.items() if s.current < s.original]
        return tuple(names)

    @property
    def is_injured(self) -> bool:
        return bool(self.lowered())

    @property
    def known_stats_lowered(self) -> bool:
        return any(s.current < s.original for s in self.ks.values())

    @property
    def permanently_dead(self) -> bool:
        return any(f.permanent and f.state == "death" for f in self.fatalities.values())

    def ailment(self, name: str) -> Ailment | None:
        for a in self.ailments:
            if a.name == name:
                return a
        return None
