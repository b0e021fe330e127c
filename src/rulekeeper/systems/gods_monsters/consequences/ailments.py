"""Ailments as data: strength, reaction, action time, effects, and the example table.

Seed 002, "Ailments: sickness, disease, and poison" with its parts "Ailment strength",
"Ailment effects" and "Example ailments". This module is pure; :mod:`.ailment_play` runs
ailments over game time.

* The roll to resist is a reaction roll at a penalty of the ailment's strength. Accepting
  the ailment (drinking, injecting) makes it a health roll at a further -4; an ailment one can
  avoid by knowing of it is resisted with perception, one forced on an unwilling victim with
  evasion.
* The effect lands after the action time, once; a *chronic* ailment repeats it at every later
  action time until a health roll throws it off, its strength fading by one before each such
  roll (rules brief reading). An *inescapable* ailment asks a roll at every action time while
  the victim stays exposed, each failure adding the effect again. A *chronic inescapable* one,
  once it has taken hold, strikes every action time with no roll and grows stronger by one
  each time; taken out of it, the victim's ailment drops back to its normal strength and fades
  as a chronic one.

Readings on the table (rules brief): Black Widow and Sleep gas print no strength and count as
0; Sleep gas prints no type and is inescapable, as the seed's own sleep-gas example treats it;
Food poisoning's row gives 1 injury per failure and no more -- the "-4 concentration for d4
hours" of the seed's example is an extra effect an ailment can carry (``penalties`` with
``penalty_hours``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulekeeper.core.clock import DAY, HOUR, MINUTE, format_duration
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.character import ABILITIES, REACTIONS

__all__ = [
    "AILMENTS",
    "CONCENTRATION",
    "CONCENTRATION_SCORES",
    "EXPOSURES",
    "PENALTY_TARGETS",
    "Ailment",
    "AilmentEffect",
    "ailment_from_json",
    "ailment_to_json",
    "find_ailment",
    "parse_penalties",
    "penalty_for_score",
    "resist_reaction",
    "strength_at_throw_off",
    "strength_while_exposed",
]

ROUND = 10  # seconds in a round at the default round_seconds; rows in rounds use ``action_rounds``
CONCENTRATION = "concentration"
# A penalty to concentration applies to charisma, wisdom and intelligence rolls
# (seed 002, concentration passage after "Chases").
CONCENTRATION_SCORES: tuple[str, ...] = ("charisma", "wisdom", "intelligence")
PENALTY_TARGETS: tuple[str, ...] = (*ABILITIES, *REACTIONS, CONCENTRATION)

# How a character meets an ailment -> (reaction rolled, extra modifier) ("Ailment strength").
EXPOSURES: Mapping[str, tuple[str, int]] = {
    "accepted": ("health", -4),
    "avoidable": ("perception", 0),
    "forced": ("evasion", 0),
}


@dataclass(frozen=True)
class AilmentEffect:
    """What one failure costs: dice of injury points, minutes of sleep or paralysis, and
    penalties (to abilities, reactions or concentration) that add up with each failure.

    Penalties last while the ailment does; with ``penalty_hours`` (dice) they linger that many
    hours after it ends instead.
    """

    injuries: str = ""
    sleep_minutes: str = ""
    paralysis_minutes: str = ""
    penalties: Mapping[str, int] = field(default_factory=dict)
    penalty_hours: str = ""

    @property
    def empty(self) -> bool:
        return not (self.injuries or self.sleep_minutes or self.paralysis_minutes or self.penalties)

    def describe(self) -> str:
        parts = []
        if self.injuries:
            parts.append(f"{self.injuries} injur{'y' if self.injuries == '1' else 'ies'}")
        if self.sleep_minutes:
            parts.append(f"sleep {self.sleep_minutes} minutes")
        if self.paralysis_minutes:
            parts.append(f"{self.paralysis_minutes} minutes paralysis")
        if self.penalties:
            parts.append(", ".join(f"{v:+d} {k}" for k, v in self.penalties.items()))
        if self.penalty_hours:
            parts.append(f"penalties linger {self.penalty_hours} hours")
        return "; ".join(parts) or "no effect"


@dataclass(frozen=True)
class Ailment:
    """One ailment: a row of the example table or one a Guide describes."""

    name: str
    strength: int
    action_time: int
    chronic: bool = False
    inescapable: bool = False
    effect: AilmentEffect = field(default_factory=AilmentEffect)
    reading: str = ""
    # An action time counted in rounds follows the table's round length (option round_seconds)
    # and ends with a round: a one-round poison strikes at the end of the round it was contracted
    # in (seed 002, Ailments). ``action_time`` then holds the seconds at the default round.
    action_rounds: int = 0

    def action_seconds(self, round_seconds: int) -> int:
        """One action time in seconds, for a table whose rounds last ``round_seconds``."""
        return self.action_rounds * round_seconds if self.action_rounds else self.action_time

    def describe_action_time(self) -> str:
        if self.action_rounds:
            return f"{self.action_rounds} round{'s' if self.action_rounds != 1 else ''}"
        return format_duration(self.action_time)

    @property
    def type_text(self) -> str:
        if self.chronic and self.inescapable:
            return "chronic inescapable"
        return "chronic" if self.chronic else "inescapable" if self.inescapable else "once"


# Seed 002, "Example ailments".
AILMENTS: tuple[Ailment, ...] = (
    Ailment(
        "alcohol",
        -1,
        20 * MINUTE,
        chronic=True,
        effect=AilmentEffect(penalties={"agility": -1, CONCENTRATION: -1, "evasion": -1, "fortitude": -1}),
    ),
    Ailment(
        "common cold",
        1,
        DAY,
        chronic=True,
        effect=AilmentEffect(penalties={CONCENTRATION: -1, "evasion": -1, "fortitude": -1}),
    ),
    Ailment(
        "food poisoning",
        3,
        HOUR,
        chronic=True,
        effect=AilmentEffect(injuries="1"),
        reading="the row's 1 injury per failure; the example's concentration penalty is an optional extra",
    ),
    Ailment(
        "black widow",
        0,
        30 * MINUTE,
        effect=AilmentEffect(injuries="1d2"),
        reading="no strength printed: 0",
    ),
    Ailment("giant spider", 4, ROUND, action_rounds=1, effect=AilmentEffect(paralysis_minutes="1d4")),
    Ailment("huge spider", 2, ROUND, action_rounds=1, effect=AilmentEffect(injuries="1d3")),
    Ailment("large spider", 1, ROUND, action_rounds=1, effect=AilmentEffect(injuries="1d2")),
    Ailment("shadow spider", 1, 2 * ROUND, action_rounds=2, effect=AilmentEffect(injuries="1d6")),
    Ailment(
        "sleep gas",
        0,
        ROUND,
        action_rounds=1,
        inescapable=True,
        effect=AilmentEffect(sleep_minutes="2d10"),
        reading="no strength or type printed: strength 0, inescapable as in the seed's sleep-gas example",
    ),
)
_BY_NAME = {a.name: a for a in AILMENTS}


def find_ailment(name: str) -> Ailment | None:
    """The table row called ``name`` (any case, extra blanks ignored), or None."""
    return _BY_NAME.get(" ".join(name.lower().split()))


def resist_reaction(exposure: str) -> tuple[str, int]:
    """The reaction rolled against an ailment and the extra modifier, by how it is met."""
    try:
        return EXPOSURES[exposure]
    except KeyError:
        raise InputError(f"unknown exposure {exposure!r}", expected="one of " + ", ".join(EXPOSURES)) from None


def strength_at_throw_off(strength: int, rolls_before: int) -> int:
    """A chronic ailment's strength at a throw-off roll: one weaker than at the roll before
    (the first throw-off roll is already one below the ailment's strength)."""
    return strength - (rolls_before + 1)


def strength_while_exposed(strength: int, action_times: int) -> int:
    """A chronic inescapable ailment's strength after ``action_times`` action times of exposure."""
    return strength + action_times


def penalty_for_score(penalties: Mapping[str, int], score: str) -> int:
    """The total ailment penalty on a roll of ``score``, concentration penalties included."""
    total = penalties.get(score, 0)
    if score in CONCENTRATION_SCORES:
        total += penalties.get(CONCENTRATION, 0)
    return total


def parse_penalties(text: str) -> dict[str, int]:
    """Read ``"agility=-1, concentration=-4"`` into a mapping, refusing unknown scores."""
    out: dict[str, int] = {}
    expected = "name=value pairs such as agility=-1,concentration=-4 (names: " + ", ".join(PENALTY_TARGETS) + ")"
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        if not sep or name not in PENALTY_TARGETS:
            raise InputError(f"cannot read penalty {part.strip()!r}", expected=expected, where="penalties")
        try:
            out[name] = out.get(name, 0) + int(value.strip())
        except ValueError:
            raise InputError(f"cannot read penalty {part.strip()!r}", expected=expected, where="penalties") from None
    return out


def ailment_to_json(ailment: Ailment) -> dict[str, Any]:
    effect = ailment.effect
    return {
        "name": ailment.name,
        "strength": ailment.strength,
        "action_time": ailment.action_time,
        "action_rounds": ailment.action_rounds,
        "chronic": ailment.chronic,
        "inescapable": ailment.inescapable,
        "reading": ailment.reading,
        "effect": {
            "injuries": effect.injuries,
            "sleep_minutes": effect.sleep_minutes,
            "paralysis_minutes": effect.paralysis_minutes,
            "penalties": dict(effect.penalties),
            "penalty_hours": effect.penalty_hours,
        },
    }


def ailment_from_json(data: Mapping[str, Any]) -> Ailment:
    effect = data.get("effect", {})
    return Ailment(
        name=str(data["name"]),
        strength=int(data["strength"]),
        action_time=int(data["action_time"]),
        action_rounds=int(data.get("action_rounds", 0)),
        chronic=bool(data.get("chronic", False)),
        inescapable=bool(data.get("inescapable", False)),
        reading=str(data.get("reading", "")),
        effect=AilmentEffect(
            injuries=str(effect.get("injuries", "")),
            sleep_minutes=str(effect.get("sleep_minutes", "")),
            paralysis_minutes=str(effect.get("paralysis_minutes", "")),
            penalties={str(k): int(v) for k, v in dict(effect.get("penalties", {})).items()},
            penalty_hours=str(effect.get("penalty_hours", "")),
        ),
    )
