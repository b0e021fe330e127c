"""Campaigns and their members: create, import, show, settings, export, delete; invite, revoke,
list members, and "who am I"."""

from __future__ import annotations

import ipaddress
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import JSONResponse

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.campaign.members import Role, invite, revoke
from rulekeeper.store.records import CampaignRecord, MemberRecord
from rulekeeper.web.auth import Access, gm, member
from rulekeeper.web.commands import IdempotencyKey, IfMatch, execute, gm_only, viewer_in
from rulekeeper.web.models import (
    CampaignCreated,
    CampaignView,
    CommandResponse,
    ImportRequest,
    Invited,
    InviteRequest,
    Me,
    NewCampaignRequest,
    SettingsChange,
)
from rulekeeper.web.problems import PROBLEM_RESPONSES, Problem
from rulekeeper.web.projections import Viewer, campaign_json, settings_json
from rulekeeper.web.server import Server, server_of

__all__ = ["join_url", "member_json", "router"]

router = APIRouter(responses=PROBLEM_RESPONSES)
ServerDep = Annotated[Server, Depends(server_of)]
MemberDep = Annotated[Access, Depends(member)]
GmDep = Annotated[Access, Depends(gm)]


def join_url(base: str, campaign: str, token: str) -> str:
    """The link a member opens: the campaign's join page, the token in its fragment."""
    from rulekeeper.links import join_link

    return join_link(base, campaign, token)


def member_json(m: MemberRecord) -> dict[str, Any]:
    return {
        "name": m.name,
        "role": m.role,
        "characters": list(m.characters),
        "token_id": m.token_id,
        "created": m.created,
        "expires": m.expires,
        "revoked": m.revoked,
    }


def _created(server: Server, campaign: Campaign) -> dict[str, Any]:
    made = invite(server.store, campaign.record, campaign.gm, "gm")
    viewer = Viewer("gm", campaign.gm)
    return {
        "campaign": campaign_json(campaign, viewer),
        "gm_token": made.token,
        "join_url": join_url(server.base_url, campaign.name, made.token),
    }


def _loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is this machine too
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def _may_create(request: Request, server: Server) -> None:
    """Campaigns are started from the server's own machine unless ``serve --open-creation``: a
    server listening on the table's Wi-Fi for phones shouldn't take new campaigns from anyone there."""
    host = request.client.host if request.client else ""
    if not server.open_creation and not _loopback(host):
        raise Problem(
            403,
            "forbidden",
            "campaigns are created on the server's own machine (rulekeeper campaign new, or this API from "
            "127.0.0.1); rulekeeper serve --open-creation lets other machines create them",
        )


@router.post("/api/campaigns", status_code=201, response_model=CampaignCreated, tags=["campaigns"])
def create_campaign(body: NewCampaignRequest, server: ServerDep, request: Request) -> dict[str, Any]:
    """Create a campaign; the answer holds the GM's token, shown only this once. From the server's
    own machine, unless the server was started with ``--open-creation``."""
    _may_create(request, server)
    campaign = Campaign.create(server.store, body.name, body.system, seed=body.seed, gm=body.gm)
    return _created(server, campaign)


@router.post("/api/campaigns/import", status_code=201, response_model=CampaignCreated, tags=["campaigns"])
def import_campaign(body: ImportRequest, server: ServerDep, request: Request) -> dict[str, Any]:
    """Import an exported campaign (replayed and checked before anything is written). From the
    server's own machine, unless the server was started with ``--open-creation``."""
    _may_create(request, server)
    campaign = Campaign.import_(server.store, body.document, name=body.name)
    return _created(server, campaign)


@router.get(
    "/api/campaigns/{campaign}", tags=["campaigns"], response_model=CampaignView, response_model_exclude_unset=True
)
def show_campaign(access: MemberDep, server: ServerDep, response: Response) -> dict[str, Any]:
    """The campaign as the caller may see it: clock, characters, pending checks (GM: timers)."""
    with server.pool.use(access.record) as campaign:
        viewer = viewer_in(campaign, access)
        response.headers["ETag"] = f'"{viewer.seq(campaign.version)}"'
        return campaign_json(campaign, viewer)


@router.delete("/api/campaigns/{campaign}", status_code=204, tags=["campaigns"])
def delete_campaign(access: GmDep, server: ServerDep) -> Response:
    """Delete the campaign, its history and its members' tokens."""
    server.store.delete_campaign(access.record.name)
    server.pool.forget(access.record.id)
    return Response(status_code=204)


@router.get("/api/campaigns/{campaign}/export", tags=["campaigns"])
def export_campaign(access: GmDep, server: ServerDep) -> JSONResponse:
    """The whole campaign, history and dice included, as one JSON document."""
    with server.pool.use(access.record) as campaign:
        return JSONResponse(campaign.export())


@router.get("/api/campaigns/{campaign}/settings", tags=["campaigns"])
def show_settings(access: MemberDep, server: ServerDep) -> dict[str, Any]:
    """Who rolls each kind of check, and the rule options."""
    with server.pool.use(access.record) as campaign:
        return settings_json(campaign)


@router.patch(
    "/api/campaigns/{campaign}/settings",
    response_model=CommandResponse,
    response_model_exclude_unset=True,
    tags=["campaigns"],
)
def change_settings(
    body: SettingsChange,
    access: GmDep,
    server: ServerDep,
    response: Response,
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> dict[str, Any]:
    """Change automation levels, roll modes or rule options (merged; null restores a default)."""

    def command(campaign: Campaign, expected: int | None, key: str | None) -> CommandResult:
        options = body.options
        if body.roll_modes is not None:  # kept among the options, beside the rules' own
            options = {**(options or {}), "roll_modes": body.roll_modes}
        return campaign.set_settings(body.automation, options, expected_version=expected, key=key)

    return execute(server, access, response, command, if_match=if_match, key=idempotency_key, allowed=gm_only)


# -- members ---------------------------------------------------------------------------------
@router.get("/api/campaigns/{campaign}/me", tags=["members"], response_model=Me)
def whoami(access: MemberDep, server: ServerDep) -> dict[str, Any]:
    """The caller: name, role and the characters they play."""
    with server.pool.use(access.record) as campaign:
        viewer = viewer_in(campaign, access)
    return {
        "campaign": access.record.name,
        "name": viewer.name,
        "role": viewer.role,
        "characters": sorted(viewer.characters),
    }


@router.get("/api/campaigns/{campaign}/join", tags=["members"], response_model=Me)
def join(access: MemberDep, server: ServerDep) -> dict[str, Any]:
    """Where a join link lands: says who the token is for (pages replace this, issue 15)."""
    return whoami(access, server)


@router.get("/api/campaigns/{campaign}/members", tags=["members"])
def list_members(access: GmDep, server: ServerDep) -> dict[str, Any]:
    """Every member with a live token, and who plays which character."""
    members = [member_json(m) for m in server.store.members(access.record.id) if m.revoked is None]
    with server.pool.use(access.record) as campaign:
        roles = campaign.roles
    return {"gm": roles.gm, "members": members, "players": dict(roles.players), "npcs": sorted(roles.npcs)}


def _invite(server: Server, record: CampaignRecord, body: InviteRequest) -> dict[str, Any]:
    with server.pool.use(record) as campaign:
        known = list(campaign.state.characters)
    role: Role = body.role
    expires = None if body.expires_in is None else time.time() + body.expires_in
    made = invite(
        server.store, record, body.name, role, characters=body.characters, known_characters=known, expires=expires
    )
    return {
        "member": member_json(made.member),
        "token": made.token,
        "join_url": join_url(server.base_url, record.name, made.token),
    }


@router.post("/api/campaigns/{campaign}/members", status_code=201, response_model=Invited, tags=["members"])
def add_member(body: InviteRequest, access: GmDep, server: ServerDep) -> dict[str, Any]:
    """Invite a player (bound to characters), an observer or another GM; the token is shown once."""
    return _invite(server, access.record, body)


@router.delete("/api/campaigns/{campaign}/members/{name}", tags=["members"])
def revoke_member(
    access: GmDep,
    server: ServerDep,
    name: Annotated[str, Path(min_length=1, max_length=200, description="Member name or token id.")],
) -> dict[str, Any]:
    """End a member's tokens at once (live streams of theirs close too)."""
    count = revoke(server.store, access.record, name)
    return {"revoked": count}
