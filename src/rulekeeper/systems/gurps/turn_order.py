"""The turn sequence, fixed at the start of a fight (seed 004, "Combat Sequence").

Highest Basic Speed first. Among equal Basic Speeds with a PC involved, higher DX goes first;
any tie left is settled by a 3d roll at the start of combat (highest first). NPC-only ties are
the GM's call: they keep the order in which the GM listed them, and so do NPCs caught in a tie
with PCs: they roll once, as one side, and keep the GM's order among themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import groupby

__all__ = ["Combatant", "tie_rollers", "turn_order"]


@dataclass(frozen=True)
class Combatant:
    id: str
    basic_speed: float
    dx: int
    is_pc: bool


def _tied_groups(combatants: Sequence[Combatant]) -> list[list[Combatant] | Combatant]:
    """The order by the rules before any roll: a combatant, or a group still tied after DX."""
    listed = {c.id: i for i, c in enumerate(combatants)}
    by_speed = sorted(combatants, key=lambda c: (-c.basic_speed, listed[c.id]))
    out: list[list[Combatant] | Combatant] = []
    for _, group_iter in groupby(by_speed, key=lambda c: c.basic_speed):
        group = list(group_iter)
        if len(group) == 1 or not any(c.is_pc for c in group):
            out.extend(group)
            continue
        by_dx = sorted(group, key=lambda c: (-c.dx, listed[c.id]))
        for _, tied_iter in groupby(by_dx, key=lambda c: c.dx):
            tied = list(tied_iter)
            if len(tied) > 1 and any(c.is_pc for c in tied):
                out.append(tied)
            else:
                out.extend(tied)  # alone, or NPCs only: the GM's order
    return out


def _sides(tied: Sequence[Combatant], npc_side: bool) -> list[str]:
    """Who rolls in a tie: each PC, and the NPCs together as one side (``"orc1,orc2"``); each NPC
    alone without ``npc_side`` (campaigns stored before the NPCs kept the GM's order)."""
    npcs = [c.id for c in tied if not c.is_pc]
    if not npcs or not npc_side:
        return [c.id for c in tied]
    return [c.id if c.is_pc else ",".join(npcs) for c in tied if c.is_pc or c.id == npcs[0]]


def tie_rollers(combatants: Sequence[Combatant], *, npc_side: bool = True) -> tuple[str, ...]:
    """Who must roll 3d at the start of combat, in the order the rolls are asked for."""
    groups = _tied_groups(combatants)
    return tuple(side for entry in groups if isinstance(entry, list) for side in _sides(entry, npc_side))


def turn_order(
    combatants: Sequence[Combatant], roll: Callable[[str], int], *, npc_side: bool = True
) -> tuple[str, ...]:
    """The order of play; ``roll(side)`` gives the 3d roll of a side still tied after DX (a PC's id,
    or the tied NPCs' ids joined by commas).

    Rolls are asked for only where a tie needs them, in listed order, so a replay with the
    same dice gives the same order.
    """
    listed = {c.id: i for i, c in enumerate(combatants)}
    out: list[str] = []
    for entry in _tied_groups(combatants):
        if not isinstance(entry, list):
            out.append(entry.id)
            continue
        sides = _sides(entry, npc_side)
        rolls = {side: roll(side) for side in sides}
        ranked = sorted(sides, key=lambda side: (-rolls[side], listed[side.split(",")[0]]))
        out.extend(cid for side in ranked for cid in side.split(","))
    return tuple(out)
