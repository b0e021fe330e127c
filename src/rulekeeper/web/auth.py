"""Identity: the FastAPI dependencies that turn a token into a member of one campaign.

A token (see :mod:`rulekeeper.campaign.members`) comes in ``Authorization: Bearer <token>``;
an ``EventSource`` in a browser cannot set headers, so the event stream also accepts
``?token=``, and pages (issue 15) use a cookie per campaign (:func:`cookie_name`), so one
browser can hold the GM's dashboard of one campaign and a player's page of another. A join
link carries its token in the fragment, never in an address a server sees
(:mod:`rulekeeper.web.pages.join`).

* no token, or one that is malformed, forged, expired or revoked: **401**;
* a good token used on another campaign, or a role that may not do this: **403**;
* a good token on a campaign that does not exist: **404**.

Use :func:`member` for anything a member may read, :func:`gm` for what only the GM may do.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.security.utils import get_authorization_scheme_param

from rulekeeper.campaign.members import Identity, TokenProblem, identify, identity_of, token_parts
from rulekeeper.store.base import AwaitedStore, AwaitedUnavailable
from rulekeeper.store.records import CampaignRecord
from rulekeeper.web.problems import Problem
from rulekeeper.web.server import Server, server_of

__all__ = [
    "COOKIE",
    "Access",
    "CampaignName",
    "awaited_access",
    "bearer_of",
    "cookie_name",
    "cookie_token",
    "gm",
    "member",
    "request_member",
    "token_of",
]

#: The single cookie of earlier versions, still read so a page opened before keeps working.
COOKIE = "rulekeeper_token"


def cookie_name(campaign: str) -> str:
    """The cookie holding a page's token for ``campaign``: one per campaign, named by a digest
    since a campaign's name may hold characters a cookie name cannot."""
    return f"{COOKIE}_{hashlib.sha256(campaign.encode()).hexdigest()[:16]}"


def cookie_token(request: Request, campaign: str) -> str | None:
    return request.cookies.get(cookie_name(campaign)) or request.cookies.get(COOKIE)


_NO_TOKEN = "this needs a campaign token: Authorization: Bearer <token>"

_bearer = HTTPBearer(auto_error=False, description="A campaign token: the GM's, a player's or an observer's.")

CampaignName = Annotated[str, Path(description="The campaign's name.", min_length=1, max_length=200)]


@dataclass(frozen=True)
class Access:
    """A request's member and the campaign it is for (checked to be the token's own)."""

    identity: Identity
    record: CampaignRecord


def bearer_of(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer`` header's value, read as FastAPI's
    ``HTTPBearer`` reads it."""
    scheme, credentials = get_authorization_scheme_param(authorization)
    return credentials if scheme.lower() == "bearer" and credentials else None


def token_of(request: Request, credentials: HTTPAuthorizationCredentials | str | None, campaign: str) -> str | None:
    """The request's token: the bearer's (``HTTPBearer``'s credentials or :func:`bearer_of`),
    else ``?token=`` on the event stream, else the page cookie."""
    bearer = credentials.credentials if isinstance(credentials, HTTPAuthorizationCredentials) else credentials
    if bearer:
        return bearer
    query = request.query_params.get("token")
    if query and request.url.path.endswith("/events"):
        return query
    return cookie_token(request, campaign)


def resolve(server: Server, token: str | None, campaign: str) -> Access:
    """Check ``token`` against ``campaign`` (the rules above); raises :class:`Problem`."""
    if not token:
        raise Problem(401, "unauthenticated", _NO_TOKEN)
    try:
        identity = identify(server.store, token)
    except TokenProblem as exc:
        raise Problem(401, "unauthenticated", exc.message) from None
    return _access(identity, server.find_campaign(campaign, identity.campaign_id), campaign)


def _access(identity: Identity, record: CampaignRecord | None, campaign: str) -> Access:
    if record is None:
        # No list of the known names: a token of one campaign learns nothing of the others.
        raise Problem(404, "not-found", f"no campaign named {campaign!r}")
    if record.id != identity.campaign_id:
        raise Problem(403, "forbidden", f"this token is not for campaign {campaign!r}")
    return Access(identity, record)


async def awaited_access(server: Server, awaited: AwaitedStore, token: str | None, campaign: str) -> Access | None:
    """:func:`resolve` for a command the event loop writes (``commands.execute_awaited``), its
    member as last read by this process: the write itself checks that the member still stands
    (``AwaitedConnection.append_if_head(standing=...)``), so a revoked token writes nothing even if
    it was revoked a moment ago. None when that would need a blocking read (a campaign this
    process has not looked up yet, no connection open this moment). Nothing else may trust
    what this answers."""
    if not token:
        raise Problem(401, "unauthenticated", _NO_TOKEN)
    try:
        token_id, secret = token_parts(token)
    except TokenProblem as exc:
        raise Problem(401, "unauthenticated", exc.message) from None
    member = server.known_members.get(token_id)
    if member is None:
        try:
            member = await awaited.member_by_token_id(token_id)
        except AwaitedUnavailable:
            return None  # no connection open this moment: the blocking path reads it
    try:
        identity = identity_of(member, secret)
    except TokenProblem as exc:
        server.known_members.pop(token_id, None)
        raise Problem(401, "unauthenticated", exc.message) from None
    assert member is not None  # identity_of refuses an unknown token
    server.remember_member(member)
    record = server.known_campaign(campaign, identity.campaign_id)
    if record is None:
        return None
    return _access(identity, record, campaign)


def request_member(
    request: Request, campaign: str, server: Server, credentials: HTTPAuthorizationCredentials | str | None
) -> Access:
    """The member a request speaks for: the one decision :func:`member` and the action dispatch
    (:mod:`rulekeeper.web.action_dispatch`, which skips FastAPI's dependencies) both make.
    Blocking (reads the store)."""
    return resolve(server, token_of(request, credentials, campaign), campaign)


def member(
    request: Request,
    campaign: CampaignName,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    server: Annotated[Server, Depends(server_of)],
) -> Access:
    """Any member of the campaign in the path: GM, player or observer."""
    return request_member(request, campaign, server, credentials)


async def gm(access: Annotated[Access, Depends(member)]) -> Access:
    """Only the campaign's GM."""
    if not access.identity.is_gm:
        raise Problem(
            403, "forbidden", f"only the GM may do this; you are {access.identity.role} {access.identity.name}"
        )
    return access
