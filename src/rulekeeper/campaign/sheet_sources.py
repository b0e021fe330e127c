"""The sheet file a character came from, kept in the history rather than the table.

A character added or updated from a file (a GCS document) carries the whole document in that
command's ``source``. The table and its snapshots never hold it, so loading a campaign, replaying
it and every page stay as light as before; only writing the character back (rare) reads the
history to find it: the newest command still in effect that added or updated the character,
followed back through renames.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.campaign.replay import Statuses
from rulekeeper.store.records import EventRecord

__all__ = ["SheetSource", "find_sheet_source", "without_source_document"]


@dataclass(frozen=True)
class SheetSource:
    """A sheet file as read: its format's name and the parsed document."""

    format: str
    document: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, "document": dict(self.document)}


def find_sheet_source(events: Sequence[EventRecord], statuses: Statuses, actor: str) -> SheetSource | None:
    name = actor
    for event in reversed(events):
        if event.is_meta or not statuses.active(event.seq):
            continue
        command = event.command
        if event.kind == "rename_character" and command.get("to") == name:
            name = str(command.get("actor"))
        elif event.kind in ("add_character", "update_character") and command.get("actor") == name:
            source = command.get("source")
            if isinstance(source, Mapping) and isinstance(source.get("document"), Mapping):
                return SheetSource(str(source.get("format")), source["document"])
            if event.kind == "add_character":
                return None
    return None


def without_source_document(command: Mapping[str, Any]) -> Mapping[str, Any]:
    """A command as logs show it: a kept sheet file is named by its format, not copied out whole."""
    source = command.get("source")
    if not isinstance(source, Mapping):
        return command
    return {**command, "source": {"format": source.get("format")}}
