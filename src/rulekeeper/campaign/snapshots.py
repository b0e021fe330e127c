"""Sealed snapshots: a folded table that names the events it summarises.

A snapshot is a cache: loading starts from it instead of replaying the whole history. A cache
that someone edited in the database would be believed silently, so each snapshot carries a
SHA-256 digest of its own table text together with the last :data:`SPAN` events it folds (their
commands, dice and outcomes); snapshots sealed by an earlier version, with the first form of the
digest, are still read. On load the digest is recomputed from the events in the store; a
snapshot that does not match -- edited, garbage, sealed over other events, or written before
snapshots were sealed -- is not used: the campaign is replayed from the start instead, and the
load reports it. (Anyone able to write the database can also recompute a digest; ``verify()``
replays everything and catches that too.)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from rulekeeper.campaign.table import Table, decode_table, encode_table
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.store.base import HistoryReader
from rulekeeper.store.records import EventRecord, SnapshotRecord

__all__ = ["SPAN", "SnapshotProblem", "seal", "seal_table", "unseal"]

#: How many of the newest events a snapshot's digest covers.
SPAN = 100
#: How a snapshot's data begins, by the digest it carries: the newest first (:data:`_SEALS`).
_HEAD = '{"digest_v2":"'
_HEAD_V1 = '{"digest":"'
_MIDDLE = '","table":'
_DIGEST_CHARS = 64


class SnapshotProblem(Exception):
    """A stored snapshot that cannot be trusted; ``reason`` says why."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"snapshot at #{version}: {reason}")
        self.version = version
        self.reason = reason


# Built once: json.dumps builds an encoder on every call that gives options (a seal encodes
# a hundred events).
_encode_event = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def _event_text(e: EventRecord, outcome: str | int) -> str:
    """An event's fields as JSON, with ``outcome`` where its outcome stands: the text itself
    (the first seal) or its length in bytes (the second)."""
    fields = [
        e.seq, e.kind, e.command, [list(d) for d in e.dice], outcome, list(e.actors), list(e.refs),
        e.at, e.until, e.next_id, e.next_id_after, e.key, e.base_version,
    ]  # fmt: skip
    return _encode_event(fields)


def _digest_v1(events: Sequence[EventRecord], table_text: str) -> str:
    """The first seal's digest: each event's fields, its outcome text among them, as one JSON
    text. Still read, so snapshots written before the second are not thrown away."""
    h = hashlib.sha256()
    for e in events:
        h.update(_event_text(e, e.outcome).encode("utf-8"))
        h.update(b"\n")
    h.update(table_text.encode("utf-8"))
    return h.hexdigest()


def _digest(events: Sequence[EventRecord], table_text: str) -> str:
    """The digest new snapshots carry: each event's fields as JSON, with its outcome text's
    length in bytes in place of the text, then the outcome text itself as stored. The same
    coverage as :func:`_digest_v1` in half the time: the outcome, most of an event, is hashed
    as it is instead of being escaped into a JSON string first (a seal covers a hundred)."""
    h = hashlib.sha256()
    for e in events:
        outcome = e.outcome.encode("utf-8")
        h.update(_event_text(e, len(outcome)).encode("utf-8"))  # JSON text never holds a raw newline
        h.update(b"\n")
        h.update(outcome)
        h.update(b"\n")
    h.update(table_text.encode("utf-8"))
    return h.hexdigest()


#: The seals a snapshot may carry, by how its data begins; new ones are sealed with the first.
_SEALS = ((_HEAD, _digest), (_HEAD_V1, _digest_v1))


def _covered(history: HistoryReader, version: int) -> list[EventRecord]:
    return history.events(after=max(0, version - SPAN), until=version)


def seal_table(version: int, table_text: str, covered: Sequence[EventRecord]) -> SnapshotRecord:
    """A snapshot at ``version`` of ``table_text``; ``covered`` are its last :data:`SPAN` events."""
    return SnapshotRecord(version, f"{_HEAD}{_digest(covered, table_text)}{_MIDDLE}{table_text}}}")


def seal(
    ruleset: Ruleset[Any],
    table: Table,
    version: int,
    history: HistoryReader,
    pending: Sequence[EventRecord] = (),
    *,
    stored: Sequence[EventRecord] | None = None,
) -> SnapshotRecord:
    """A sealed snapshot of ``table`` at ``version``; ``pending`` are events not yet in ``history``.

    ``stored``, when given, are the stored events just before ``pending`` (at least the last
    :data:`SPAN` of them, or all since the first), as the caller already holds them: read from
    ``history`` otherwise."""
    kept = version - len(pending)
    if stored is None:
        stored = _covered(history, version)
    covered = [e for e in stored if version - SPAN < e.seq <= kept] + list(pending)
    return seal_table(version, encode_table(ruleset, table), covered[-SPAN:])


def unseal(ruleset: Ruleset[Any], snapshot: SnapshotRecord, history: HistoryReader) -> Table:
    """The table in ``snapshot``, once its digest matches the stored events; else ``SnapshotProblem``."""
    data = snapshot.data
    head, digest = next(((h, d) for h, d in _SEALS if data.startswith(h)), ("", None))
    start = len(head) + _DIGEST_CHARS
    if digest is None or data[start : start + len(_MIDDLE)] != _MIDDLE or not data.endswith("}"):
        raise SnapshotProblem(snapshot.version, "it carries no digest of its events (unsealed or damaged)")
    table_text = data[start + len(_MIDDLE) : -1]
    if data[len(head) : start] != digest(_covered(history, snapshot.version), table_text):
        raise SnapshotProblem(snapshot.version, "it does not match the events it summarises")
    try:
        return decode_table(ruleset, table_text)
    except Exception as exc:  # a digest that matches garbage: still never worth a crash
        raise SnapshotProblem(snapshot.version, f"its table cannot be read ({type(exc).__name__})") from None
