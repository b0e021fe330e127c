"""Movement: speeds, outdoor shift, darkness, daily travel, forced marches, flying, casting.

Seed 002, "Actions and consequences: Movement" and its parts "Spells and spirits",
"Movement: Rest", "Movement: Darkness", "Daily movement" and "Movement: Flying".

Readings:

* The seed prints the Dash row's reaction and attack as "-1 / 4" against a -2/-4/-8/-16
  pattern; the row keeps the printed values and is flagged *unconfirmed* (rules brief).
* The semi-conscious row prints only "half movement": read as half movement in feet per
  round, so Movement yards per minute (every row keeps yards/minute = 2 x feet/round).
* Outdoors the reaction penalties shift up one row among explore, walk, jog, run and sprint
  (walk has none, jog walk's, ...); combat speeds and the attack bonuses do not shift.
* Daily movement in miles rounds down; flying covers Movement miles an hour, and eight times
  an ideal walker's day (2 x Movement x 8 miles) in a day.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.clock import MINUTE
from rulekeeper.errors import InputError

__all__ = [
    "FORCED_MARCH_DAY_INCREASE",
    "LIGHT_LEVELS",
    "SPEEDS",
    "TERRAINS",
    "DailyMovement",
    "Speed",
    "SpeedNumbers",
    "casting_movement",
    "daily_movement",
    "forced_march_modifier",
    "light_movement",
    "speed",
    "speed_numbers",
]

ROUND_SECONDS = 10  # the default round; a table's option round_seconds replaces it where rounds are counted


@dataclass(frozen=True)
class Speed:
    """One row of the speeds table.

    ``feet_per_round`` is a multiple of Movement; the speed can be kept up for endurance times
    ``time_base_unit`` seconds before a ten-minute rest. ``reaction`` is the penalty to the
    mover's reaction rolls, ``attack`` the bonus to attack them.
    """

    name: str
    feet_per_round: Fraction
    time_base_unit: int
    reaction: int
    attack: int
    combat: bool
    unconfirmed: str = ""
    # The time base is endurance *rounds*, so it follows the table's round length.
    per_round: bool = False

    @property
    def yards_per_minute(self) -> Fraction:
        # Six rounds a minute, three feet a yard.
        return self.feet_per_round * 2


# Seed 002, "Actions and consequences: Movement", the speeds table.
SPEEDS: tuple[Speed, ...] = (
    Speed("semi-conscious", Fraction(1, 2), ROUND_SECONDS, 0, 0, True, per_round=True),
    Speed("combat", Fraction(1), MINUTE, 0, 0, True),
    Speed(
        "dash",
        Fraction(3),
        MINUTE,
        -1,
        4,
        True,
        unconfirmed="printed as -1 / 4 against the -2/-4/-8/-16 pattern of the other rows",
    ),
    Speed("explore", Fraction(2), 10 * MINUTE, 0, 0, False),
    Speed("walk", Fraction(5), 30 * MINUTE, -2, 2, False),
    Speed("jog", Fraction(10), 5 * MINUTE, -4, 4, False),
    Speed("run", Fraction(15), MINUTE, -8, 8, False),
    Speed("sprint", Fraction(25), ROUND_SECONDS, -16, 16, False, per_round=True),
)
_BY_NAME = {s.name: s for s in SPEEDS}
_OUTDOOR_LADDER = ("explore", "walk", "jog", "run", "sprint")

LIGHT_LEVELS: tuple[str, ...] = ("light", "dark night", "total darkness")
TERRAINS: dict[str, Fraction] = {
    "ideal": Fraction(2),
    "forest": Fraction(1),
    "hills": Fraction(1),
    "bog": Fraction(1, 2),
    "undergrowth": Fraction(1, 2),
}
FORCED_MARCH_DAY_INCREASE = Fraction(3, 2)


def speed(name: str) -> Speed:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise InputError(f"unknown speed {name!r}", expected="one of " + ", ".join(_BY_NAME)) from None


def light_movement(movement: int, light: str = "light", *, can_see: bool = False) -> int:
    """Movement after darkness: halved on a dark night, quartered in total darkness, unless
    the mover has special vision or a light (``can_see``). Rounded down."""
    if light not in LIGHT_LEVELS:
        raise InputError(f"unknown light level {light!r}", expected="one of " + ", ".join(LIGHT_LEVELS))
    if can_see or light == "light":
        return movement
    return movement // 2 if light == "dark night" else movement // 4


def casting_movement(movement: int, casting_seconds: int, round_seconds: int = ROUND_SECONDS) -> int:
    """Movement left while casting a spell or calling a spirit manifestation ("Spells and
    spirits"): reduced by the casting time, and none at all when the casting takes a round or
    more or is longer than the movement. Casting time is read in seconds."""
    if casting_seconds < 0:
        raise InputError(f"casting time {casting_seconds} is not valid", expected="0 seconds or more")
    if casting_seconds >= round_seconds or casting_seconds > movement:
        return 0
    return movement - casting_seconds


@dataclass(frozen=True)
class SpeedNumbers:
    """A speed worked out for one mover."""

    speed: str
    movement: int
    feet_per_round: Fraction
    yards_per_minute: Fraction
    time_base_seconds: int
    reaction: int
    attack: int
    outdoors: bool
    unconfirmed: str


def speed_numbers(
    name: str,
    movement: int,
    endurance: int,
    *,
    outdoors: bool = False,
    light: str = "light",
    can_see: bool = False,
    round_seconds: int = ROUND_SECONDS,
) -> SpeedNumbers:
    """Distances, time base, reaction penalty and attack bonus for moving at speed ``name``.

    ``round_seconds`` is the table's round: the time base of a speed counted in rounds follows it.
    """
    if movement < 0 or endurance < 0:
        raise InputError("movement and endurance cannot be negative", expected="0 or more")
    row = speed(name)
    effective = light_movement(movement, light, can_see=can_see)
    reaction = row.reaction
    if outdoors and row.name in _OUTDOOR_LADDER:
        index = _OUTDOOR_LADDER.index(row.name)
        reaction = _BY_NAME[_OUTDOOR_LADDER[max(0, index - 1)]].reaction
    return SpeedNumbers(
        speed=row.name,
        movement=effective,
        feet_per_round=row.feet_per_round * effective,
        yards_per_minute=row.yards_per_minute * effective,
        time_base_seconds=(round_seconds if row.per_round else row.time_base_unit) * endurance,
        reaction=reaction,
        attack=row.attack,
        outdoors=outdoors,
        unconfirmed=row.unconfirmed,
    )


@dataclass(frozen=True)
class DailyMovement:
    """Miles a day for a walker of a given Movement, by terrain, and for a flier."""

    movement: int
    by_terrain: dict[str, int]
    forced: dict[str, int]
    walking_mph: Fraction
    flying_mph: int
    flying_miles_per_day: int
    rest_day_after_days: Fraction


def daily_movement(movement: int, endurance: int = 10) -> DailyMovement:
    """Seed 002 "Daily movement" and "Movement: Flying" for ``movement``.

    ``forced`` is a day pushed 50% further (which costs a health roll).
    """
    if movement < 0:
        raise InputError(f"movement {movement} is not valid", expected="0 or more")
    by_terrain = {t: int(m * movement) for t, m in TERRAINS.items()}
    forced = {t: int(m * movement * FORCED_MARCH_DAY_INCREASE) for t, m in TERRAINS.items()}
    return DailyMovement(
        movement=movement,
        by_terrain=by_terrain,
        forced=forced,
        walking_mph=Fraction(movement, 3),
        flying_mph=movement,
        flying_miles_per_day=8 * by_terrain["ideal"],
        rest_day_after_days=Fraction(endurance, 2),
    )


def forced_march_modifier(*, slower_by: int = 0, previous_rolls: int = 0, thirst: int = 0) -> int:
    """The modifier to the health roll for pushing on without rest ("Movement: Rest"):
    +2 per point of Movement given up for the whole stretch, -2 per earlier such roll since
    the last rest, and up to -4 for too little water or salt."""
    if slower_by < 0 or previous_rolls < 0:
        raise InputError("slower_by and previous_rolls cannot be negative", expected="0 or more")
    if not 0 <= thirst <= 4:
        raise InputError(f"thirst penalty {thirst} is not valid", expected="0 to 4")
    return 2 * slower_by - 2 * previous_rolls - thirst
