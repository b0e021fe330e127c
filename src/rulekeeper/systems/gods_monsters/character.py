"""The Gods & Monsters character: abilities, reactions, survival, verve, injuries, mojo, fields.

Reactions are stored directly: the formulas that derive them from abilities are unconfirmed
(rules brief, "Context"). ``injuries`` counts every injury point, the unhealable ones from aging
(seed 002, "Actions and consequences: Aging") included; ``unhealable_injuries`` says how many of
them rest and healing can never remove.

The character is immutable; rule code replaces it through ``dataclasses.replace`` and
``Play.put``. Conditions (unconscious, dying, ...) live in the game state, not here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rulekeeper.errors import UnknownNameError

__all__ = [
    "ABILITIES",
    "ARCHETYPAL",
    "ARCHETYPES",
    "ELIGIBILITIES",
    "REACTIONS",
    "SCORES",
    "BonusPool",
    "GmCharacter",
]

ABILITIES: tuple[str, ...] = ("strength", "agility", "endurance", "wisdom", "intelligence", "charisma")
REACTIONS: tuple[str, ...] = ("evasion", "fortitude", "perception", "reason", "willpower", "health")
SCORES: tuple[str, ...] = ABILITIES + REACTIONS

# What is archetypal for each archetype: (ability, reaction). Rules brief, "Context";
# seed 000 "Using verve" criteria 1 and 2 refer to these.
ARCHETYPAL: Mapping[str, tuple[str, str]] = {
    "warrior": ("strength", "fortitude"),
    "thief": ("agility", "evasion"),
    "sorceror": ("intelligence", "reason"),
    "prophet": ("wisdom", "willpower"),
    "monk": ("charisma", "perception"),
}
ARCHETYPES: tuple[str, ...] = ("", *ARCHETYPAL)

# Which damage a temporary bonus pool absorbs (seed 000 "Temporary bonus pools" leaves it to
# the spell, specialty or spirit that grants the pool).
ELIGIBILITIES: tuple[str, ...] = ("any", "physical", "mental", "archetypal")


@dataclass(frozen=True)
class BonusPool:
    """A temporary pool of survival points (seed 000, "Temporary bonus pools").

    ``expires_at`` is the game second the granting effect ends (``None``: until removed);
    ``eligible`` is one of :data:`ELIGIBILITIES`.
    """

    name: str
    points: int
    expires_at: int | None = None
    eligible: str = "any"

    def absorbs(self, *, archetypal: bool, physical: bool) -> bool:
        """Whether damage of this kind comes off this pool."""
        if self.eligible == "physical":
            return physical
        if self.eligible == "mental":
            return not physical
        if self.eligible == "archetypal":
            return archetypal
        return True


@dataclass(frozen=True)
class GmCharacter:
    """One Gods & Monsters character (player character or NPC).

    ``survival_dice`` holds an NPC's survival dice (``"3d10"``) until they are rolled, which
    happens on the ``roll_npc_survival`` action or the first time the NPC takes damage;
    ``survival_bonus`` is an NPC's per-die survival bonus (the ``+2`` in level ``3+2``).
    ``used_encounters`` lists the encounters that have already restored verve this adventure.
    ``last_effort_used`` is set once the heroic last effort has been made.
    ``latest_injuries_archetypal`` says whether the latest injuries came from archetypal activity:
    only then does verve count towards the risk of death (seed 000, "A time to die").
    """

    name: str = ""
    strength: int = 10
    agility: int = 10
    endurance: int = 10
    wisdom: int = 10
    intelligence: int = 10
    charisma: int = 10
    evasion: int = 10
    fortitude: int = 10
    perception: int = 10
    reason: int = 10
    willpower: int = 10
    health: int = 10
    archetype: str = ""
    level: int = 1
    survival: int = 0
    max_survival: int = 0
    verve: int = 0
    max_verve: int = 0
    injuries: int = 0
    unhealable_injuries: int = 0
    mojo: int = 0
    movement: int = 10
    fields: Mapping[str, int] = field(default_factory=dict)
    is_npc: bool = False
    age: int = 20
    size: str = "medium"
    bonus_pools: tuple[BonusPool, ...] = ()
    survival_bonus: int = 0
    survival_dice: str = ""
    used_encounters: tuple[str, ...] = ()
    last_effort_used: bool = False
    latest_injuries_archetypal: bool = False

    def score(self, name: str) -> int:
        """An ability or reaction score by name (``"fortitude"``)."""
        if name not in SCORES:
            raise UnknownNameError(f"no ability or reaction {name!r}", expected="one of " + ", ".join(SCORES))
        value: int = getattr(self, name)
        return value

    @property
    def archetypal_ability(self) -> str | None:
        return ARCHETYPAL[self.archetype][0] if self.archetype else None

    @property
    def archetypal_reaction(self) -> str | None:
        return ARCHETYPAL[self.archetype][1] if self.archetype else None

    @property
    def bonus_pool_points(self) -> int:
        return sum(p.points for p in self.bonus_pools)

    @property
    def healable_injuries(self) -> int:
        return max(0, self.injuries - self.unhealable_injuries)

    def field_bonus(self, name: str) -> int:
        return int(self.fields.get(name, 0))
