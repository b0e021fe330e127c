"""Sheet file formats a ruleset reads and writes (a GCS file for GURPS), declared by the ruleset.

Adapters (CLI, web, scenarios) never name a system's file format's owner: they ask the campaign's
ruleset for the format by its name (``ruleset.sheet_formats()``), read the file through it and, to
write a character back, hand the format the document it was imported from. A format only knows
documents and characters; the campaign keeps the original document (in the command that added or
updated the character) so writing back changes only what the table tracks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.core.ruleset import Ruleset

__all__ = ["SheetFormat", "SheetImport", "sheet_format"]


@dataclass(frozen=True)
class SheetImport:
    """A sheet read from a file, what it left out (by the file's own paths) and where the file's
    own computed values differ from what the ruleset derived."""

    sheet: Mapping[str, Any]
    unused: tuple[str, ...] = ()
    disagreements: tuple[str, ...] = ()

    def notes(self, source: str) -> list[str]:
        """The report as lines for a person ("<source>: dodge: derived 9, GCS says 10")."""
        lines = [f"{source}: {line}" for line in self.disagreements]
        if self.unused:
            lines.append(f"fields not used from {source}: " + ", ".join(self.unused))
        return lines

    def report(self, source: str = "") -> dict[str, Any]:
        """What the table is told about the import, as JSON: the same for the CLI, API and pages."""
        out: dict[str, Any] = {"unused": list(self.unused), "disagreements": list(self.disagreements)}
        if source:
            out["file"] = source
            out["notes"] = self.notes(source)
        return out


#: (parsed document, fields laid over the import, source name for errors) -> the import
Reader = Callable[[Any, Mapping[str, Any], str], SheetImport]
#: (the original document, the character as the table has it now) -> the document to write
Writer = Callable[[Mapping[str, Any], Any], dict[str, Any]]


@dataclass(frozen=True)
class SheetFormat:
    """One file format: its option name (``gcs``), a title for people, the file suffix, and how
    to read a document into a sheet and write the table's state back into an original document."""

    name: str
    title: str
    suffix: str
    read: Reader
    write: Writer | None = None


def sheet_format(ruleset: Ruleset[Any], name: str, *, writing: bool = False) -> SheetFormat:
    """The ruleset's format ``name``, or a clear refusal naming the formats it has."""
    formats = ruleset.sheet_formats()
    found = formats.get(name)
    if found is None or (writing and found.write is None):
        usable = [f.name for f in formats.values() if not writing or f.write is not None]
        verb = "writes" if writing else "reads"
        raise InputError(
            f"{ruleset.title} {verb} no {name} files",
            expected=("one of: " + ", ".join(usable)) if usable else f"a campaign whose system {verb} {name} files",
            where=name,
        )
    return found
