"""Export and import: a whole campaign as one JSON document.

```
{"format": "rulekeeper-campaign", "version": 1,
 "campaign": {"name", "system", "seed", "gm", "settings", "created"},
 "events":   [{"seq", "kind", "command", "dice", "outcome", "actors", "refs", "at", "until",
               "next_id", "next_id_after", "key", "base_version", "wall_time"}, ...],
 "final":    {"version", "state", "roles"}}
```

Importing re-runs the whole history in memory before anything is written: every command must
replay with its recorded dice to exactly its recorded outcome, every undo and redo must be one
the history allows, and the result must equal ``final``. A document that fails any of this is
refused with the reason (``InputError``) and the store is left untouched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from rulekeeper.campaign.commands import summarize
from rulekeeper.campaign.jsonable import dumps
from rulekeeper.campaign.replay import ReplayMismatch, replay_event
from rulekeeper.campaign.snapshots import seal
from rulekeeper.campaign.table import Table, initial_table
from rulekeeper.campaign.undo import check_reversal
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.serial import state_to_json
from rulekeeper.core.state import ROLL_RULES
from rulekeeper.errors import InputError, RulesError
from rulekeeper.limits import MAX_NAME_CHARS, MAX_TIMESTAMP
from rulekeeper.store.base import Store
from rulekeeper.store.memory import MemoryStore
from rulekeeper.store.records import CampaignRecord, EventRecord, NewCampaign, SnapshotRecord

__all__ = ["FORMAT", "FORMAT_VERSION", "check_history", "export_document", "import_document"]

FORMAT = "rulekeeper-campaign"
FORMAT_VERSION = 1


def _event_json(e: EventRecord) -> dict[str, Any]:
    return {
        "seq": e.seq,
        "kind": e.kind,
        "command": e.command,
        "dice": [list(d) for d in e.dice],
        "outcome": json.loads(e.outcome),
        "actors": list(e.actors),
        "refs": list(e.refs),
        "at": e.at,
        "until": e.until,
        "next_id": e.next_id,
        "next_id_after": e.next_id_after,
        "key": e.key,
        "base_version": e.base_version,
        "wall_time": e.wall_time,
    }


def _roles_json(record: CampaignRecord, table: Table) -> dict[str, Any]:
    return {"gm": record.gm, "players": dict(table.players), "npcs": sorted(table.npcs)}


def export_document(
    ruleset: Ruleset[Any], record: CampaignRecord, events: Sequence[EventRecord], table: Table
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "campaign": {
            "name": record.name,
            "system": record.system,
            "seed": record.seed,
            "gm": record.gm,
            "settings": dict(record.settings),
            "created": record.created,
        },
        "events": [_event_json(e) for e in events],
        "final": {
            "version": len(events),
            "state": state_to_json(ruleset, table.game),
            "roles": _roles_json(record, table),
        },
    }


# -- reading a document ---------------------------------------------------------------------------
def _models() -> Any:
    from typing import Annotated

    from pydantic import BaseModel, ConfigDict, Field, field_validator

    # Every number must fit the database's 64-bit columns and every time a calendar date, so that
    # nothing imported can break reading the database later.
    Int64 = Annotated[int, Field(ge=-(2**63), lt=2**63)]
    Count = Annotated[int, Field(ge=0, lt=2**63)]
    Time = Annotated[float, Field(ge=0, le=MAX_TIMESTAMP, allow_inf_nan=False)]
    Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]

    class Strict(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True)

    class CampaignPart(Strict):
        name: Name
        system: Name
        seed: Int64
        gm: Name
        settings: dict[str, Any]
        created: Time

        @field_validator("settings")
        @classmethod
        def _roll_rules(cls, value: dict[str, Any]) -> dict[str, Any]:
            # Which rules for rolls the history was played by: a revision this rulekeeper knows,
            # or replay would judge the same dice differently and call the history corrupt.
            rules = value.get("roll_rules", 1)
            if type(rules) is not int or not 1 <= rules <= ROLL_RULES:
                raise ValueError(f"roll_rules {rules!r} is not a revision this rulekeeper knows (1 to {ROLL_RULES})")
            return value

    class EventPart(Strict):
        seq: Annotated[int, Field(ge=1, lt=2**63)]
        kind: Name
        command: dict[str, Any]
        dice: list[list[int]]
        outcome: dict[str, Any]
        actors: list[Name]
        refs: list[Count]
        at: Int64
        until: Int64
        next_id: Count
        next_id_after: Count
        key: Name | None
        base_version: Count | None
        wall_time: Time

        @field_validator("dice")
        @classmethod
        def _pairs(cls, value: list[list[int]]) -> list[list[int]]:
            for pair in value:
                if len(pair) != 2 or pair[0] < 1 or not 1 <= pair[1] <= pair[0]:
                    raise ValueError(f"{pair} is not a (sides, value) pair of a die")
            return value

    class FinalPart(Strict):
        version: int
        state: dict[str, Any]
        roles: dict[str, Any]

    class Document(Strict):
        format: Literal["rulekeeper-campaign"]
        version: Literal[1]
        campaign: CampaignPart
        events: list[EventPart]
        final: FinalPart

    return Document


def _parse(document: Any) -> Any:
    from pydantic import ValidationError

    if not isinstance(document, Mapping):
        raise InputError(f"a campaign document is a JSON object, not {type(document).__name__}")
    fmt = document.get("format")
    if fmt != FORMAT:
        raise InputError(f"not a rulekeeper campaign export (format {fmt!r})", expected=f'"format": "{FORMAT}"')
    version = document.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise InputError(
            f"campaign format version {version!r} is not one this rulekeeper reads",
            expected=f'"version": {FORMAT_VERSION}',
        )
    try:
        return _models().model_validate(dict(document))
    except ValidationError as exc:
        from rulekeeper.validation_words import field_errors

        first = field_errors(exc.errors(include_url=False), located=False)[0]
        raise InputError(
            f"corrupt campaign document at {first['field']}: {first['message']}",
            expected=f"{first['expected']} (an export as rulekeeper writes it)",
            where=first["field"],
        ) from None
    except RecursionError:
        raise InputError("corrupt campaign document: nested too deeply", expected="an exported campaign") from None


def _record_of(event: Any) -> EventRecord:
    return EventRecord(
        seq=event.seq,
        kind=event.kind,
        command=event.command,
        dice=tuple((s, v) for s, v in event.dice),
        outcome=dumps(event.outcome),
        actors=tuple(event.actors),
        refs=tuple(event.refs),
        at=event.at,
        until=event.until,
        next_id=event.next_id,
        next_id_after=event.next_id_after,
        key=event.key,
        base_version=event.base_version,
        wall_time=event.wall_time,
    )


def check_history(
    ruleset: Ruleset[Any],
    record: CampaignRecord,
    events: Sequence[EventRecord],
    *,
    snapshot_every: int = 100,
    snapshots: list[SnapshotRecord] | None = None,
) -> Table:
    """Re-run a whole history, checking each event against what it recorded; the final table.

    Raises ``InputError`` naming the first event that does not hold. Fills ``snapshots`` (if
    given) with the snapshots a live campaign would have kept.
    """
    scratch = MemoryStore()
    new = NewCampaign(record.name, record.system, record.seed, record.gm, record.settings, record.created)
    rec = scratch.create_campaign(new)
    table = initial_table(ruleset, rec.settings)
    kept: dict[int, str] = {}
    last = 0
    for position, e in enumerate(events, start=1):
        where = f"event #{e.seq} ({summarize(e.command, e.refs)})"
        if e.seq != position:
            raise InputError(f"events are not numbered 1, 2, 3, ...: #{e.seq} is in place {position}")
        with scratch.writing(rec.id) as history:
            if e.key is not None and history.event_by_key(e.key) is not None:
                raise InputError(f"{where} reuses the idempotency key {e.key!r}")
            before = table
            if e.is_meta:
                try:
                    reversal = check_reversal(ruleset, rec, history, e.kind, e.refs)
                except RulesError as exc:
                    raise InputError(f"{where}: {exc}") from None
                table = reversal.table
                if tuple(e.actors) != reversal.actors:
                    raise InputError(f"{where} names characters {list(e.actors)}, not {list(reversal.actors)}")
                history.append(e)
                history.drop_snapshots(min(e.refs))
                kept = {v: d for v, d in kept.items() if v < min(e.refs)}
                snap = True
            else:
                if e.kind != e.command.get("kind"):
                    raise InputError(f"{where} is a {e.command.get('kind')!r} command filed as {e.kind!r}")
                expected_id = max(table.game.next_id, table.id_mark)
                if e.next_id != expected_id:
                    raise InputError(f"{where} starts ids at {e.next_id}, not {expected_id}")
                try:
                    table, _ = replay_event(ruleset, table, e, verify=True, seed=record.seed)
                except ReplayMismatch as exc:
                    raise InputError(f"{where} does not replay as recorded: {exc.reason}") from None
                history.append(e)
                snap = e.seq % snapshot_every == 0 or e.seq - last >= 2 * snapshot_every
            if (before.game.clock, table.game.clock) != (e.at, e.until):
                raise InputError(f"{where} records the clock going {e.at}s -> {e.until}s, not the replayed one")
            if snap:
                sealed = seal(ruleset, table, e.seq, history)
                history.put_snapshot(sealed)
                kept[e.seq] = sealed.data
                last = e.seq
    if snapshots is not None:
        snapshots.extend(SnapshotRecord(v, kept[v]) for v in sorted(kept))
    return table


def import_document(store: Store, document: Any, *, name: str | None = None) -> CampaignRecord:
    """Check ``document`` completely, then write it as a new campaign in one transaction."""
    from rulekeeper.campaign.facade import SNAPSHOT_EVERY, _check_name, _ruleset
    from rulekeeper.campaign.names import SLUG_FORM

    doc = _parse(document)
    part = doc.campaign
    ruleset = _ruleset(part.system)
    if ruleset.name != part.system:
        raise InputError(f"system {part.system!r} is not a canonical system name", expected=ruleset.name)
    target = _check_name(name if name is not None else part.name, "campaign name")
    if "/" in target or target in (".", ".."):
        # A campaign from before names were slugs may keep its name ("Saturday group" opens,
        # quoted, at its address), but not one no address can hold: "a/b" or ".." would be a
        # campaign nobody can open (an independent review).
        hint = "" if name is not None else '; import it under another name (--name, or "name" over the API)'
        raise InputError(f"campaign name {target[:40]!r} cannot stand in an address{hint}", expected=SLUG_FORM)
    _check_name(part.gm, "GM name")
    for e in doc.events:
        for actor in e.actors:
            _check_name(actor, f"character name in event #{e.seq}")
    if store.find_campaign(target) is not None:
        raise InputError(f"a campaign named {target!r} already exists", expected="another name (import ... --name)")
    record = CampaignRecord(0, target, part.system, part.seed, part.gm, part.settings, part.created, 0)
    events = [_record_of(e) for e in doc.events]
    if doc.final.version != len(events):
        raise InputError(f"final version {doc.final.version} does not match the {len(events)} events")
    snapshots: list[SnapshotRecord] = []
    try:
        table = check_history(ruleset, record, events, snapshot_every=SNAPSHOT_EVERY, snapshots=snapshots)
    except InputError:
        raise
    except RulesError as exc:
        raise InputError(f"corrupt campaign document: {exc}") from None
    if state_to_json(ruleset, table.game) != doc.final.state:
        raise InputError("the history does not lead to the document's final state")
    if _roles_json(record, table) != doc.final.roles:
        raise InputError("the history does not lead to the document's final roles")
    new = NewCampaign(target, part.system, part.seed, part.gm, part.settings, part.created)
    return store.create_campaign(new, events, snapshots)
