"""The group effort bonus by group size, which seed 002 uses for chases and tracking.

The seed points to the "group effort chart" without giving it. The game's public rules page
"Play the Game: Group effort" (godsmonsters.com/Game/Rules/4/10) and its pocket sheet give +1
for 2-3 members, +2 for 4-7, +3 for 8-15 ... +10 for 1024 and more: one more for each doubling.
A lone individual gets nothing. The chart stops at +10; larger groups are read as continuing
the doubling pattern.
"""

from __future__ import annotations

from rulekeeper.errors import InputError

__all__ = ["group_effort_bonus"]


def group_effort_bonus(size: int) -> int:
    """+1 per doubling of the group: 1 -> 0, 2-3 -> 1, 4-7 -> 2, 8-15 -> 3 ..."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InputError(f"group size {size!r} is not valid", expected="a whole number of at least 1")
    return size.bit_length() - 1
