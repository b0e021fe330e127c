"""Characters from sheet files and back: the one path the CLI, the API and the pages share.

The campaign's ruleset says which formats it reads and writes (:mod:`rulekeeper.core.sheet_format`);
these functions read a parsed document through the named format, add or update the character with
the document kept in the command, and write a character back into the document it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.campaign.jsonable import dumps, jsonable
from rulekeeper.campaign.sheet_sources import SheetSource
from rulekeeper.core.sheet_format import SheetImport, sheet_format
from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_DOCUMENT_BYTES

if TYPE_CHECKING:
    from rulekeeper.campaign.facade import Campaign
    from rulekeeper.campaign.results import CommandResult

__all__ = ["add_from_file", "export_to_file", "read_sheet_file", "update_from_file"]


def read_sheet_file(
    campaign: Campaign, format_name: str, document: Any, overrides: Mapping[str, Any] | None = None, source: str = ""
) -> SheetImport:
    """The sheet ``document`` gives in the campaign's system, with ``overrides`` laid over it.

    A document over the size of any file rulekeeper reads is refused before it is read: it would
    be kept whole in the history (a file read from disk is bounded the same way when read)."""
    fmt = sheet_format(campaign.ruleset, format_name)
    size = len(dumps(jsonable(document)).encode("utf-8"))
    if size > MAX_DOCUMENT_BYTES:
        raise InputError(
            f"{source or 'the ' + fmt.name + ' file'} is {size:,} bytes, over the limit",
            expected=f"a file of at most {MAX_DOCUMENT_BYTES:,} bytes",
            where=format_name,
        )
    return fmt.read(document, dict(overrides or {}), source)


def add_from_file(
    campaign: Campaign,
    actor: str,
    format_name: str,
    document: Any,
    overrides: Mapping[str, Any] | None = None,
    *,
    source: str = "",
    player: str | None = None,
    npc: bool = False,
    expected_version: int | None = None,
    key: str | None = None,
) -> tuple[CommandResult, SheetImport]:
    imported = read_sheet_file(campaign, format_name, document, overrides, source)
    result = campaign.add_character(
        actor,
        imported.sheet,
        player=player,
        npc=npc,
        expected_version=expected_version,
        key=key,
        source=SheetSource(format_name, document),
    )
    return result, imported


def update_from_file(
    campaign: Campaign,
    actor: str,
    format_name: str,
    document: Any,
    overrides: Mapping[str, Any] | None = None,
    *,
    source: str = "",
    expected_version: int | None = None,
    key: str | None = None,
) -> tuple[CommandResult, SheetImport]:
    imported = read_sheet_file(campaign, format_name, document, overrides, source)
    result = campaign.update_character(
        actor, imported.sheet, SheetSource(format_name, document), expected_version=expected_version, key=key
    )
    return result, imported


def export_to_file(campaign: Campaign, actor: str, format_name: str) -> dict[str, Any]:
    """``actor``'s original document in ``format_name``, with what the table tracks written into it."""
    fmt = sheet_format(campaign.ruleset, format_name, writing=True)
    assert fmt.write is not None
    kept = campaign.sheet_source(actor)
    if kept is None or kept.format != format_name:
        raise InputError(
            f"{actor} was not read from a {fmt.name} file, so there is no {fmt.title} document to write back",
            expected=f"a character added or updated from a {fmt.suffix} file",
            where=format_name,
        )
    return fmt.write(kept.document, campaign.state.characters[actor])
