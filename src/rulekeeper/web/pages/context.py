"""What a page renders, built only from :mod:`rulekeeper.web.projections`.

A page shows the same dictionaries the API returns to the same viewer, so a player's page can
never carry more than that player's API responses do. The only additions are presentation:
character cards (:mod:`.vitals`), time left on the conditions the projection already names (in
rounds or minutes, as a table counts, never raw seconds), the combat tracker (:class:`Tracker`:
round, whose turn, who waits for which roll), log headings in words rather than command names,
and the newest part of the log instead of all of it (a long campaign has thousands of entries).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulekeeper.campaign import Campaign
from rulekeeper.core import ActionSpec, GameState, format_duration
from rulekeeper.core.waiting import Waiting, holding, what_waits
from rulekeeper.web.pages.vitals import Card, card_of
from rulekeeper.web.projections import Viewer, campaign_json, log_entry_json

__all__ = ["LOG_LIMIT", "Chip", "Table", "Tracker", "entry_heading", "recent_log", "spoken_duration", "table_of"]

#: Entries a page shows; the API's ``/log`` has the rest. Rendering them is most of a page's
#: cost (each carries its explanation), so a screenful, not a session.
LOG_LIMIT = 40

#: How a log entry's kind reads where players look (the GM's log keeps the command's summary).
_KIND_WORDS = {
    "add_character": "joins the table",
    "edit_character": "sheet changed",
    "update_character": "sheet updated from a file",
    "remove_character": "leaves the table",
    "rename_character": "renamed",
    "resolve": "a roll",
    "advance": "time passes",
    "next_round": "next round",
    "set_settings": "the table's settings change",
    "request": "a request to the GM",
    "approve": "a request approved",
    "decline": "a request declined",
    "settle_aside": "a delayed consequence settled",
    "undo": "undone",
    "redo": "redone",
}


@dataclass(frozen=True)
class Chip:
    name: str
    left: str | None = None


@dataclass(frozen=True)
class Tracker:
    """The fight as everyone at the table may see it: the round, the order and whose turn it is,
    and who waits for which roll (only the checks the viewer's projection holds)."""

    round: int | None = None
    order: tuple[str, ...] = ()
    current: str | None = None
    waits: tuple[str, ...] = ()
    #: The viewer's own characters' conditions with time left ("stunned, 3 rounds left").
    timers: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.order or self.waits or self.timers)


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
    tracker: Tracker = field(default_factory=Tracker)


def spoken_duration(seconds: int, round_seconds: int) -> str:
    """A span as a table says it: rounds under a minute ("3 rounds"), then minutes ("2 min"),
    hours and days -- never seconds, whose count means nothing at the table."""
    if seconds <= 0:
        return "now"
    if seconds < 60:
        rounds = -(-seconds // max(1, round_seconds))
        return "1 round" if rounds == 1 else f"{rounds} rounds"
    minutes = -(-seconds // 60)
    if minutes < 60:
        return f"{minutes} min"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{days} day" + ("s" if days != 1 else "")] if days else []
    if hours:
        parts.append(f"{hours} h")
    if minutes and not days:
        parts.append(f"{minutes} min")
    return " ".join(parts)


def _round_seconds(data: Mapping[str, Any]) -> int:
    return max(1, int(data.get("round_seconds") or 1))


def _chips(campaign: Campaign, card: Card, round_seconds: int, viewer: Viewer) -> list[Chip]:
    """The card's conditions, each once, with time left where the state gives an end: only names
    the projection already shows get one; bookkeeping (a fight's order) is no condition."""
    state = campaign.state
    hidden = campaign.ruleset.bookkeeping_conditions
    ends: dict[str, int] = {}
    for c in state.conditions_of(card.actor):
        if c.until is not None and c.name in card.conditions:
            ends[c.name] = min(ends.get(c.name, c.until), c.until)
    names = [n for n in dict.fromkeys(card.conditions) if n not in hidden]
    return [Chip(name, _left(state, ends[name], round_seconds, viewer) if name in ends else None) for name in names]


def _held_by(state: GameState[Any], due: int, viewer: Viewer) -> str | None:
    """Which roll something due at ``due`` waits for, as ``viewer`` may be told: its number as
    they count checks; ``""`` for a check they were never shown (a GM-secret one: neither it nor
    its wait is theirs to know); ``None`` when nothing holds it."""
    held = holding(state, due)
    if held is None:
        return None
    if viewer.is_gm:
        return f"#{held.id}"
    return f"#{viewer.check_id(held.id)}" if viewer.shown_check(held.id) else ""


def _left(state: GameState[Any], until: int, round_seconds: int, viewer: Viewer) -> str:
    """Time left, or, when its end is past but waits for a roll, which roll it waits for."""
    held = _held_by(state, until, viewer)
    if held:
        return f"ends once {held} is rolled"
    if held == "":
        return "ending"
    return f"{spoken_duration(until - state.clock, round_seconds)} left"


def entry_heading(entry: Mapping[str, Any], actions: Mapping[str, ActionSpec]) -> str:
    """A log entry's heading where players look: the action's title, or what the command did in
    words -- never a command or action's code name."""
    action = entry.get("action")
    if entry.get("kind") == "act" and action:
        spec = actions.get(str(action))
        return spec.title if spec is not None else str(action).replace("_", " ").replace(".", " ")
    kind = str(entry.get("kind") or "")
    return _KIND_WORDS.get(kind, kind.replace("_", " "))


def recent_log(campaign: Campaign, viewer: Viewer, *, actor: str | None = None) -> list[dict[str, Any]]:
    """The newest entries (newest first) as ``viewer`` may read them, each with its ``heading``."""
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
    actions = campaign.ruleset.actions()
    shown = (log_entry_json(campaign.ruleset, e, viewer) for e in reversed(entries))
    out = [{**e, "heading": entry_heading(e, actions)} for e in shown if e is not None][:LOG_LIMIT]
    if not viewer.is_gm:
        # A settings change lists option and check-kind names (code); the heading says it in words.
        out = [{**e, "explanation": []} if e["kind"] == "set_settings" else e for e in out]
    return out


def _pending_words(p: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A projected pending check (the viewer's own) in the words of ``core.waiting``: whose roll,
    and what it is for as the ruleset words it for this viewer."""
    stakes = p.get("stakes") if isinstance(p.get("stakes"), Mapping) else None
    what = (stakes or {}).get("for") or p.get("check") or p.get("label") or "a roll"
    actor = p.get("actor")
    name = names.get(str(actor), str(actor))
    said = str(what).casefold()
    who = (
        f"{name}: "
        if actor and not (said.startswith(str(actor).casefold()) or said.startswith(name.casefold()))
        else ""
    )
    return f"waiting for {who}{what} (#{p['id']})"


class _Views(Mapping[str, Mapping[str, Any]]):
    """The rules' views of the characters, each built only when the ruleset reads it: outside a
    fight no system reads any, and a page is rendered on every event."""

    def __init__(self, campaign: Campaign) -> None:
        self._campaign = campaign
        self._built: dict[str, Mapping[str, Any]] = {}

    def __getitem__(self, actor: str) -> Mapping[str, Any]:
        if actor not in self._built:
            if actor not in self._campaign.state.characters:
                raise KeyError(actor)
            self._built[actor] = self._campaign.ruleset.view(self._campaign.state, actor)
        return self._built[actor]

    def __contains__(self, actor: object) -> bool:
        return actor in self._campaign.state.characters

    def __iter__(self) -> Iterator[str]:
        return iter(self._campaign.state.characters)

    def __len__(self) -> int:
        return len(self._campaign.state.characters)


def _tracker(
    campaign: Campaign, viewer: Viewer, data: Mapping[str, Any], cards: Sequence[Card], chips: Mapping[str, list[Chip]]
) -> Tracker:
    state = campaign.state
    names = {c.actor: c.name for c in cards}
    # The order of a fight is what everyone at the table sees happen; the ruleset keeps it, read
    # from the rules' own views, and only the names the viewer's projection holds are shown.
    order, current = campaign.ruleset.turn_order(state, _Views(campaign))
    shown_order = tuple(names.get(a, a) for a in order if a in names)
    if viewer.is_gm:
        late = {w.pending.id: w for w in what_waits(state)}
        waits = tuple((late.get(p.id) or Waiting(p, 0)).text() for p in state.pending)
    else:
        waits = tuple(_pending_words(p, names) for p in data.get("pending") or ())
    own = [c for c in cards if c.access in ("gm", "player")] if not viewer.is_gm else []
    timers = tuple(f"{c.name}: {chip.name}, {chip.left}" for c in own for chip in chips.get(c.actor, ()) if chip.left)
    rnd = state.clock // _round_seconds(data) + 1 if order else None
    return Tracker(rnd, shown_order, names.get(current) if current else None, waits, timers)


def table_of(campaign: Campaign, viewer: Viewer, *, log_actor: str | None = None) -> Table:
    data = campaign_json(campaign, viewer)
    state = campaign.state
    per_round = _round_seconds(data)
    cards = [
        card_of(campaign.system, c, standing=campaign.ruleset.standing(state, c["actor"]).level)
        for c in data["characters"]
    ]
    mine = [c for c in cards if c.access in ("gm", "player")]
    others = [c for c in cards if c.access == "table"]
    chips = {c.actor: _chips(campaign, c, per_round, viewer) for c in cards}
    timers = []
    for t in data.get("timers", []):
        held = _held_by(state, int(t["due"]), viewer)
        due_in = (
            f"once {held} is rolled"
            if held
            else "now"
            if held == ""
            else spoken_duration(int(t["due"]) - state.clock, per_round)
        )
        timers.append({**t, "in": due_in})
    return Table(
        data=data,
        mine=mine,
        others=others,
        chips=chips,
        clock=format_duration(state.clock),
        timers=sorted(timers, key=lambda t: int(t["due"])),
        log=recent_log(campaign, viewer, actor=log_actor),
        # Said on the GM's page only: a GM-secret check is named in it.
        waiting=[w.text() for w in what_waits(state)] if viewer.is_gm else [],
        tracker=_tracker(campaign, viewer, data, cards, chips),
    )
