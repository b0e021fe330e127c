"""Characters, pending checks, time, undo/redo and the log of one campaign."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Response

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.errors import InputError, UnknownNameError
from rulekeeper.web.auth import Access, gm, member
from rulekeeper.web.commands import IdempotencyKey, IfMatch, execute, gm_only, seat_of, viewer_in
from rulekeeper.web.models import (
    AdvanceRequest,
    Character,
    CharacterEdit,
    CharacterNew,
    CommandResponse,
    GcsCharacterNew,
    LogEntry,
    Pending,
    ResolveRequest,
    RoundRequest,
    UndoRequest,
)
from rulekeeper.web.problems import PROBLEM_RESPONSES
from rulekeeper.web.projections import (
    character_json,
    characters_json,
    log_entry_json,
    pending_json,
    undo_preview_json,
)
from rulekeeper.web.server import Server, server_of

__all__ = ["router"]

router = APIRouter(responses=PROBLEM_RESPONSES)
ServerDep = Annotated[Server, Depends(server_of)]
MemberDep = Annotated[Access, Depends(member)]
GmDep = Annotated[Access, Depends(gm)]
Actor = Annotated[str, Path(min_length=1, max_length=200, description="Character id.")]
_MAX_SECONDS = 100 * 365 * 86400


def _unknown_character(campaign: Campaign, actor: str) -> UnknownNameError:
    known = ", ".join(sorted(campaign.state.characters)) or "none yet"
    return UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}")


# -- characters ------------------------------------------------------------------------------
@router.get(
    "/api/campaigns/{campaign}/characters",
    tags=["characters"],
    response_model=list[Character],
    response_model_exclude_unset=True,
)
def list_characters(access: MemberDep, server: ServerDep) -> list[dict[str, Any]]:
    """Every character: the GM's view, the player's own view, or what the table sees."""
    with server.pool.use(access.record) as campaign:
        return characters_json(campaign, viewer_in(campaign, access))


@router.get(
    "/api/campaigns/{campaign}/characters/{actor}",
    tags=["characters"],
    response_model=Character,
    response_model_exclude_unset=True,
)
def show_character(actor: Actor, access: MemberDep, server: ServerDep) -> dict[str, Any]:
    """One character, as the caller may see it."""
    with server.pool.use(access.record) as campaign:
        if actor not in campaign.state.characters:
            raise _unknown_character(campaign, actor)
        return character_json(campaign, actor, viewer_in(campaign, access))


@router.post(
    "/api/campaigns/{campaign}/characters",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def add_character(
    body: CharacterNew,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Add a character from sheet fields (the system's own names)."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.add_character(
            body.actor, body.sheet, player=body.player, npc=body.npc, expected_version=expected, key=key
        )

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key, allowed=gm_only)


@router.post(
    "/api/campaigns/{campaign}/characters/gcs",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def import_gcs_character(
    body: GcsCharacterNew,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Add a character from a GCS (.gcs) document, for a system that reads them (as ``files/gcs``)."""
    from rulekeeper.web.models import SheetFileNew
    from rulekeeper.web.sheet_file_routes import add_from_sheet_file

    as_file = SheetFileNew(
        actor=body.actor, document=body.gcs, sheet=body.sheet, file_name=None, player=body.player, npc=body.npc
    )
    answer, report = add_from_sheet_file(
        server, access, response, "gcs", as_file, if_match=if_match, key=idempotency_key
    )
    if report:
        answer["gcs"] = report
    return answer


@router.patch(
    "/api/campaigns/{campaign}/characters/{actor}",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def edit_character(
    actor: Actor,
    body: CharacterEdit,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Change sheet fields; play's changes since (a wound) stay unless the field is named."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.edit_character(actor, body.changes, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key, allowed=gm_only)


@router.delete(
    "/api/campaigns/{campaign}/characters/{actor}",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["characters"],
)
def remove_character(
    actor: Actor,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """The character leaves with its conditions, timers and pending checks."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.remove_character(actor, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key, allowed=gm_only)


# -- pending checks --------------------------------------------------------------------------
@router.get("/api/campaigns/{campaign}/pending", tags=["play"], response_model=list[Pending])
def list_pending(access: MemberDep, server: ServerDep) -> list[dict[str, Any]]:
    """Checks waiting for dice: all, with exact odds, for the GM; a player's own otherwise."""
    with server.pool.use(access.record) as campaign:
        return pending_json(campaign.ruleset, campaign.state, viewer_in(campaign, access), campaign.table.players)


@router.post(
    "/api/campaigns/{campaign}/pending/{pending_id}/resolve",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["play"],
)
def resolve_pending(
    pending_id: Annotated[int, Path(ge=1, le=2**31, description="The check's id (see pending).")],
    body: ResolveRequest,
    access: MemberDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Resolve a pending check with dice rolled at the table, or (no dice) the server's dice.
    A player may resolve only their own checks."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        viewer = viewer_in(campaign, access)
        # A player counts check ids without the ones hidden from players (campaign/reading.py);
        # whether they may resolve it at all is the seat's decision (campaign/seat.py).
        actual = pending_id if viewer.is_gm else viewer.actual_check(pending_id)
        return campaign.resolve(actual, body.dice, expected_version=expected, key=key, seat=seat_of(viewer))

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


# -- time ------------------------------------------------------------------------------------
@router.post(
    "/api/campaigns/{campaign}/round",
    response_model=list[CommandResponse],
    response_model_exclude_unset=True,
    tags=["play"],
)
def next_round(
    body: RoundRequest,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> list[dict[str, Any]]:
    """End the round (or several): one command, as the CLI's ``round N`` issues, so the rounds
    all apply or none does and one undo takes them back (a list of one, as before)."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.next_round(body.count, expected_version=expected, key=key)

    return [execute(server, access, response, command, if_match=if_match, key=idempotency_key)]


@router.post(
    "/api/campaigns/{campaign}/advance",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["play"],
)
def advance(
    body: AdvanceRequest,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Let game time pass; every timer that falls due fires, in order."""
    from rulekeeper.core import parse_duration

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        duration = body.duration
        if isinstance(duration, int):
            seconds = duration
        else:
            seconds = parse_duration(duration, round_seconds=campaign.ruleset.round_seconds)
        if not 0 <= seconds <= _MAX_SECONDS:
            raise InputError(f"cannot advance {seconds} seconds", expected="0 to 100 years")
        return campaign.advance(seconds, dice=body.dice, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


# -- undo and redo ---------------------------------------------------------------------------
@router.get("/api/campaigns/{campaign}/undo/preview", tags=["undo"])
def preview_undo(
    access: GmDep,
    server: ServerDep,
    response: Response,
    seq: Annotated[int | None, Query(ge=1, le=2**31, description="The command to undo; default the latest.")] = None,
) -> dict[str, Any]:
    """Every command an undo would take with it, and why -- nothing changes. Send the returned
    version as If-Match to undo exactly this."""
    with server.pool.use(access.record) as campaign:
        preview = campaign.preview_undo(seq)
        response.headers["ETag"] = f'"{preview.version}"'
        return undo_preview_json(campaign, preview)


@router.post(
    "/api/campaigns/{campaign}/undo", response_model=CommandResponse, response_model_exclude_unset=True, tags=["undo"]
)
def undo(
    body: UndoRequest,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Undo the latest command, or a chosen one with everything that depended on it."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.undo(body.seq, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


@router.post(
    "/api/campaigns/{campaign}/redo", response_model=CommandResponse, response_model_exclude_unset=True, tags=["undo"]
)
def redo(
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Redo what was last undone, with the same dice."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.redo(expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


# -- the log ---------------------------------------------------------------------------------
@router.get(
    "/api/campaigns/{campaign}/log", tags=["play"], response_model=list[LogEntry], response_model_exclude_unset=True
)
def read_log(
    access: MemberDep,
    server: ServerDep,
    character: Annotated[str | None, Query(min_length=1, max_length=200, description="Only this character.")] = None,
    since: Annotated[
        str | None, Query(min_length=1, max_length=40, description="From this game time, e.g. 1h.")
    ] = None,
    until: Annotated[str | None, Query(min_length=1, max_length=40, description="Up to this game time.")] = None,
    after: Annotated[int | None, Query(ge=0, le=2**31, description="Only entries after this seq.")] = None,
) -> list[dict[str, Any]]:
    """The history, oldest first; a player's copy has the GM-only lines removed."""
    from rulekeeper.core import parse_duration

    with server.pool.use(access.record) as campaign:
        rounds = campaign.ruleset.round_seconds
        viewer = viewer_in(campaign, access)
        version = campaign.version
    # Read and worded outside the campaign's lock, as the history stood at the version the
    # viewer's numbering was taken at: a long history read over and over (one player's loop)
    # held every command of the campaign back meanwhile (an independent review).
    entries = campaign.log(
        actor=character,
        since=None if since is None else parse_duration(since, round_seconds=rounds),
        until=None if until is None else parse_duration(until, round_seconds=rounds),
        upto=version,
    )
    since_seq = None if after is None else viewer.actual(after)  # ``after`` as the viewer counts
    shown = (log_entry_json(campaign.ruleset, e, viewer) for e in entries if since_seq is None or e.seq > since_seq)
    return [e for e in shown if e is not None]
