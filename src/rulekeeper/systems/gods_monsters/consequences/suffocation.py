"""Suffocation: the buffer, then health rolls with a growing penalty.

Seed 002, the untitled passage on suffocation. A prepared character (one who got a deep
breath) has endurance rounds of buffer; an unprepared one d4 rounds modified by endurance as a
minor contributor -- that formula is unconfirmed, so the table supplies the modifier
(``contributor``, default 0), and a buffer can be none at all. During the buffer the character
acts normally. Then a health roll, failure meaning one injury; then another every minute (six
rounds), each at one more point of penalty than the last. A character completely inactive and
at rest doubles these times (buffer and interval).
"""

from __future__ import annotations

from rulekeeper.errors import InputError

__all__ = [
    "ROUND_SECONDS",
    "SUFFOCATION_INTERVAL",
    "suffocation_buffer_rounds",
    "suffocation_interval",
    "suffocation_modifier",
]

ROUND_SECONDS = 10
SUFFOCATION_INTERVAL = 60


def suffocation_buffer_rounds(
    *,
    endurance: int,
    prepared: bool,
    d4: int | None = None,
    contributor: int = 0,
    at_rest: bool = False,
) -> int:
    """Rounds of buffer: endurance if prepared, else the d4 roll plus ``contributor`` (not
    below 0); doubled at rest."""
    if prepared:
        rounds = max(0, endurance)
    else:
        if d4 is None or not 1 <= d4 <= 4:
            raise InputError(f"d4 roll {d4!r} is not valid", expected="a d4 value from 1 to 4")
        rounds = max(0, d4 + contributor)
    return rounds * 2 if at_rest else rounds


def suffocation_interval(*, at_rest: bool = False) -> int:
    """Seconds between health rolls after the buffer: a minute, two at rest."""
    return SUFFOCATION_INTERVAL * 2 if at_rest else SUFFOCATION_INTERVAL


def suffocation_modifier(rolls_before: int) -> int:
    """The cumulative penalty on a suffocation roll: 0 for the first, -1, -2 ... after."""
    if rolls_before < 0:
        raise InputError(f"roll count {rolls_before} is not valid", expected="0 or more")
    return -rolls_before
