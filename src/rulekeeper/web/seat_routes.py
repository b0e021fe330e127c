"""The GM's side of the player's seat: players' requests (approve, amend, decline), consequences
set aside when they failed, and the attempts the seat refused. The decisions live in the
campaign layer (``campaign.seat``, ``campaign.requests``); these routes only carry them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Response
from pydantic import BaseModel, ConfigDict, Field

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.web.auth import Access, gm, member
from rulekeeper.web.commands import IdempotencyKey, IfMatch, execute, viewer_in
from rulekeeper.web.models import CommandResponse
from rulekeeper.web.problems import PROBLEM_RESPONSES
from rulekeeper.web.projections import requests_json, set_aside_json
from rulekeeper.web.server import Server, server_of

__all__ = ["router"]

router = APIRouter(responses=PROBLEM_RESPONSES, tags=["requests"])
ServerDep = Annotated[Server, Depends(server_of)]
MemberDep = Annotated[Access, Depends(member)]
GmDep = Annotated[Access, Depends(gm)]
Number = Annotated[int, Path(ge=1, le=2**31, description="The request's number (see requests).")]
TimerId = Annotated[int, Path(ge=1, le=2**31, description="The set-aside consequence's id (see set-aside).")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ApproveRequest(_Strict):
    set: dict[str, Any] | None = Field(
        None, max_length=50, description="Parameters to amend before it applies (null removes one)."
    )


class DeclineRequest(_Strict):
    note: str | None = Field(None, min_length=1, max_length=500, description="Why, for the player.")


class SettleAside(_Strict):
    do: Literal["retry", "drop"] = Field(description="retry at the next advance, or drop it")
    changes: dict[str, Any] | None = Field(None, max_length=50, description="Fixes to its data before a retry.")


@router.get("/api/campaigns/{campaign}/requests")
def list_requests(access: MemberDep, server: ServerDep) -> list[dict[str, Any]]:
    """Players' actions on characters they do not play: all for the GM, a player's own otherwise."""
    with server.pool.use(access.record) as campaign:
        return requests_json(campaign, viewer_in(campaign, access))


@router.post(
    "/api/campaigns/{campaign}/requests/{number}/approve",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
)
def approve(
    number: Number,
    body: ApproveRequest,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Apply a waiting request as the GM's action, amended by ``set``, with the dice of now."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.approve(number, body.set, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


@router.post(
    "/api/campaigns/{campaign}/requests/{number}/decline",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
)
def decline(
    number: Number,
    body: DeclineRequest,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Decline a waiting request; nothing of it applies."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.decline(number, body.note, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


@router.get("/api/campaigns/{campaign}/set-aside")
def list_set_aside(access: GmDep, server: ServerDep) -> list[dict[str, Any]]:
    """Consequences that failed when they fell due, with why: the clock went on without them."""
    with server.pool.use(access.record) as campaign:
        return set_aside_json(campaign)


@router.post(
    "/api/campaigns/{campaign}/set-aside/{timer}",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
)
def settle_aside(
    timer: TimerId,
    body: SettleAside,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Retry a set-aside consequence (with fixes to its data) or drop it."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        return campaign.settle_aside(timer, body.do, body.changes, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key)


@router.get("/api/campaigns/{campaign}/refusals")
def list_refusals(access: GmDep, server: ServerDep) -> list[dict[str, Any]]:
    """Members' attempts the seat refused, newest last: the newest 200 (docs/limits.md), kept in the
    database, so they outlive a restart and every server process lists the same."""
    with server.pool.use(access.record) as campaign:
        return [dict(r) for r in campaign.refusals]
