"""What a player may see: a projection with no unknown-stat value and nothing computed from one.

US values are the GM's secret (rules brief, "Player-visible vs GM-only"; seed 001, VIII.1: "BU 6
(and VIG 3, known only by the GM)"). To make a leak hard to write by accident:

* :func:`public_sheet` is the only function here that reads a :class:`Character`, and it copies
  only what the player's own sheet shows: KS values, skill levels, SOM, burden, age, fatigue.
* The projection types below have no field that could hold a US, a sum of KS and US, a
  countdown length (KS + US originals), aging from magical healing (points healed into a US) or
  the injured flag for a US-only wound. Pending checks show what to roll, never the stats or odds.
* Tests serialise the projection for generated sheets and histories and search it for the US
  names and values, and check it does not change when only secret values do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.core.arc import ArcThreshold
from rulekeeper.core.explain import Step
from rulekeeper.core.state import Condition, GameState, PendingCheck
from rulekeeper.systems.vi_viii_x.character import KS_NAMES, Burden, Character
from rulekeeper.systems.vi_viii_x.jumping import jump_distances
from rulekeeper.systems.vi_viii_x.literacy import LITERACY_SKILL, literacy_level
from rulekeeper.systems.vi_viii_x.states import INCAPACITATING, STATES, jump_blocker

__all__ = [
    "PlayerAilment",
    "PlayerCharacterView",
    "PlayerKnownStat",
    "PlayerLiteracy",
    "PlayerPendingCheck",
    "PlayerSkill",
    "PublicSheet",
    "player_character_view",
    "player_wording",
    "public_numbers",
    "public_sheet",
]



@dataclass(frozen=True)
class PlayerKnownStat:
    name: str
    current: int
    original: int


@dataclass(frozen=True)
class PlayerSkill:
    """A skill as the player's sheet shows it: its level and the KS it falls under, not its US."""

    name: str
    ks: str
    level: int


@dataclass(frozen=True)
class PlayerLiteracy:
    language: str
    level: int
    description: str


@dataclass(frozen=True)
class PlayerAilment:
    """An ailment as its victim feels it: the known stats it has lowered, nothing of its bookkeeping."""

    name: str
    kind: str
    cure_found: bool
    feels: tuple[str, ...]


@dataclass(frozen=True)
class PublicSheet:
    """The character's public facts, copied once from the full character by :func:`public_sheet`."""

    name: str
    known_stats: tuple[PlayerKnownStat, ...]
    skills: tuple[PlayerSkill, ...]
    literacy: tuple[PlayerLiteracy, ...]
    som: int
    burden: Burden
    agility: int | None
    age: int | None
    mov: int | None
    actions: int
    regimen: str
    fatigue: int
    days_without_food: int | None
    days_without_water: int | None
    ailments: tuple[PlayerAilment, ...]
    permanent_states: tuple[str, ...]
    known_stats_lowered: bool


def public_sheet(character: Character, *, agility_secret: bool = False) -> PublicSheet:
    """The one place a player projection reads a :class:`Character`: public fields only."""
    skills = tuple(
        PlayerSkill(name=name, ks=character.us[skill.us].ks, level=skill.level) for name, skill in character.es.items()
    )
    literacy = tuple(
        PlayerLiteracy(
            language=skill.language or name.removeprefix(LITERACY_SKILL).strip("-") or "mother tongue",
            level=skill.level,
            description=literacy_level(skill.level).description,
        )
        for name, skill in character.es.items()
        if name.startswith(LITERACY_SKILL)
    )
    return PublicSheet(
        name=character.name,
        known_stats=tuple(
            PlayerKnownStat(name=ks, current=character.ks[ks].current, original=character.ks[ks].original)
            for ks in KS_NAMES
        ),
        skills=skills,
        literacy=literacy,
        som=character.som,
        burden=character.burden,
        agility=None if agility_secret else character.agility,
        age=character.age,
        mov=character.mov,
        actions=character.actions,
        regimen=character.regimen.value,
        fatigue=character.fatigue,
        days_without_food=character.days_without_food,
        days_without_water=character.days_without_water,
        ailments=_felt_ailments(character),
        permanent_states=tuple(sorted(f.state for f in character.fatalities.values() if f.permanent)),
        known_stats_lowered=character.known_stats_lowered,
    )


def _felt_ailments(character: Character) -> tuple[PlayerAilment, ...]:
    # The symptom of a disease or poison is a lowered stat (VIII.3, Disease, Poison). A player
    # feels only the known ones: an ailment listed while it held a US alone, and dropped when
    # that US recovered, would tell the player when a secret stat came back.
    out = []
    for ailment in character.ailments:
        if ailment.eradicated:
            continue
        feels = tuple(s for s in KS_NAMES if s in ailment.felt and character.ks[s].current < character.ks[s].original)
        if feels:
            out.append(
                PlayerAilment(name=ailment.name, kind=ailment.kind.value, cure_found=ailment.cure_found, feels=feels)
            )
    return tuple(out)


def public_numbers(sheet: PublicSheet, conditions: Sequence[Condition], options: Mapping[str, Any]) -> dict[str, Any]:
    """Values derived from public facts only, shared by the GM's and the player's views.

    Slowed halves MOV and actions and doubles time spans, Hasted the reverse (VIII.4); MOV is
    rounded down. Deafened or unconscious characters cast no spells; overloaded ones cannot run.
    """
    names = {c.name for c in conditions}
    factor = 0.5 if "slowed" in names else 2.0 if "hasted" in names else 1.0
    mov = None if sheet.mov is None else int(sheet.mov * factor)
    jumps = None if sheet.agility is None else jump_distances(sheet.agility, sheet.burden)
    can_jump = jumps is not None and jump_blocker(conditions) is None
    modifier = -sheet.fatigue
    if sheet.som >= 10:
        modifier += int(options.get("exalted_modifier", 1))
    elif sheet.som <= 1:
        modifier += int(options.get("panicked_modifier", -1))
    modifier += sum(int(c.data.get("modifier", 0) or 0) for c in conditions)
    return {
        "state_of_mind": "exalted" if sheet.som >= 10 else "panicked" if sheet.som <= 1 else "ordinary",
        "effective_mov": mov,
        "actions_per_turn": sheet.actions * factor,
        "timeframe_factor": 1 / factor,
        "can_run": sheet.burden is not Burden.OVERLOADED,
        "can_jump": can_jump,
        "jump_running": jumps.running if jumps and can_jump else None,
        "jump_standing": jumps.standing if jumps and can_jump else None,
        "can_cast_spells": not (names & ({"deafened"} | INCAPACITATING)),
        "check_modifier": modifier,
    }


@dataclass(frozen=True)
class PlayerCharacterView:
    """One character as its player sees it."""

    actor: str
    sheet: PublicSheet
    numbers: Mapping[str, int | float | str | bool | None]
    conditions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        s = self.sheet
        out: dict[str, Any] = {"actor": self.actor, "name": s.name}
        for stat in s.known_stats:
            out[stat.name.lower()] = stat.current
            out[f"{stat.name.lower()}_original"] = stat.original
        out.update(
            som=s.som,
            burden=s.burden.value,
            agility=s.agility,
            age=s.age,
            mov=s.mov,
            actions=s.actions,
            regimen=s.regimen,
            fatigue=s.fatigue,
            days_without_food=s.days_without_food,
            days_without_water=s.days_without_water,
            skills={k.name: {"ks": k.ks, "level": k.level} for k in s.skills},
            literacy={x.language: {"level": x.level, "description": x.description} for x in s.literacy},
            ailments=[
                {
                    "name": a.name,
                    "kind": a.kind,
                    "cure_found": a.cure_found,
                    "feels": [f"{ks} lowered" for ks in a.feels],
                }
                for a in s.ailments
            ],
            permanent_states=list(s.permanent_states),
        )
        out.update(self.numbers)
        out["conditions"] = list(self.conditions)
        return out


def _player_conditions(sheet: PublicSheet, conditions: Sequence[Condition]) -> tuple[str, ...]:
    # "injured" also covers a wound that only a US took; the player sees it only for a lowered KS.
    names = {c.name for c in conditions if c.name in STATES and c.name != "injured"}
    if sheet.known_stats_lowered:
        names.add("injured")
    return tuple(sorted(names))


def player_character_view(
    state: GameState[Character], actor: str, *, options: Mapping[str, Any] | None = None
) -> PlayerCharacterView:
    opts = dict(state.settings.options if options is None else options)
    sheet = public_sheet(state.characters[actor], agility_secret=bool(opts.get("agility_secret", False)))
    conditions = state.conditions_of(actor)
    return PlayerCharacterView(
        actor=actor,
        sheet=sheet,
        numbers=public_numbers(sheet, conditions, opts),
        conditions=_player_conditions(sheet, conditions),
    )


@dataclass(frozen=True)
class PlayerPendingCheck:
    """A check waiting for dice: who rolls, why, which dice and the threshold -- never stats or odds."""

    id: int
    actor: str | None
    purpose: str
    label: str
    dice: tuple[int, ...]
    threshold: int | None

    @classmethod
    def of(cls, pending: PendingCheck) -> PlayerPendingCheck:
        check = pending.check
        threshold = check.threshold if isinstance(check, ArcThreshold) else None
        return cls(pending.id, pending.actor, pending.purpose, check.label, check.dice_sides, threshold)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "actor": self.actor,
            "purpose": self.purpose,
            "label": self.label,
            "dice": [f"d{s}" for s in self.dice],
            "threshold": self.threshold,
        }


def player_wording(step: Step) -> str | None:
    """The player wording of ``step``; a step without one stays with the GM."""
    said = step.data.get("player")
    return str(said) if said else None
