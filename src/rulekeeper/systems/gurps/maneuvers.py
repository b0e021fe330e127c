"""The 13 maneuvers as data (seed 004, "Maneuvers" and one section per maneuver).

Each row says how far the character may move, which active defenses it leaves them until their
next turn, how many attacks it allows, and its options. Where the seed is silent on movement
the row says so and takes the Basic Set's reading, marked in ``movement_reading``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.rules import (
    AIM,
    ALL_OUT_ATTACK,
    ALL_OUT_DEFENSE,
    ATTACK,
    CHANGE_POSTURE,
    CONCENTRATE,
    DO_NOTHING,
    EVALUATE,
    FEINT,
    MOVE,
    MOVE_AND_ATTACK,
    READY,
    WAIT,
)

__all__ = [
    "ALL_DEFENSES",
    "AOA_MELEE_OPTIONS",
    "AOA_RANGED_OPTIONS",
    "AOD_OPTIONS",
    "MANEUVERS",
    "MANEUVER_NAMES",
    "WAIT_ACTIONS",
    "Maneuver",
    "maneuver_named",
]

ALL_DEFENSES: tuple[str, ...] = ("dodge", "parry", "block")
AOA_MELEE_OPTIONS = ("determined", "double", "feint", "strong")
AOA_RANGED_OPTIONS = ("determined", "suppression")
AOD_OPTIONS = ("increased", "double")
WAIT_ACTIONS = ("attack", "feint", "all-out-attack", "ready")


@dataclass(frozen=True)
class Maneuver:
    name: str
    movement: str  # "none", "step", "half move forward", "half move", "full move"
    defenses: tuple[str, ...]
    attacks: int
    rule: Rule
    summary: str
    options: tuple[str, ...] = ()
    movement_reading: str | None = None


MANEUVERS: tuple[Maneuver, ...] = (
    Maneuver(
        "aim",
        "step",
        ALL_DEFENSES,
        0,
        AIM,
        "aim a ranged weapon: its Acc on the next attack at the same target, +1 after 2 turns, +2 after 3+; "
        "any active defense spoils it, an injury calls for a Will roll",
    ),
    Maneuver(
        "all-out-attack",
        "half move forward",
        (),
        1,
        ALL_OUT_ATTACK,
        "attack with no active defense until the next turn; melee: determined (+4), double (two attacks), "
        "feint (a feint, then an attack) or strong (+2 damage or +1 per die); ranged: determined (+1) or "
        "suppression fire",
        options=(*AOA_MELEE_OPTIONS, "suppression"),
    ),
    Maneuver(
        "all-out-defense",
        "step",
        ALL_DEFENSES,
        0,
        ALL_OUT_DEFENSE,
        "increased: +2 to one of dodge, parry or block until the next turn (half Move with increased dodge); "
        "double: a second, different defense after a failed one",
        options=AOD_OPTIONS,
    ),
    Maneuver("attack", "step", ALL_DEFENSES, 1, ATTACK, "one armed or unarmed melee attack, or a ranged attack"),
    Maneuver(
        "change-posture",
        "none",
        ALL_DEFENSES,
        0,
        CHANGE_POSTURE,
        "stand, sit, kneel, crawl, lie prone or face up; rising from lying down takes two of these",
        movement_reading="no movement besides the change itself (Basic Set)",
    ),
    Maneuver(
        "concentrate",
        "step",
        ALL_DEFENSES,
        0,
        CONCENTRATE,
        "a mental task for the whole turn; defending, knock-down or injury call for a Will-3 roll",
        movement_reading="a step (Basic Set)",
    ),
    Maneuver(
        "do-nothing",
        "none",
        ALL_DEFENSES,
        0,
        DO_NOTHING,
        "stand still; forced while stunned (defenses -4) or surprised",
    ),
    Maneuver(
        "evaluate",
        "step",
        ALL_DEFENSES,
        0,
        EVALUATE,
        "study a foe: +1 per consecutive Evaluate (up to +3) to attack or feint them next turn",
        movement_reading="a step (Basic Set)",
    ),
    Maneuver(
        "feint",
        "step",
        ALL_DEFENSES,
        0,
        FEINT,
        "a Quick Contest of weapon skills; a win takes the margin off the foe's defense next turn",
    ),
    Maneuver("move", "full move", ALL_DEFENSES, 0, MOVE, "move up to full Move; defend normally"),
    Maneuver(
        "move-and-attack",
        "full move",
        ("dodge", "block"),
        1,
        MOVE_AND_ATTACK,
        "move and make one poor attack: melee -4 and at most 9, ranged -2 or Bulk; only dodge or block",
    ),
    Maneuver(
        "ready", "step", ALL_DEFENSES, 0, READY, "ready a weapon or item, or do a physical task other than fighting"
    ),
    Maneuver(
        "wait",
        "none",
        ALL_DEFENSES,
        0,
        WAIT,
        "hold an Attack, Feint, All-Out Attack or Ready until a named trigger happens",
        options=WAIT_ACTIONS,
        movement_reading="none until the trigger, then the chosen maneuver's (Basic Set)",
    ),
)

MANEUVER_NAMES: tuple[str, ...] = tuple(m.name for m in MANEUVERS)
_BY_NAME = {m.name: m for m in MANEUVERS}


def maneuver_named(name: str) -> Maneuver:
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    key = {"aoa": "all-out-attack", "aod": "all-out-defense"}.get(key, key)
    return _BY_NAME[key]


def movement_yards(movement: str, move: int, *, increased_dodge: bool = False) -> int:
    """Yards a maneuver allows with a given Move (a step counts as 1 yard)."""
    if movement == "full move":
        return move
    if movement in ("half move", "half move forward") or increased_dodge:
        return move // 2
    if movement == "step":
        return min(1, move)
    return 0
