"""Characters from sheet files and back over HTTP: add, update in place and write back, through the
formats the campaign's system declares (``Ruleset.sheet_formats``); the GM only."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Response

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.campaign.sheet_files import add_from_file, export_to_file, update_from_file
from rulekeeper.web.auth import Access, gm
from rulekeeper.web.commands import IdempotencyKey, IfMatch, execute, gm_only
from rulekeeper.web.models import CommandResponse, SheetFileNew, SheetFileUpdate
from rulekeeper.web.problems import PROBLEM_RESPONSES
from rulekeeper.web.server import Server, server_of

__all__ = ["add_from_sheet_file", "router"]

router = APIRouter(responses=PROBLEM_RESPONSES)
ServerDep = Annotated[Server, Depends(server_of)]
GmDep = Annotated[Access, Depends(gm)]
Actor = Annotated[str, Path(min_length=1, max_length=200, description="Character id.")]
Format = Annotated[str, Path(min_length=1, max_length=40, description="A sheet format of the system, e.g. gcs.")]


def add_from_sheet_file(
    server: Server,
    access: Access,
    response: Response,
    format_name: str,
    body: SheetFileNew,
    *,
    if_match: str | None,
    key: str | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Add ``body``'s character from its document; the answer and the import report."""
    report: dict[str, Any] = {}

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        result, imported = add_from_file(
            campaign,
            body.actor,
            format_name,
            body.document,
            body.sheet,
            source=body.file_name or "",
            player=body.player,
            npc=body.npc,
            expected_version=expected,
            key=key,
        )
        report.update(imported.report(body.file_name or ""))
        return result

    answer = execute(server, access, response, command, if_match=if_match, key=key, allowed=gm_only)
    return answer, report


@router.post(
    "/api/campaigns/{campaign}/characters/files/{format_name}",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def add_character_from_file(
    format_name: Format,
    body: SheetFileNew,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Add a character from a sheet file's parsed document (a .gcs file, for a system that reads it)."""
    answer, report = add_from_sheet_file(
        server, access, response, format_name, body, if_match=if_match, key=idempotency_key
    )
    if report:
        answer["sheet_file"] = report
    return answer


@router.put(
    "/api/campaigns/{campaign}/characters/{actor}/files/{format_name}",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def update_character_from_file(
    actor: Actor,
    format_name: Format,
    body: SheetFileUpdate,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Re-read a character from its changed sheet file; damage, conditions and timers stay."""
    report: dict[str, Any] = {}

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        result, imported = update_from_file(
            campaign,
            actor,
            format_name,
            body.document,
            body.sheet,
            source=body.file_name or "",
            expected_version=expected,
            key=key,
        )
        report.update(imported.report(body.file_name or ""))
        return result

    answer = execute(server, access, response, command, if_match=if_match, key=idempotency_key, allowed=gm_only)
    if report:
        answer["sheet_file"] = report
    return answer


@router.get("/api/campaigns/{campaign}/characters/{actor}/files/{format_name}", tags=["characters"])
def export_character_to_file(actor: Actor, format_name: Format, access: GmDep, server: ServerDep) -> dict[str, Any]:
    """The character's original sheet file with what the table tracks (HP and FP damage) written in."""
    with server.pool.use(access.record) as campaign:
        return export_to_file(campaign, actor, format_name)
