"""Searching and tracking: perception rolls, their time and modifiers.

Seed 002, "Actions and consequences: Searching" and "Actions and consequences: Tracking".

* Searching is a perception roll at a penalty for how well the thing is hidden; about two
  minutes per 10 ft x 10 ft area (partial areas count as whole ones).
* Tracking is a perception roll at -1 per day since the quarry passed, with the group effort
  bonus for the size of the group tracked, and minus the margin by which the quarry covered
  their tracks. One roll follows the trail for an obstacle size: a quarter mile in natural
  surroundings, 100 yards in towns and built places (read as the stretch one roll covers).
* Covering one's tracks is a perception roll; its margin of success becomes the trackers'
  penalty, and the one covering moves at half movement.
"""

from __future__ import annotations

import math

from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.group_effort import group_effort_bonus

__all__ = [
    "SEARCH_AREA_SQUARE_FEET",
    "SEARCH_MINUTES_PER_AREA",
    "TRACKING_OBSTACLE_YARDS",
    "covering_penalty",
    "search_minutes",
    "tracking_modifier",
]

SEARCH_AREA_SQUARE_FEET = 100
SEARCH_MINUTES_PER_AREA = 2
TRACKING_OBSTACLE_YARDS: dict[str, int] = {"natural": 440, "urban": 100}


def search_minutes(area_square_feet: int) -> int:
    """Minutes to search an area: two per started 10 ft x 10 ft."""
    if area_square_feet < 0:
        raise InputError(f"area {area_square_feet} is not valid", expected="0 square feet or more")
    return SEARCH_MINUTES_PER_AREA * math.ceil(area_square_feet / SEARCH_AREA_SQUARE_FEET)


def tracking_modifier(*, days: int, group_size: int = 1, covered: int = 0) -> int:
    """The tracker's modifier: -1 per day passed, + group effort bonus, - covering penalty."""
    if days < 0 or covered < 0:
        raise InputError("days and the covering penalty cannot be negative", expected="0 or more")
    return -days + group_effort_bonus(group_size) - covered


def covering_penalty(margin: int) -> int:
    """The penalty a successful cover leaves for trackers: the margin it succeeded by."""
    return max(0, margin)
