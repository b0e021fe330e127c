"""What a page renders, built only from :mod:`rulekeeper.web.projections`.

A page shows the same dictionaries the API returns to the same viewer, so a player's page can
never carry more than that player's API responses do. The only additions are presentation:
character cards (:mod:`.vitals`), time left on the conditions the projection already names, and
the newest part of the log instead of all of it (a long campaign has thousands of entries).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekeeper.campaign import Campaign
from rulekeeper.core import GameState, format_duration
from rulekeeper.core.waiting import holding, what_waits
from rulekeeper.web.pages.vitals import Card, card_of
from rulekeeper.web.projections import Viewer, campaign_json, log_entry_json

__all__ = ["LOG_LIMIT", "Chip", "Table", "recent_log", "table_of"]

#: Entries a page shows; the API's ``/log`` has the rest. Rendering them is most of a page's
#: cost (each carries its explanation), so a screenful, not a session.
LOG_LIMIT = 40


@dataclass(frozen=True)
class Chip:
    name: str
    left: str | None = None


@dataclass(frozen=True)
class Table:
    """One viewer's picture of the campaign."""

    data: dict[str, Any]
    mine: list[Card]
    others: list[Card]
    chips: dict[str, list[Chip]]
    clock: str
    timers: list[dict[str, Any]]
    log: list[dict[str, Any]]
    waiting: list[str]


def _chips(campaign: Campaign, card: Card) -> list[Chip]:
    """The card's conditions, with time left where the state gives an end: only names the
    projection already shows get one."""
    state = campaign.state
    ends: dict[str, int] = {}
    for c in state.conditions_of(card.actor):
        if c.until is not None and c.name in card.conditions:
            ends[c.name] = min(ends.get(c.name, c.until), c.until)
    return [Chip(name, _left(state, ends[name]) if name in ends else None) for name in card.conditions]


def _left(state: GameState[Any], until: int) -> str:
    """Time left, or, when its end is past but waits for a roll, which roll it waits for."""
    held = holding(state, until)
    if held is not None:
        return f"ends once #{held.id} is rolled"
    return f"{format_duration(max(0, until - state.clock))} left"


def recent_log(campaign: Campaign, viewer: Viewer, *, actor: str | None = None) -> list[dict[str, Any]]:
    """The newest entries (newest first) as ``viewer`` may read them."""
    from rulekeeper.campaign.facade import log_entry
    from rulekeeper.campaign.replay import Statuses

    if actor is not None:
        entries = campaign.log(actor=actor)[-LOG_LIMIT * 2 :]
    else:
        with campaign.store.reading(campaign.record.id) as history:
            head = history.head()
            # Half as many again: some entries are not for a player at all.
            events = history.events(after=max(0, head - LOG_LIMIT * 3 // 2))
            statuses = Statuses.of(history.meta_events())
        entries = [log_entry(e, statuses) for e in events]
    shown = (log_entry_json(campaign.ruleset, e, viewer) for e in reversed(entries))
    return [e for e in shown if e is not None][:LOG_LIMIT]


def table_of(campaign: Campaign, viewer: Viewer, *, log_actor: str | None = None) -> Table:
    data = campaign_json(campaign, viewer)
    state = campaign.state
    cards = [
        card_of(campaign.system, c, standing=campaign.ruleset.standing(state, c["actor"]).level)
        for c in data["characters"]
    ]
    mine = [c for c in cards if c.access in ("gm", "player")]
    others = [c for c in cards if c.access == "table"]
    timers = []
    for t in data.get("timers", []):
        held = holding(state, int(t["due"]))
        due_in = f"once #{held.id} is rolled" if held else format_duration(max(0, int(t["due"]) - state.clock))
        timers.append({**t, "in": due_in})
    return Table(
        data=data,
        mine=mine,
        others=others,
        chips={c.actor: _chips(campaign, c) for c in cards},
        clock=format_duration(campaign.state.clock),
        timers=sorted(timers, key=lambda t: int(t["due"])),
        log=recent_log(campaign, viewer, actor=log_actor),
        # Said on the GM's page only: a GM-secret check is named in it.
        waiting=[w.text() for w in what_waits(state)],
    )
