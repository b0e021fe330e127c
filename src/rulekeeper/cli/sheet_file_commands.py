"""``char update NAME --gcs FILE`` and ``char export NAME --gcs FILE``: a character re-read from its
changed sheet file, and written back into it, through the campaign system's sheet formats."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulekeeper.cli.campaign_commands import parse_assignments, read_document
from rulekeeper.cli.names import resolve_actor
from rulekeeper.cli.output import console, emit_json
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["char_export", "char_update", "print_import_notes"]


def print_import_notes(notes: Sequence[str]) -> None:
    for line in notes:
        print(f"rulekeeper: note: {line}", file=sys.stderr)


def char_update(
    context: Context, actor: str, *, format_name: str, path: str, pairs: Sequence[str], as_json: bool
) -> None:
    from rulekeeper.campaign.sheet_files import update_from_file

    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    document = read_document(path)
    result, imported = update_from_file(campaign, actor, format_name, document, parse_assignments(pairs), source=path)
    if as_json:
        emit_json(
            {
                "campaign": campaign.name,
                "seq": result.seq,
                "actor": actor,
                "explanation": [step.text for step in result.explanation],
                "view": campaign.view(actor),
                format_name: imported.report(path),
            }
        )
        return
    print_import_notes(imported.notes(path))
    console().print(f"#{result.seq} updated {actor} from {path}:", highlight=False)
    for step in result.explanation:
        console().print(f"  {step.text}", highlight=False, markup=False)


def char_export(context: Context, actor: str, *, format_name: str, path: str, as_json: bool) -> None:
    from rulekeeper.campaign.sheet_files import export_to_file

    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    document = export_to_file(campaign, actor, format_name)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    try:
        # written beside and then moved over, so a failed write never leaves half a file
        partial = target.with_name(target.name + ".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}", expected="a writable file path") from None
    if as_json:
        emit_json({"campaign": campaign.name, "actor": actor, "file": path})
        return
    console().print(f"Wrote {actor} to {path}.", highlight=False)
