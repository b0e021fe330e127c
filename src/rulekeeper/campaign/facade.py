"""The :class:`Campaign` facade: the one API the CLI and the HTTP layer both use.

Every command is written in one store transaction: the idempotency key and the expected version
are checked, the table is brought up to the newest version, the command is applied, its event is
appended and the transaction commits -- or, if anything refuses, nothing is written at all. A
command reaching an object that is already current is worked out on the state it holds and
appended only if the store is still at that version (``campaign.presumed``); otherwise it is
worked out again on the stored history.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from rulekeeper.campaign.commands import apply_command, live_dice, summarize
from rulekeeper.campaign.jsonable import canonical, jsonable, record_text
from rulekeeper.campaign.names import check_name, check_sheet_text, check_slug
from rulekeeper.campaign.presumed import NotPresumed, PresumedHistory
from rulekeeper.campaign.reading import PlayerTimeline
from rulekeeper.campaign.replay import Loaded, Statuses, catch_up, load
from rulekeeper.campaign.results import (
    CampaignConflict,
    CheckAlreadyResolved,
    CommandResult,
    KeyReused,
    LogEntry,
    Roles,
    UndoPreview,
    steps_from_json,
    wall_time,
)
from rulekeeper.campaign.seat import Seat, SeatRefusal, TypedDiceRefused, judge_action, judge_resolve
from rulekeeper.campaign.sheet_sources import SheetSource, find_sheet_source, without_source_document
from rulekeeper.campaign.snapshots import SPAN, seal
from rulekeeper.campaign.table import Table, initial_table, merge_settings, settings_json
from rulekeeper.campaign.undo import plan_redo, plan_undo
from rulekeeper.core import engine
from rulekeeper.core.action import Action
from rulekeeper.core.explain import Step
from rulekeeper.core.frozen import evolve
from rulekeeper.core.play import Event, Outcome
from rulekeeper.core.ruleset import Ruleset, canonical_system_name, get_ruleset
from rulekeeper.core.state import ROLL_RULES, GameState, PendingCheck, Settings, Timer
from rulekeeper.dice.typed import typed_dice
from rulekeeper.errors import InputError, RuleRefusal, StoreError, UnknownNameError
from rulekeeper.limits import MAX_NAME_CHARS, MAX_REFUSAL_CHARS, MAX_REFUSALS_KEPT, MAX_ROUNDS
from rulekeeper.store.base import HistoryReader, HistoryWriter, Store, unknown_campaign
from rulekeeper.store.records import CampaignRecord, EventRecord, NewCampaign, RefusalRecord, SnapshotRecord

__all__ = ["SNAPSHOT_EVERY", "Campaign", "Planned", "log_entry"]

#: How many of the latest commands a player's refused resolve searches for the one that
#: resolved their check (``Campaign._already_resolved_for``).
RESOLVED_LATELY = 200
#: How many of the commands since a stale version a conflict lists at most (the latest).
CONFLICT_CHANGES = 200
#: A snapshot every this many events bounds a load to this many replayed commands.
SNAPSHOT_EVERY = 100
_SEED_RANGE = 2**63
_NAME_LIMIT = MAX_NAME_CHARS
#: Times a command is worked out outside the write lock before it waits its turn under the lock.
_OPTIMISTIC_TRIES = 5
#: How many refused attempts a campaign keeps for the GM to read.


def _ruleset(system: str) -> Ruleset[Any]:
    name = canonical_system_name(system)
    try:
        return get_ruleset(name)
    except ModuleNotFoundError:
        raise UnknownNameError(
            f"game system {name!r} is not available in this installation", expected="another game system"
        ) from None


def _check_name(name: str, what: str) -> str:
    return check_name(name, what)


def _check_key(key: str | None) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not key or len(key) > _NAME_LIMIT:
        raise InputError(f"bad idempotency key {key!r}", expected=f"1 to {_NAME_LIMIT} characters")
    return key


def _checked(
    command: dict[str, Any], expected_version: int | None, key: str | None
) -> tuple[dict[str, Any], str | None]:
    """A command's canonical form and its key, checked before anything is worked out."""
    command = canonical(command, "command")
    key = _check_key(key)
    if expected_version is not None and (isinstance(expected_version, bool) or not isinstance(expected_version, int)):
        raise InputError(f"bad expected version {expected_version!r}", expected="a whole number")
    return command, key


def _act_command(action: Action, dice: Sequence[int] | str | None) -> dict[str, Any]:
    return {"kind": "act", "action": action.to_json(), "dice": typed_dice(dice)}


@contextmanager
def _naming(campaign: str) -> Iterator[None]:
    """A store error about a row (a corrupt event) says which campaign it belongs to."""
    try:
        yield
    except StoreError as exc:
        if repr(campaign) in str(exc):
            raise
        raise type(exc)(f"campaign {campaign!r}: {exc}") from exc  # a StoreBusy stays one


@dataclass(frozen=True)
class Planned:
    """A command worked out on top of version ``loaded.version - 1``, ready to append: its
    ``event``, and the snapshot it keeps (or the snapshots it forgets) with it."""

    result: CommandResult
    loaded: Loaded
    event: EventRecord
    snapshot: SnapshotRecord | None = None
    drop_snapshots_from: int | None = None

    def write(self, history: HistoryWriter) -> None:
        history.append(self.event)
        if self.drop_snapshots_from is not None:
            history.drop_snapshots(self.drop_snapshots_from)
        if self.snapshot is not None:
            history.put_snapshot(self.snapshot)


def _outcome_from_record(record: Mapping[str, Any], state: GameState[Any]) -> Outcome[Any]:
    from pydantic import TypeAdapter

    from rulekeeper.core.check import CheckResult

    return Outcome(
        state=state,
        events=TypeAdapter(tuple[Event, ...]).validate_python(record.get("events", [])),
        pending=TypeAdapter(tuple[PendingCheck, ...]).validate_python(record.get("pending", [])),
        explanation=steps_from_json(record.get("explanation", [])),
        result=dict(record.get("result", {})),
        checks=TypeAdapter(tuple[CheckResult, ...]).validate_python(record.get("checks", [])),
    )


def log_entry(e: EventRecord, statuses: Statuses | None = None) -> LogEntry:
    """One stored event as the log shows it; ``statuses`` (from the undo and redo events) say
    whether it is undone or redone now -- without them it reads as it was when written."""
    if e.decoded is not None:
        record, steps = e.decoded
    else:
        record = json.loads(e.outcome)
        steps = steps_from_json(record.get("explanation", []))
    return LogEntry(
        seq=e.seq,
        kind=e.kind,
        summary=summarize(e.command, e.refs),
        at=e.at,
        until=e.until,
        wall_time=wall_time(e.wall_time),
        actors=tuple(e.actors),
        command=without_source_document(e.command),
        result=record.get("result", {}),
        explanation=steps,
        dice=tuple(e.dice),
        key=e.key,
        undone_by=statuses.undone_by.get(e.seq) if statuses is not None and e.seq in statuses.undone else None,
        redone_by=statuses.redone_by.get(e.seq) if statuses is not None else None,
        undoes=tuple(e.refs) if e.kind == "undo" else (),
        redoes=tuple(e.refs) if e.kind == "redo" else (),
    )


def _explanation(e: EventRecord) -> tuple[Step, ...]:
    if e.decoded is not None:  # the rules' own steps, equal to their record's (replays rely on it)
        return tuple(e.decoded[1])
    return steps_from_json(json.loads(e.outcome).get("explanation", []))


_log = logging.getLogger(__name__)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_REFUSAL_CHARS else text[: MAX_REFUSAL_CHARS - 1] + "…"


class Campaign:
    """One campaign: a game system, its characters and roles, settings, clock, dice and history.

    A ``Campaign`` object sees the campaign as of its last command or :meth:`refresh`; every
    command applies to the newest stored version (whatever other processes wrote meanwhile),
    unless ``expected_version`` says it must be based on a particular one. Use one object per
    thread (or request); the store behind it may be shared.
    """

    def __init__(
        self,
        store: Store,
        record: CampaignRecord,
        ruleset: Ruleset[Any],
        loaded: Loaded,
        *,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self._store = store
        self._record = record
        self._ruleset = ruleset
        self._loaded = loaded
        self.snapshot_every = snapshot_every
        #: Work commands out under the store's write lock straight away, skipping the optimistic
        #: read transaction. For an owner that lets one command at a time reach this object,
        #: on a store whose write lock is the campaign's alone (the server's pool on
        #: PostgreSQL): the read transaction would only add round trips.
        self.plan_under_lock = False
        #: Whether the next command is first worked out on what this object holds
        #: (``_presumed``): off once that found the store moved on, back on once this object is
        #: known current again (it caught up, or nobody else wrote before its last command).
        #: Two processes taking turns on one campaign would otherwise work each command out
        #: twice and wait for the database three times.
        self._presume = True
        self._timeline = PlayerTimeline()
        #: The newest events this object wrote, consecutive (at most a snapshot's span): a
        #: snapshot's seal covers them, and reading them back cost a round trip and the decoding
        #: of a hundred events every hundred commands. Events never change once stored.
        self._written: deque[EventRecord] = deque(maxlen=SPAN)
        self._roles: tuple[Mapping[str, str], frozenset[str], CampaignRecord, Roles] | None = None

    # -- making and finding campaigns ---------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        name: str,
        system: str,
        *,
        seed: int | None = None,
        settings: Settings | None = None,
        gm: str = "gm",
    ) -> Campaign:
        """A new, empty campaign. The seed defaults to a random one; settings are validated."""
        name = check_slug(name, "campaign name")
        gm = _check_name(gm, "GM name")
        ruleset = _ruleset(system)
        if seed is None:
            import secrets

            seed = secrets.randbelow(_SEED_RANGE)
        if isinstance(seed, bool) or not isinstance(seed, int) or not -_SEED_RANGE <= seed < _SEED_RANGE:
            raise InputError(f"seed {seed!r} is not valid", expected="a whole number that fits in 64 bits")
        merged = merge_settings(
            ruleset,
            Settings(),
            settings_json(settings)["automation"] if settings else None,
            settings_json(settings)["options"] if settings else None,
        )
        # The rules for rolls it is played by are recorded, so its history replays by them for good.
        stored = {**settings_json(merged), "roll_rules": ROLL_RULES}
        new = NewCampaign(name, ruleset.name, seed, gm, stored, time.time())
        if store.find_campaign(name) is not None:
            raise InputError(f"a campaign named {name!r} already exists", expected="a new name")
        record = store.create_campaign(new)
        return cls(store, record, ruleset, Loaded(initial_table(ruleset, record.settings), 0, 0))

    @classmethod
    def open(cls, store: Store, name: str, *, use_snapshots: bool = True) -> Campaign:
        """An existing campaign, loaded from its newest snapshot plus the events since.

        ``use_snapshots=False`` replays the whole history from the start instead.
        """
        record = store.find_campaign(name)
        if record is None:
            raise unknown_campaign(store, name)
        ruleset = _ruleset(record.system)
        with _naming(record.name), store.reading(record.id) as history:
            loaded = load(ruleset, record, history, use_snapshots=use_snapshots)
        campaign = cls(store, record, ruleset, loaded)
        if use_snapshots and (loaded.replayed > 2 * campaign.snapshot_every or loaded.bad_snapshot is not None):
            campaign._keep_snapshot()
        return campaign

    @classmethod
    def import_(cls, store: Store, document: Mapping[str, Any], *, name: str | None = None) -> Campaign:
        """A campaign rebuilt from an :meth:`export` document; see :mod:`rulekeeper.campaign.document`."""
        from rulekeeper.campaign.document import import_document

        record = import_document(store, document, name=name)
        return cls.open(store, record.name)

    # -- what it is ---------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._record.name

    @property
    def system(self) -> str:
        return self._record.system

    @property
    def ruleset(self) -> Ruleset[Any]:
        return self._ruleset

    @property
    def seed(self) -> int:
        return self._record.seed

    @property
    def gm(self) -> str:
        return self._record.gm

    @property
    def version(self) -> int:
        return self._loaded.version

    @property
    def state(self) -> GameState[Any]:
        return self._loaded.table.game

    @property
    def table(self) -> Table:
        """The state with the campaign's bookkeeping (sheets, players, NPCs)."""
        return self._loaded.table

    @property
    def roles(self) -> Roles:
        table, record = self._loaded.table, self._record
        players, npcs = table.players, table.npcs
        made = self._roles
        # Kept while the table's players and NPCs and the record stay the same objects (all
        # immutable; a command that does not touch them hands them on to the next table): a
        # request asks for them up to three times, each a copy of the players.
        if made is None or made[0] is not players or made[1] is not npcs or made[2] is not record:
            made = (players, npcs, record, Roles(gm=record.gm, players=dict(players), npcs=npcs))
            self._roles = made
        return made[3]

    @property
    def warnings(self) -> tuple[str, ...]:
        """What the last load noticed and worked around (an untrusted snapshot, say)."""
        return self._loaded.warnings

    @property
    def store(self) -> Store:
        return self._store

    @property
    def record(self) -> CampaignRecord:
        return self._record

    def player_timeline(self, upto: int | None = None, *, read: bool = True) -> PlayerTimeline:
        """The numbering players count (``campaign.reading.PlayerTimeline``), up to command
        ``upto`` at least (default: this campaign's version), or the newest in the store: read
        once, then only what was written since -- not even that when this object wrote it.
        ``read=False``: :class:`~rulekeeper.campaign.presumed.NotPresumed` rather than read the
        store (for an event loop, which must not wait on it)."""
        known = self._timeline
        wanted = self.version if upto is None else upto
        if known.upto >= wanted:
            return known  # nothing newer to count: no store read on a plain request
        written = self._written
        if written and written[0].seq <= known.upto + 1 and written[-1].seq >= wanted:
            # The commands this object wrote itself, already at hand (a player's own actions):
            # the newest ones, their seqs one after another (``_wrote``).
            newer = written[-1].seq - known.upto
            events = [written[i] for i in range(len(written) - newer, len(written))]
        elif not read:
            raise NotPresumed
        else:
            with self._store.reading(self._record.id) as history:
                if history.head() < known.upto:  # the history was cut short (a campaign made anew)
                    known = PlayerTimeline()
                events = history.events(after=known.upto)
        if events:
            known = known.extended(
                self._ruleset,
                ((e.seq, e.kind, _explanation(e), range(e.next_id, e.next_id_after)) for e in events),
            )
        self._timeline = known
        return known

    def refresh(self) -> int:
        """Catch up with commands other processes have written; returns the version."""
        with self._store.reading(self._record.id) as history:
            self._loaded = catch_up(self._ruleset, self._record, self._loaded, history)
        self._presume = True
        return self._loaded.version

    def pending(self) -> tuple[PendingCheck, ...]:
        return self.state.pending

    def view(self, actor: str, *, as_player: str | None = None) -> dict[str, Any]:
        """The GM's view of a character, or with ``as_player`` what that player may see.

        A player asking about a character they do not play is refused (``RuleRefusal``).
        """
        state = self.state
        if actor not in state.characters:
            known = ", ".join(sorted(state.characters)) or "none yet"
            raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}")
        if as_player is None:
            return self._ruleset.view(state, actor)
        if not self.roles.owns(as_player, actor):
            owner = self.roles.player_of(actor)
            who = f"played by {owner}" if owner else "played by the GM"
            raise RuleRefusal(f"{as_player} does not play {actor} ({who}); players see only their own characters")
        return self._ruleset.player_view(state, actor)

    # -- what a player may see -------------------------------------------------------------------
    def player_characters(self, as_player: str) -> tuple[str, ...]:
        """The characters ``as_player`` speaks for: a character id itself, or a player's name.

        Unknown names are bad input; naming an NPC or a GM-played character gives it alone.
        """
        if as_player in self.state.characters:
            return (as_player,)
        played = self.roles.characters_of(as_player)
        if played:
            return played
        known = ", ".join(sorted({*self.state.characters, *self.roles.players.values()})) or "none yet"
        raise InputError(f"{as_player!r} is neither a character nor a player here", expected=f"one of: {known}")

    def player_pending(self, as_player: str) -> list[dict[str, Any]]:
        """The checks waiting for ``as_player``'s dice, as the player may see them."""
        mine = set(self.player_characters(as_player))
        ruleset, state = self._ruleset, self.state
        timeline = self.player_timeline()  # ids counted as the player counts them (no GM secrets)
        mine_open = [
            p
            for p in state.pending
            if p.actor in mine and not ruleset.is_secret(p, state.settings) and timeline.shows_check(p.id)
        ]
        shown = [(p, ruleset.player_pending(state, p)) for p in mine_open]
        return [{**d, "id": timeline.check_id(p.id)} if "id" in d else d for p, d in shown]

    def player_views(self, as_player: str) -> dict[str, dict[str, Any]]:
        """``as_player``'s characters as the player sees them."""
        return {actor: self._ruleset.player_view(self.state, actor) for actor in self.player_characters(as_player)}

    def player_log(self, as_player: str, *, since: int | None = None, until: int | None = None) -> list[dict[str, Any]]:
        """The history of ``as_player``'s characters in the player's wording: what they may read
        of each entry is decided where the web's projections decide it (``campaign.reading``)."""
        from rulekeeper.campaign.reading import readable_steps

        mine = set(self.player_characters(as_player))
        timeline = self.player_timeline()
        out: list[dict[str, Any]] = []
        for entry in self.log(since=since, until=until):
            if not mine & set(entry.actors):
                continue
            lines = [text for _, text in readable_steps(self._ruleset, entry.explanation, mine.__contains__, timeline)]
            if lines:
                seq = timeline.seq(entry.seq)  # counted as the player counts (no GM secrets)
                out.append({"seq": seq, "at": entry.at, "undone": entry.undone_by is not None, "lines": lines})
        return out

    # -- commands ------------------------------------------------------------------------------
    def add_character(
        self,
        actor: str,
        sheet: Mapping[str, Any],
        *,
        player: str | None = None,
        npc: bool = False,
        expected_version: int | None = None,
        key: str | None = None,
        source: SheetSource | None = None,
    ) -> CommandResult:
        """Add a character; ``source`` is the sheet file it was read from, kept in the command so
        the character can be written back into it (:meth:`sheet_source`). A new character's id
        is a slug (``names.check_slug``); one already in a campaign's history is not checked again."""
        check_slug(actor, "character id")
        check_sheet_text(sheet)
        command: dict[str, Any] = {
            "kind": "add_character",
            "actor": actor,
            "sheet": dict(sheet),
            "player": player,
            "npc": npc,
        }
        if source is not None:
            command["source"] = source.to_json()
        return self._execute(command, expected_version, key)

    def update_character(
        self,
        actor: str,
        sheet: Mapping[str, Any],
        source: SheetSource,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Re-read a character from a changed sheet file: the new sheet, with everything play has
        moved (damage, conditions, timers) kept; undoable like any command."""
        check_sheet_text(sheet)
        command = {"kind": "update_character", "actor": actor, "sheet": dict(sheet), "source": source.to_json()}
        return self._execute(command, expected_version, key)

    def sheet_source(self, actor: str) -> SheetSource | None:
        """The sheet file ``actor`` was last added or updated from (through renames, skipping what is
        undone), or None for a character made from sheet fields."""
        if actor not in self.state.characters:
            raise UnknownNameError(f"unknown character {actor!r}", expected="a character of " + self.name)
        with self._store.reading(self._record.id) as reader:
            statuses = Statuses.of(reader.meta_events())
            events = reader.events(after=0)
        return find_sheet_source(events, statuses, actor)

    def edit_character(
        self,
        actor: str,
        changes: Mapping[str, Any],
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Change sheet fields (``None`` removes one, back to the system's default).

        Each stored value follows the new sheet unless play has moved it since (current HP after a
        wound stays); a field named in ``changes`` always takes the new sheet's value.
        """
        check_sheet_text(changes)
        command = {"kind": "edit_character", "actor": actor, "changes": dict(changes)}
        return self._execute(command, expected_version, key)

    def remove_character(
        self, actor: str, *, expected_version: int | None = None, key: str | None = None
    ) -> CommandResult:
        return self._execute({"kind": "remove_character", "actor": actor}, expected_version, key)

    def rename_character(
        self, actor: str, to: str, *, expected_version: int | None = None, key: str | None = None
    ) -> CommandResult:
        """Give a character a new id, with its conditions, timers, pending checks and role. The new
        id is a slug, as a new character's is (``names.check_slug``): checked here, when it is
        chosen, not when a stored rename replays."""
        check_slug(to, "character id")
        return self._execute({"kind": "rename_character", "actor": actor, "to": to}, expected_version, key)

    def act(
        self,
        action: Action,
        *,
        dice: Sequence[int] | str | None = None,
        expected_version: int | None = None,
        key: str | None = None,
        seat: Seat | None = None,
    ) -> CommandResult:
        """Apply one of the system's actions; ``dice`` are values rolled at the table for every
        roll it causes (all must be used; text as a person types it, see ``dice.typed``), else the
        campaign's seeded dice roll them.

        ``seat`` is who sends it (None: the GM at this machine). A player's action is judged by
        :func:`~rulekeeper.campaign.seat.judge_action`: refused (``SeatRefusal``, noted for the
        GM in :attr:`refusals`), or kept as a request for the GM (the result's ``request``)."""
        if seat is not None:
            verdict = judge_action(
                self._ruleset, self.state, self.table.npcs, seat, action, typed_dice=dice is not None
            )
            if verdict.refusal is not None:
                self._note_refusal(seat, summarize({"kind": "act", "action": action.to_json()}), verdict.refusal)
                verdict.refuse()
            if verdict.request:
                asked: dict[str, Any] = {"kind": "request", "by": seat.name, "action": action.to_json()}
                asked["others"] = list(verdict.others)
                return self._execute(asked, expected_version, key)
        command = _act_command(action, dice)
        try:
            return self._execute(command, expected_version, key, seat=seat)
        except TypedDiceRefused as refused:  # typed dice that reached another character's check
            if seat is not None:
                self._note_refusal(seat, summarize({"kind": "act", "action": action.to_json()}), str(refused))
            raise SeatRefusal(str(refused)) from None

    def resolve(
        self,
        pending_id: int,
        dice: Sequence[int] | str | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
        seat: Seat | None = None,
    ) -> CommandResult:
        """Resolve a pending check with dice typed at the table (or rolled by the campaign); a
        player (``seat``) only a check their own character rolls. Typed text is read as a person
        types it, and a misreading names how many dice the check takes."""
        if seat is not None:
            verdict = judge_resolve(self._ruleset, self.state, seat, pending_id)
            if verdict.refusal is not None:
                self._note_refusal(seat, f"resolve check #{pending_id}", verdict.refusal)
                self._already_resolved_for(seat, pending_id)
                verdict.refuse()
        count = None  # typed text is read knowing how many dice the check takes, to say so if misread
        if isinstance(dice, str):
            check = next((p.check for p in self.pending() if p.id == pending_id), None)
            count = None if check is None else len(check.dice_sides)
        command = {"kind": "resolve", "pending": pending_id, "dice": typed_dice(dice, count)}
        try:
            return self._execute(command, expected_version, key, seat=seat)
        except TypedDiceRefused as refused:  # surplus dice that reached another character's check
            if seat is not None:
                self._note_refusal(seat, f"resolve check #{pending_id}", str(refused))
            raise SeatRefusal(str(refused)) from None
        except (UnknownNameError, CampaignConflict):
            # A check gone because it was resolved (by another tab, or a command typed twice): say
            # by which entry, rather than "no pending check" or a list of what changed. A retry
            # with the same key never gets here: it is answered its first result before.
            # A player's search is bounded, as for their refused attempts (a stale If-Match sends
            # theirs here): the latest commands only.
            player = seat is not None and not seat.is_gm
            resolved = self.resolved_by(pending_id, within=RESOLVED_LATELY if player else None)
            if resolved is None:
                raise
            raise CheckAlreadyResolved(pending_id, resolved[0], resolved[1]) from None

    @property
    def refusals(self) -> list[dict[str, Any]]:
        """Members' attempts the seat refused, oldest first, for the GM: kept in the store, so
        they outlive a restart and every server process sees them (the newest
        ``limits.MAX_REFUSALS_KEPT``)."""
        return [r.to_json() for r in self._store.refusals(self._record.id)]

    def _already_resolved_for(self, seat: Seat, pending_id: int) -> None:
        """A player's own check, one players may see, gone because it was resolved (by the GM
        while they typed, or from their other device): they hear by which entry. Anything else
        keeps the seat's one answer, which tells nothing about the check."""
        if seat.is_gm or any(p.id == pending_id for p in self.state.pending) or pending_id >= self.state.next_id:
            return  # (an id never given out was never resolved)
        # Only the latest commands are searched: this is said to a player who pressed twice or
        # was beaten to it by the GM a moment ago, and reading the whole history for every
        # refused attempt let one player slow every table down (an independent review).
        found = self.resolved_by(pending_id, within=RESOLVED_LATELY)
        if found is None:
            return
        seq, summary, actor = found
        timeline = self.player_timeline()
        if seat.plays(actor) and pending_id not in timeline.hidden_checks and timeline.shows(seq):
            raise CheckAlreadyResolved(pending_id, seq, summary)

    def resolved_by(self, pending_id: int, *, within: int | None = None) -> tuple[int, str, str | None] | None:
        """The seq and summary of the command in effect that resolved pending check
        ``pending_id`` (the table's roll, or the engine's own when its kind turned auto), and
        whose check it was; ``within``: among the latest that many commands only."""
        events, statuses = self._log_events(None, None, None, latest=within)
        for e in reversed(events):
            if e.is_meta or e.seq in statuses.undone:
                continue
            record = e.decoded[0] if e.decoded is not None else json.loads(e.outcome)
            for ev in record.get("events", ()):
                if ev.get("kind") == "check-resolved" and (ev.get("data") or {}).get("id") == pending_id:
                    return e.seq, summarize(e.command, e.refs), ev.get("actor")
        return None

    def _note_refusal(self, seat: Seat, what: str, why: str) -> None:
        record = RefusalRecord(seat.name, seat.role, _cut(what), _cut(why), time.time())
        try:
            self._store.add_refusal(self._record.id, record, MAX_REFUSALS_KEPT)
        except StoreError as exc:  # the refusal stands; only the GM's note of it is lost
            _log.warning("could not keep a refusal of %s's attempt for the GM: %s", seat.name, exc)

    # -- requests to the GM --------------------------------------------------------------------
    def requests(self, *, by: str | None = None) -> list[dict[str, Any]]:
        """Players' requests, oldest first (``by``: one member's only)."""
        return [dict(r) for r in self.table.requests if by is None or r["by"] == by]

    def approve(
        self,
        number: int,
        changes: Mapping[str, Any] | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Apply request ``number`` as the GM's own action, ``changes`` amending its parameters."""
        command: dict[str, Any] = {"kind": "approve", "request": number}
        if changes:
            command["set"] = dict(changes)
        return self._execute(command, expected_version, key)

    def decline(
        self, number: int, note: str | None = None, *, expected_version: int | None = None, key: str | None = None
    ) -> CommandResult:
        command: dict[str, Any] = {"kind": "decline", "request": number}
        if note:
            command["note"] = note
        return self._execute(command, expected_version, key)

    def advance(
        self,
        seconds: int,
        *,
        dice: Sequence[int] | str | None = None,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Let game time pass; timers fire in order. ``dice`` as for :meth:`act`."""
        command = {"kind": "advance", "seconds": seconds, "dice": typed_dice(dice)}
        return self._execute(command, expected_version, key)

    def next_round(
        self,
        count: int = 1,
        *,
        dice: Sequence[int] | None = None,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Advance ``count`` rounds (the system's round, or the ``round_seconds`` option) as one command:
        they all apply or none does."""
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ROUNDS:
            shown = repr(count) if len(repr(count)) <= 30 else "so many"
            raise InputError(f"cannot play {shown} rounds", expected=f"1 to {MAX_ROUNDS:,} rounds (docs/limits.md)")
        command: dict[str, Any] = {"kind": "next_round", "dice": None if dice is None else list(dice)}
        if count != 1:
            # Absent for one round, so commands recorded before counts existed read the same.
            command["count"] = count
        return self._execute(command, expected_version, key)

    def set_settings(
        self,
        automation: Mapping[str, str | None] | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """Change automation levels (``{KIND: "prompt"}``, kinds from ``ruleset.check_kinds``) or
        rule options; ``None`` as a value restores the default."""
        command = {
            "kind": "set_settings",
            "automation": None if automation is None else dict(automation),
            "options": None if options is None else dict(options),
        }
        return self._execute(command, expected_version, key)

    def set_aside(self) -> tuple[Timer, ...]:
        """Consequences that failed when they fell due, kept for the GM with the reason."""
        return engine.set_aside(self.state)

    def settle_aside(
        self,
        timer: int,
        do: str,
        changes: Mapping[str, Any] | None = None,
        *,
        expected_version: int | None = None,
        key: str | None = None,
    ) -> CommandResult:
        """``do`` is ``retry`` (at the next advance, with ``changes`` to its data) or ``drop``."""
        command: dict[str, Any] = {"kind": "settle_aside", "timer": timer, "do": do}
        if changes:
            command["changes"] = dict(changes)
        return self._execute(command, expected_version, key)

    def undo(
        self, seq: int | None = None, *, expected_version: int | None = None, key: str | None = None
    ) -> CommandResult:
        """Undo the newest command in effect, or command ``seq`` and every later command that
        depended on it (see :mod:`rulekeeper.campaign.undo` for what "depended" means)."""
        _check_command_number(seq)
        return self._execute({"kind": "undo", "seq": seq}, expected_version, key)

    def preview_undo(self, seq: int | None = None) -> UndoPreview:
        """What :meth:`undo` with the same ``seq`` would take with it, read without writing anything."""
        _check_command_number(seq)
        with self._store.reading(self._record.id) as history:
            reversal = plan_undo(self._ruleset, self._record, history, seq)
            version = history.head()
        return UndoPreview(version, reversal.refs, dict(reversal.reasons), reversal.steps, reversal.actors)

    def peek(self, action: Action) -> Outcome[Any] | None:
        """The outcome of ``action`` when it only reads (a view, a calculation), else None.

        An action that rolls no dice, raises no check and leaves the state as it was is not
        history: nothing is recorded, so undo and the log stay about what happened at the table.
        """
        from rulekeeper.core import engine
        from rulekeeper.dice.source import RecordingSource, SeededSource

        state = self.state
        source = RecordingSource(SeededSource(f"{self.seed}:peek"))
        outcome = engine.apply_action(self._ruleset, state, action, source)
        if source.record or outcome.pending or outcome.events or outcome.state != state:
            return None
        return outcome

    def redo(self, *, expected_version: int | None = None, key: str | None = None) -> CommandResult:
        """Re-apply what the most recent undo reversed, with the dice recorded the first time."""
        return self._execute({"kind": "redo"}, expected_version, key)

    # -- the transaction every command runs in ------------------------------------------------------
    def _execute(
        self, command: dict[str, Any], expected_version: int | None, key: str | None, *, seat: Seat | None = None
    ) -> CommandResult:
        command, key = _checked(command, expected_version, key)
        planned = self._presumption(command, expected_version, key, seat)
        if planned is not None:
            written = self._store.append_if_head(
                self._record.id, planned.event, planned.snapshot, planned.drop_snapshots_from
            )
            result = self.settle_presumed(planned, written)
            if result is not None:
                return result
        held = self._loaded.version
        # The rules run in a read transaction; the write lock is held only to check that nobody
        # wrote meanwhile and to append. If somebody did, the command is worked out again on top.
        for _ in range(0 if self.plan_under_lock else _OPTIMISTIC_TRIES):
            with _naming(self.name), self._store.reading(self._record.id) as reader:
                planned_here = self._plan(reader, command, expected_version, key, seat)
            if isinstance(planned_here, CommandResult):
                return planned_here
            with self._store.writing(self._record.id) as writer:
                if writer.head() != planned_here.loaded.version - 1:
                    continue
                planned_here.write(writer)
            self._wrote(planned_here, held)
            return planned_here.result
        # Writers that keep overtaking this one: work it out under the lock, so it still finishes.
        with self._store.writing(self._record.id) as writer:
            planned_here = self._plan(writer, command, expected_version, key, seat)
            if isinstance(planned_here, CommandResult):
                return planned_here
            planned_here.write(writer)
        self._wrote(planned_here, held)
        return planned_here.result

    # -- a command worked out on the held campaign, its write awaited by the caller --------------
    def presume_act(
        self,
        action: Action,
        *,
        dice: Sequence[int] | str | None = None,
        expected_version: int | None = None,
        key: str | None = None,
        seat: Seat | None = None,
    ) -> Planned | None:
        """:meth:`act` worked out on the campaign as this object holds it, not written: the
        caller appends its ``event`` with ``Store.append_if_head`` (or an awaitable equivalent)
        and hands the answer to :meth:`settle_presumed` before anything else touches this
        object. ``None`` when the action needs anything more -- a seat's refusal or request, the
        stored history, a refusal that the stored history must confirm, bad input -- and
        :meth:`act` must be called instead; nothing was noted or changed then."""
        if seat is not None:
            verdict = judge_action(
                self._ruleset, self.state, self.table.npcs, seat, action, typed_dice=dice is not None
            )
            if verdict.refusal is not None or verdict.request:
                return None  # act() notes the refusal, or turns the action into a request
        try:
            command, key = _checked(_act_command(action, dice), expected_version, key)
        except Exception:
            return None  # act() refuses it, in its own words
        return self._presumption(command, expected_version, key, seat)

    def settle_presumed(self, planned: Planned, written: bool) -> CommandResult | None:
        """The end of a presumed command: its result once ``written``; ``None`` when the store had
        moved on (or its key was used), and the command must be given again (:meth:`act`),
        to be worked out on the stored history."""
        if planned.loaded.version - 1 != self._loaded.version:
            raise RuntimeError("a presumed command was settled on a campaign that moved on meanwhile")
        if not written:
            # Worked out on the stored history next, which says whether this object may presume
            # again (``_wrote``).
            self._presume = False
            return None
        self._wrote(planned)
        return planned.result

    def _presumption(
        self, command: dict[str, Any], expected_version: int | None, key: str | None, seat: Seat | None
    ) -> Planned | None:
        """The command worked out on the campaign as this object holds it, ready to append if
        the store is still at that version (``campaign.presumed``); None when it needs the
        stored history (or this object is not known current), and nothing was written."""
        if not self._presume or command["kind"] in ("undo", "redo"):
            return None  # undo and redo read the history's undo and redo events
        try:
            planned = self._plan(PresumedHistory(self._loaded.version), command, expected_version, key, seat)
        except Exception:
            # NotPresumed, or a refusal that the stored history (newer, perhaps) must confirm:
            # worked out again there, it is refused (or applied) for certain.
            return None
        return planned if isinstance(planned, Planned) else None

    def _wrote(self, planned: Planned, held: int | None = None) -> None:
        """``planned`` is committed: it is the campaign now, and its event the newest written.
        ``held``: the version this object held before working it out on the stored history --
        the same as the one it was written on top of if nobody else wrote meanwhile."""
        if held is not None:
            self._presume = held == planned.loaded.version - 1
        self._loaded = planned.loaded
        written = self._written
        if written and written[-1].seq != planned.event.seq - 1:
            written.clear()  # someone else wrote in between: start again from this one
        written.append(planned.event)

    def _stored_before(self, seq: int) -> list[EventRecord] | None:
        """The stored events a seal at ``seq`` covers before ``seq`` itself, when this object
        wrote all of them (the last :data:`SPAN`, or every one since the first); else None."""
        written = self._written
        if not written or written[-1].seq != seq - 1:
            return None
        if written[0].seq > max(1, seq - SPAN):
            return None
        return list(written)

    def _plan(
        self,
        history: HistoryReader,
        command: dict[str, Any],
        expected_version: int | None,
        key: str | None,
        seat: Seat | None = None,
    ) -> Planned | CommandResult:
        """What ``command`` appends on top of ``history``'s head (or the earlier result of its key)."""
        if key is not None:
            earlier = history.event_by_key(key)
            if earlier is not None:
                return self._retried(history, earlier, command)
        head = history.head()
        if expected_version is not None and expected_version != head:
            # The latest commands since, at most CONFLICT_CHANGES of them: a version sent from
            # long ago must not read the whole history under the write lock (an independent
            # review: one player's stale If-Match, sent over and over, slowed every table).
            since = max(expected_version, head - CONFLICT_CHANGES, 0)
            changes = [] if expected_version > head else history.events(after=since)
            raise CampaignConflict(
                self.name, expected_version, head, [(e.seq, summarize(e.command, e.refs)) for e in changes]
            )
        loaded = catch_up(self._ruleset, self._record, self._loaded, history)
        if command["kind"] in ("undo", "redo"):
            return self._reverse(history, loaded, command, key)
        return self._apply(history, loaded, command, key, seat)

    def _event(
        self,
        seq: int,
        command: Mapping[str, Any],
        before: Table,
        after: Table,
        record: Mapping[str, Any],
        **fields: Any,
    ) -> EventRecord:
        return EventRecord(
            seq=seq,
            kind=str(command["kind"]),
            command=command,
            outcome=record_text(record),
            at=before.game.clock,
            until=after.game.clock,
            base_version=seq - 1,
            wall_time=time.time(),
            **fields,
        )

    def _apply(
        self, history: HistoryReader, loaded: Loaded, command: dict[str, Any], key: str | None, seat: Seat | None = None
    ) -> Planned:
        seq = loaded.version + 1
        table = loaded.table
        # Ids continue from the highest ever handed out, so an undone command's ids are never reused.
        start_id = max(table.game.next_id, table.id_mark)
        if start_id != table.game.next_id:
            table = table.with_game(evolve(table.game, next_id=start_id))
        dice = live_dice(command, table, self._record.seed, seq, self._ruleset, seat)
        applied = apply_command(self._ruleset, table, command, dice.source)
        dice.check_used()
        after = applied.table
        after = evolve(after, id_mark=max(start_id, after.game.next_id))
        event = self._event(
            seq,
            command,
            table,
            after,
            applied.record,
            dice=dice.recorded,
            actors=applied.actors,
            refs=(),
            next_id=start_id,
            next_id_after=after.game.next_id,
            key=key,
            decoded=None if applied.outcome is None else (applied.record, applied.outcome.explanation),
        )
        snapshot = loaded.snapshot
        keep: SnapshotRecord | None = None
        if seq % self.snapshot_every == 0 or seq - snapshot >= 2 * self.snapshot_every:
            keep = seal(self._ruleset, after, seq, history, (event,), stored=self._stored_before(seq))
            snapshot = seq
        result = CommandResult(
            seq=seq,
            version=seq,
            command=command,
            outcome=applied.outcome,
            # The rules' own steps, not a decoding of their JSON record (which gives equal steps:
            # replays depend on it) -- decoding was a sixth of a command's CPU.
            explanation=(
                applied.outcome.explanation
                if applied.outcome is not None
                else steps_from_json(applied.record["explanation"])
            ),
            result=applied.record["result"],
            event=event,
        )
        return Planned(result, Loaded(after, seq, snapshot, loaded.replayed), event, keep)

    def _reverse(self, history: HistoryReader, loaded: Loaded, command: dict[str, Any], key: str | None) -> Planned:
        seq = loaded.version + 1
        if command["kind"] == "undo":
            reversal = plan_undo(self._ruleset, self._record, history, command.get("seq"))
        else:
            reversal = plan_redo(self._ruleset, self._record, history)
        after = reversal.table
        done = "undone" if reversal.kind == "undo" else "redone"
        result_data: dict[str, Any] = {
            done: list(reversal.refs),
            "reasons": {str(k): v for k, v in reversal.reasons.items()},
        }
        record = {
            "result": result_data,
            "explanation": jsonable(reversal.steps),
            "events": [],
            "pending": [],
            "checks": [],
        }
        event = self._event(
            seq,
            command,
            loaded.table,
            after,
            record,
            dice=(),
            actors=reversal.actors,
            refs=reversal.refs,
            next_id=loaded.table.game.next_id,
            next_id_after=after.game.next_id,
            key=key,
        )
        result = CommandResult(
            seq=seq,
            version=seq,
            command=command,
            outcome=None,
            explanation=reversal.steps,
            result=result_data,
            undone=reversal.refs if reversal.kind == "undo" else (),
            redone=reversal.refs if reversal.kind == "redo" else (),
            event=event,
        )
        # Snapshots at or after the earliest reversed command folded it the other way.
        snapshot = seal(self._ruleset, after, seq, history, (event,), stored=self._stored_before(seq))
        return Planned(result, Loaded(after, seq, seq, loaded.replayed), event, snapshot, min(reversal.refs))

    def _retried(self, history: HistoryReader, earlier: EventRecord, command: Mapping[str, Any]) -> CommandResult:
        if dict(earlier.command) != dict(command):
            raise KeyReused(str(earlier.key), earlier.seq, summarize(earlier.command, earlier.refs))
        record = json.loads(earlier.outcome)
        outcome = None
        if earlier.kind in ("act", "resolve", "advance", "next_round"):
            state = load(self._ruleset, self._record, history, upto=earlier.seq).table.game
            outcome = _outcome_from_record(record, state)
        return CommandResult(
            seq=earlier.seq,
            version=earlier.seq,
            command=earlier.command,
            outcome=outcome,
            explanation=steps_from_json(record.get("explanation", [])),
            result=record.get("result", {}),
            undone=earlier.refs if earlier.kind == "undo" else (),
            redone=earlier.refs if earlier.kind == "redo" else (),
            retried=True,
            event=earlier,
        )

    def _keep_snapshot(self) -> None:
        """After a long replay (an upgraded database, say), store a snapshot so the next load is short."""
        loaded = self._loaded
        try:
            with self._store.writing(self._record.id) as history:
                if history.head() == loaded.version:
                    if loaded.bad_snapshot is not None:
                        history.drop_snapshots(loaded.bad_snapshot)
                    history.put_snapshot(seal(self._ruleset, loaded.table, loaded.version, history))
        except StoreError:
            return  # a read-only database still opens; the snapshot is only a cache
        self._loaded = replace(loaded, snapshot=loaded.version, replayed=0, bad_snapshot=None)

    # -- reading history -----------------------------------------------------------------------
    def log(
        self,
        *,
        actor: str | None = None,
        since: int | None = None,
        until: int | None = None,
        upto: int | None = None,
    ) -> list[LogEntry]:
        """The history, oldest first: every command, undo and redo, with dice and explanation.

        ``actor`` keeps entries concerning that character; ``since``/``until`` (game clock
        seconds) keep entries whose span of game time overlaps that window; ``upto`` reads the
        history as it stood at that version (its undos and redos included, none later), so the
        log can be read outside the campaign's lock and still match what was seen under it.
        Reads only the store, never this object's state.
        """
        events, statuses = self._log_events(actor, since, until, upto)
        return [log_entry(e, statuses) for e in events]

    def log_tail(
        self, last: int, *, actor: str | None = None, since: int | None = None, until: int | None = None
    ) -> tuple[list[LogEntry], int]:
        """The latest ``last`` entries of :meth:`log`, and how many entries come before them.

        With no filter only the entries returned are read in full, so a long history costs little
        to glance at; a filter reads every entry to choose among them.
        """
        last = max(0, last)
        if actor is None and since is None and until is None:
            # Every event is an entry and the head numbers them: read only the tail and the
            # undo and redo events that say which of it is undone.
            with _naming(self.name), self._store.reading(self._record.id) as history:
                earlier = max(0, history.head() - last)
                tail = history.events(after=earlier) if last else []
                statuses = Statuses.of(history.meta_events())
            return [log_entry(e, statuses) for e in tail], earlier
        events, statuses = self._log_events(actor, since, until)
        earlier = max(0, len(events) - last)
        return [log_entry(e, statuses) for e in events[earlier:]], earlier

    def _log_events(
        self,
        actor: str | None,
        since: int | None,
        until: int | None,
        upto: int | None = None,
        *,
        latest: int | None = None,
    ) -> tuple[list[EventRecord], Statuses]:
        """The events matching the filters, and which are undone or redone; ``upto``: as the
        history stood at that version; ``latest``: among the latest that many only (an undo comes
        after what it undoes, so their own undos say which of them are in effect)."""
        with _naming(self.name), self._store.reading(self._record.id) as history:
            after = 0 if latest is None else max(history.head() - latest, 0)
            events = history.events(after=after, until=upto)
        statuses = Statuses.of(e for e in events if e.is_meta)
        matching = []
        for e in events:
            if actor is not None and actor not in e.actors:
                continue
            low, high = min(e.at, e.until), max(e.at, e.until)
            if (since is not None and high < since) or (until is not None and low > until):
                continue
            matching.append(e)
        return matching, statuses

    def export(self) -> dict[str, Any]:
        """The whole campaign as one JSON document (see :mod:`rulekeeper.campaign.document`)."""
        from rulekeeper.campaign.document import export_document

        with _naming(self.name), self._store.reading(self._record.id) as history:
            events = history.events()
            loaded = load(self._ruleset, self._record, history)
        return export_document(self._ruleset, self._record, events, loaded.table)

    def verify(self) -> None:
        """Replay the whole history from the start and check it gives the stored state.

        Raises ``StoreError`` if a snapshot disagrees with the history or a command no longer
        replays as recorded.
        """
        from rulekeeper.campaign.document import check_history
        from rulekeeper.core.serial import state_to_json

        with _naming(self.name), self._store.reading(self._record.id) as history:
            events = history.events()
            fast = load(self._ruleset, self._record, history)
        try:
            table = check_history(self._ruleset, self._record, events)
        except InputError as exc:
            raise StoreError(f"campaign {self.name!r}: {exc}") from None
        if state_to_json(self._ruleset, table.game) != state_to_json(self._ruleset, fast.table.game):
            raise StoreError(f"campaign {self.name!r}: a snapshot disagrees with the history it summarises")


def _check_command_number(seq: object) -> None:
    """A command number to undo: a whole number a store can hold (checked before any query)."""
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq < 2**63):
        shown = repr(seq) if len(repr(seq)) <= 30 else "of more than 30 digits"
        raise InputError(f"bad command number {shown}", expected="a command number from the log")
