"""The turn sequence, fixed at the start of a fight (seed 004, "Combat Sequence").

Highest Basic Speed first. Among equal Basic Speeds with a PC involved, higher DX goes first;
any tie left is settled by a 3d roll at the start of combat (highest first). NPC-only ties are
the GM's call: they keep the order in which the GM listed them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby

__all__ = ["Combatant", "turn_order"]


@dataclass(frozen=True)
class Combatant:
    id: str
    basic_speed: float
    dx: int
    is_pc: bool


def turn_order(combatants: Sequence[Combatant], roll: Callable[[str], int]) -> tuple[str, ...]:
    """The order of play; ``roll(id)`` gives a 3d roll for a combatant still tied after DX.

    Rolls are asked for only where a tie needs them, in listed order, so a replay with the
    same dice gives the same order.
    """
    listed = {c.id: i for i, c in enumerate(combatants)}
    by_speed = sorted(combatants, key=lambda c: (-c.basic_speed, listed[c.id]))
    out: list[str] = []
    for _, group_iter in groupby(by_speed, key=lambda c: c.basic_speed):
        group = list(group_iter)
        if len(group) == 1 or not any(c.is_pc for c in group):
            out.extend(c.id for c in group)
            continue
        by_dx = sorted(group, key=lambda c: (-c.dx, listed[c.id]))
        for _, tied_iter in groupby(by_dx, key=lambda c: c.dx):
            tied = list(tied_iter)
            if len(tied) == 1:
                out.append(tied[0].id)
                continue
            rolls = {c.id: roll(c.id) for c in tied}
            out.extend(c.id for c in sorted(tied, key=lambda c: (-rolls[c.id], listed[c.id])))
    return tuple(out)
