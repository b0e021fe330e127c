"""What a character card shows, read from a projected view (never from the state itself).

A card is the bars, numbers and marks the system's ruleset picks (``Ruleset.vitals``) out of the
dictionary that :mod:`rulekeeper.web.projections` produced for the viewer. A value the projection left out is
simply not shown, so a player's card cannot show more than the API gives that player: a
secret stat that only the GM's view carries appears only on the GM's card.
Nothing here decides a rule; it only reads the flags the rulesets computed (``reeling``,
``dying``, ``death_checks_at`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulekeeper.core.presentation import Bar, Stat

__all__ = ["Bar", "Card", "Stat", "card_of"]


@dataclass(frozen=True)
class Card:
    actor: str
    name: str
    access: str
    bars: tuple[Bar, ...] = ()
    stats: tuple[Stat, ...] = ()
    marks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    #: How the character stands (``Ruleset.standing``): dead, dying, unconscious, wounded, unhurt.
    standing: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)


def card_of(system: str, character: Mapping[str, Any], *, standing: str = "") -> Card:
    """The card of one projected character (``projections.character_json``)."""
    from rulekeeper.core import get_ruleset

    view: Mapping[str, Any] = character.get("view") or {}
    shown = get_ruleset(system).vitals(view, npc=bool(character.get("npc")))
    bars, stats, marks = shown.bars, shown.stats, shown.marks
    # Each condition once: a condition listed twice, or a mark saying what a condition chip
    # already says ("reeling", "Dying"), is shown as the chip alone.
    conditions = tuple(dict.fromkeys(str(c) for c in view.get("conditions") or ()))
    named = {c.casefold() for c in conditions}
    return Card(
        actor=str(character["actor"]),
        name=str(view.get("name") or character["actor"]),
        access=str(character.get("access", "table")),
        bars=tuple(bars),
        stats=tuple(stats),
        marks=tuple(m for m in dict.fromkeys(marks) if m.casefold() not in named),
        conditions=conditions,
        standing=standing,
        extra={k: character[k] for k in ("player", "npc") if k in character},
    )
