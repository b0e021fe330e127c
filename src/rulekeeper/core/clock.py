"""Game time: whole seconds, read from and written as short durations (``30s``, ``10m``, ``8h``, ``3d``)."""

from __future__ import annotations

import re

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_DURATION_DIGITS

__all__ = ["DAY", "HOUR", "MINUTE", "SECOND", "WEEK", "format_duration", "parse_duration"]

SECOND = 1
MINUTE = 60
HOUR = 3600
DAY = 86400
WEEK = 7 * DAY
YEAR = 365 * DAY
# A generous bound that still stops a typo (99999999999d) from firing every timer to the end of time.
MAX_DURATION = 100 * YEAR

_UNITS = {
    "s": SECOND,
    "sec": SECOND,
    "second": SECOND,
    "seconds": SECOND,
    "m": MINUTE,
    "min": MINUTE,
    "minute": MINUTE,
    "minutes": MINUTE,
    "h": HOUR,
    "hr": HOUR,
    "hour": HOUR,
    "hours": HOUR,
    "d": DAY,
    "day": DAY,
    "days": DAY,
    "w": WEEK,
    "week": WEEK,
    "weeks": WEEK,
}
_PART = re.compile(r"(\d+)\s*([a-z]+)")
_EXPECTED = "a duration such as 30s, 10m, 8h, 3d or 1h30m"


def parse_duration(text: str, *, round_seconds: int | None = None) -> int:
    """Seconds in ``text``. With ``round_seconds``, ``r``/``rounds``/``turns`` count rounds too."""
    if len(text) > 100:
        raise InputError(f"a duration of {len(text):,} characters", expected=_EXPECTED)
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        raise InputError("empty duration", expected=_EXPECTED)
    units = dict(_UNITS)
    if round_seconds is not None:
        for word in ("r", "round", "rounds", "t", "turn", "turns"):
            units[word] = round_seconds
    pos = 0
    total = 0
    for match in _PART.finditer(cleaned):
        if match.start() != pos:
            break
        if len(match.group(1)) > MAX_DURATION_DIGITS:
            raise InputError(
                f"a number of {len(match.group(1)):,} digits in duration {text!r}",
                expected=f"{_EXPECTED}, each number at most {MAX_DURATION_DIGITS} digits",
            )
        if match.group(2) not in units:
            raise InputError(
                f"unknown time unit {match.group(2)!r} in {text!r} at position {match.start(2) + 1}",
                expected=_EXPECTED,
            )
        total += int(match.group(1)) * units[match.group(2)]
        pos = match.end()
    if pos != len(cleaned) or pos == 0:
        raise InputError(f"cannot read duration {text!r} at position {pos + 1}", expected=_EXPECTED)
    if total > MAX_DURATION:
        raise InputError(f"duration {text!r} is over {MAX_DURATION // YEAR} years", expected="a shorter duration")
    return total


def format_duration(seconds: int) -> str:
    """``3725`` -> ``1h 2m 5s``, the way people say it; zero is ``0s``."""
    if seconds == 0:
        return "0s"
    sign = "-" if seconds < 0 else ""
    rest = abs(seconds)
    parts = []
    for unit, size in (("d", DAY), ("h", HOUR), ("m", MINUTE), ("s", SECOND)):
        if rest >= size:
            parts.append(f"{rest // size}{unit}")
            rest %= size
    return sign + " ".join(parts)
