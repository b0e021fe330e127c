"""Building ARCs for a character: which stats they add, the modifiers states bring, the table in use.

An ARC adds KS + US + the roll modifier + a GM modifier (about -3 to +3) and any other
adjustment; it succeeds only when strictly above the threshold (ARCT) or the opponent (ARCO)
(rules brief, "Context"; the check objects are core ``ArcThreshold``/``ArcOpposed``). A check
"on" an exclusive skill uses the KS and US the skill rests on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulekeeper.core.arc import PLACEHOLDER_TABLE, THRESHOLDS, RollModifierTable, threshold_value
from rulekeeper.core.check import Modifier
from rulekeeper.core.play import Play
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.literacy import LITERACY_SKILL
from rulekeeper.systems.vi_viii_x.sheet import normalize_skill

__all__ = [
    "ES_HOME",
    "ArcStats",
    "face_for_modifier",
    "pair_stats",
    "parse_table",
    "parse_threshold",
    "roll_table",
    "skill_stats",
    "skill_stats_in_play",
    "state_modifiers",
    "threshold_name",
]

# Reading: a character without a skill the rules ask for checks the KS the skill usually sits
# under, alone (no US). The seed ties Stamina to effort, Body Control to falls and Education to
# learning; the brief confirms no pairing, so this table is ours.
ES_HOME: Mapping[str, str] = {
    "stamina": "BU",
    "body-control": "CO",
    "education-medicine": "IN",
    "education-alchemy": "IN",
}


@dataclass(frozen=True)
class ArcStats:
    """The stats an ARC adds. ``label`` names them in words a player may read (never a US value)."""

    ks: str
    us: str | None
    value: int
    label: str
    skill: str | None = None
    trained: bool = True


def pair_stats(character: Character, ks: str, us: str | None) -> ArcStats:
    return ArcStats(ks=ks, us=us, value=character.pair_value(ks, us), label=ks)


def skill_stats(character: Character, skill: str, *, level_counts: bool = False) -> ArcStats:
    """Stats for an ARC on ``skill``; without the skill on the sheet, its home KS alone (:data:`ES_HOME`)."""
    name = normalize_skill(skill)
    entry = character.es.get(name)
    if name.startswith(LITERACY_SKILL) and (entry is None or entry.level < 1):
        # Reading and writing come only from the skill: there is no stat to fall back on (VIII.3).
        who = character.name or "the character"
        raise RuleRefusal(
            f"{who} cannot read or write: without the ES Education literature a character is illiterate "
            "(seed 001, VIII.3 Literacy)"
        )
    if entry is None:
        home = ES_HOME.get(name)
        if home is None:
            known = ", ".join(character.es) or "none"
            raise InputError(f"no skill {name!r} on the sheet", expected=f"one of: {known}", where="skill")
        return ArcStats(ks=home, us=None, value=character.ks[home].current, label=name, skill=name, trained=False)
    ks = character.us[entry.us].ks
    value = character.pair_value(ks, entry.us) + (entry.level if level_counts else 0)
    return ArcStats(ks=ks, us=entry.us, value=value, label=name, skill=name)


def skill_stats_in_play(play: Play[Character], actor: str, skill: str) -> ArcStats:
    """:func:`skill_stats` with the table's choice of whether the skill's level counts."""
    return skill_stats(play.char(actor), skill, level_counts=bool(play.option("es_level_in_arc", False)))


def parse_threshold(value: Any, where: str = "threshold") -> int:
    try:
        return threshold_value(value if isinstance(value, int) else str(value))
    except InputError as exc:
        raise InputError(exc.message, expected=exc.expected, where=where) from None


def parse_table(raw: Any) -> RollModifierTable:
    """The ``roll_modifier_table`` option: die face f gives ``raw[f - 1]``; absent means the placeholder."""
    if raw is None:
        return PLACEHOLDER_TABLE
    expected = "a list of one or more whole numbers, the roll modifier for each face of one die"
    if isinstance(raw, str):
        raw = [v for v in raw.replace(" ", "").split(",") if v]
    if not isinstance(raw, (list, tuple)) or not raw:
        raise InputError(f"roll_modifier_table {raw!r}", expected=expected, where="option roll_modifier_table")
    try:
        values = tuple(int(v) for v in raw if not isinstance(v, bool))
    except (TypeError, ValueError):
        raise InputError(
            f"roll_modifier_table {raw!r}", expected=expected, where="option roll_modifier_table"
        ) from None
    if len(values) != len(raw):
        raise InputError(f"roll_modifier_table {raw!r}", expected=expected, where="option roll_modifier_table")
    if values == PLACEHOLDER_TABLE.values:
        return PLACEHOLDER_TABLE
    return RollModifierTable(values=values, name=f"campaign table d{len(values)}")


def roll_table(play: Play[Any]) -> RollModifierTable:
    return parse_table(play.option("roll_modifier_table", None))


def face_for_modifier(table: RollModifierTable, modifier: int) -> int:
    """The first die face that gives ``modifier``, so a modifier typed in at the table can be judged."""
    for face, value in enumerate(table.values, start=1):
        if value == modifier:
            return face
    raise InputError(
        f"no face of the roll-modifier table gives {modifier:+d}",
        expected="one of " + ", ".join(f"{v:+d}" for v in sorted(set(table.values))),
        where="roll_modifier",
    )


def state_modifiers(play: Play[Character], actor: str) -> tuple[Modifier, ...]:
    """Modifiers every check of ``actor`` carries: fatigue, state of mind, and the GM's adjustments for states.

    Fatigue -1 per level (VIII.3 "Prolonged action"); Exalted and Panicked move every check
    (VIII.4), by amounts the seed leaves to another chapter, so they are options; prone,
    grappled and entangled carry the malus the GM set with the state (VIII.4 "other adjustments").
    """
    character = play.char(actor)
    mods: list[Modifier] = []
    if character.fatigue:
        mods.append(Modifier(-character.fatigue, "fatigued"))
    if character.som >= 10:
        mods.append(Modifier(int(play.option("exalted_modifier", 1)), "exalted"))
    elif character.som <= 1:
        mods.append(Modifier(int(play.option("panicked_modifier", -1)), "panicked"))
    for condition in play.state.conditions_of(actor):
        value = int(condition.data.get("modifier", 0) or 0)
        if value:
            mods.append(Modifier(value, condition.name))
    return tuple(mods)


def threshold_name(value: int) -> str:
    """``6`` -> ``easy (6)``: the named threshold, where there is one."""
    for name, v in THRESHOLDS.items():
        if v == value:
            return f"{name} ({value})"
    return str(value)
