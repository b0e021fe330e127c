"""Giving lost points back: KS first up to its original value, then the US (seed 001, VIII.2).

One function serves natural recovery, magical healing, potions and other items, so no path
can lift a stat above its original value.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from rulekeeper.systems.vi_viii_x.character import KS_NAMES, Character
from rulekeeper.systems.vi_viii_x.damage import StatChange

__all__ = ["recovery_order", "restore", "worst_pair"]


def recovery_order(
    character: Character, ks: str | None = None, us: str | None = None, exclude: Collection[str] = ()
) -> tuple[str, ...]:
    """The stats healing fills, in order: every KS (BU, CO, IN, EM), then every US in sheet order.

    With ``ks`` only that pair (its named ``us``, or all of its US); KS in ``exclude`` (a state
    made permanent) and their US are left out.
    """
    if ks is not None:
        if ks in exclude:
            return ()
        return (ks, us) if us else (ks, *character.us_of(ks))
    known = tuple(k for k in KS_NAMES if k not in exclude)
    unknown = tuple(n for n, s in character.us.items() if s.ks not in exclude)
    return known + unknown


def restore(
    character: Character,
    points: int,
    ks: str | None = None,
    us: str | None = None,
    exclude: Collection[str] = (),
) -> tuple[Character, tuple[StatChange, ...]]:
    """The character after up to ``points`` healed along :func:`recovery_order`; points nothing needs are lost."""
    new_ks = dict(character.ks)
    new_us = dict(character.us)
    changes: list[StatChange] = []
    left = points
    for stat in recovery_order(character, ks, us, exclude):
        if left <= 0:
            break
        secret = stat not in new_ks
        before = new_us[stat].current if secret else new_ks[stat].current
        gain = min(left, character.original(stat) - before)
        if gain <= 0:
            continue
        left -= gain
        if secret:
            new_us[stat] = replace(new_us[stat], current=before + gain)
        else:
            new_ks[stat] = replace(new_ks[stat], current=before + gain)
        changes.append(StatChange(stat, before, before + gain, secret=secret))
    return replace(character, ks=new_ks, us=new_us), tuple(changes)


def worst_pair(character: Character, exclude: Collection[str] = ()) -> tuple[str, str | None] | None:
    """The first lowered pair (BU, CO, IN, EM order): where acting while hurt does its daily harm.

    Reading: the seed names no stat for this extra damage, so it lands on the first KS whose
    pair has lost points, US first as any damage (VIII.1).
    """
    for ks in KS_NAMES:
        if ks in exclude:
            continue
        lowered_us = [n for n in character.us_of(ks) if character.us[n].current < character.us[n].original]
        if character.ks[ks].current < character.ks[ks].original or lowered_us:
            declared = character.us_of(ks)
            return ks, (lowered_us[0] if lowered_us else (declared[0] if declared else None))
    return None
