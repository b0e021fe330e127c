"""The join link: ``/campaigns/{campaign}/join#token=...`` signs a browser in to a campaign.

The token rides in the link's fragment, which a browser never sends to a server: it never
reaches an access log, a proxy, the browser's history (the page's script wipes it from the
address bar first thing) or a ``Referer``. The page (``join.html``, ``static/join.js``) hands
it over in a same-origin JSON POST, and this route keeps it in the campaign's cookie
(HttpOnly, SameSite=Strict: see :mod:`rulekeeper.web.pages.routes`).

* A link of the old form (``?token=``) is redirected to the fragment form, so links already
  sent keep working; the access log masks the token of that one request.
* A browser already signed in to the campaign as someone else is asked before its sign-in is
  replaced (a link from another site must not swap the GM's identity for another): the POST
  answers ``ask`` with both names, and only a second POST with ``replace`` switches.
"""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from rulekeeper.campaign.members import Identity
from rulekeeper.web.auth import Access, CampaignName, cookie_name, cookie_token, resolve
from rulekeeper.web.pages.templates import render
from rulekeeper.web.problems import Problem
from rulekeeper.web.server import Server, server_of

__all__ = ["JoinRequest", "router"]

router = APIRouter(include_in_schema=False)
ServerDep = Annotated[Server, Depends(server_of)]
#: How long a page's sign-in lasts in the browser (the token itself may end sooner).
COOKIE_SECONDS = 30 * 86400


class JoinRequest(BaseModel):
    """What the join page posts: the link's token, and whether to replace another sign-in."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)
    replace: bool = False


class Joined(BaseModel):
    status: Literal["signed-in", "ask"]
    campaign: str
    #: The campaign's page, where the join page goes next.
    location: str
    #: Who the link is for, e.g. "player ana".
    incoming: str
    #: Who this browser is signed in as now (when asked).
    current: str | None = None


def _path(campaign: str) -> str:
    return f"/campaigns/{quote(campaign, safe='')}"


def _who(identity: Identity) -> str:
    return f"{identity.role} {identity.name}"


@router.get("/campaigns/{campaign}/join", response_class=HTMLResponse)
def join_page(request: Request, campaign: CampaignName) -> Response:
    """The join page; an old ``?token=`` link is sent on to the fragment form. The page is the
    same for every campaign name, known or not: whether a token is good is said only to its
    holder's POST."""
    token = request.query_params.get("token")
    if token is not None:
        return RedirectResponse(
            f"{_path(campaign)}/join#token={quote(token[:200], safe='.-_~')}",
            status_code=303,
            headers={"Cache-Control": "no-store"},
        )
    context = {"campaign": campaign, "endpoint": f"{_path(campaign)}/join", "page": _path(campaign)}
    return render(request, "join.html", context)


def _own_page(request: Request) -> None:
    """The POST must come from the join page itself. The guard already holds a browser that has
    a cookie to this; one without (a stranger) must not be signed in to someone else's campaign
    by another site either (login forgery): JSON cannot be posted across sites without CORS,
    which this server never grants, and the browser's own ``Sec-Fetch-Site`` says where it came from."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise Problem(403, "forbidden", f"a join link is opened on this server's own page, not from a {site} page")
    content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if content_type != "application/json":
        raise Problem(415, "unsupported-media-type", 'send the token as JSON: {"token": "rk1...."}')


async def _read(request: Request) -> JoinRequest:
    """The body, read here (after :func:`_own_page`, so a cross-site post is refused as such)."""
    import json

    from pydantic import ValidationError

    try:
        return JoinRequest.model_validate(json.loads(await request.body()))
    except (ValueError, ValidationError):
        raise Problem(
            400, "bad-request", 'the join page sends {"token": "rk1....", "replace": false}; this was not that'
        ) from None


@router.post("/campaigns/{campaign}/join", response_model=Joined)
async def join(request: Request, campaign: CampaignName, server: ServerDep) -> Response:
    """Exchange a join link's token for the campaign's cookie (or ask first: see the module)."""
    _own_page(request)
    body = await _read(request)
    incoming: Access = await run_in_threadpool(resolve, server, body.token, campaign)
    held = cookie_token(request, campaign)
    if held and held != body.token and not body.replace:
        try:
            current: Identity | None = (await run_in_threadpool(resolve, server, held, campaign)).identity
        except Problem:
            current = None  # a revoked or expired sign-in: nothing to keep
        if current is not None and current.token_id != incoming.identity.token_id:
            asked = Joined(
                status="ask",
                campaign=campaign,
                location=_path(campaign),
                incoming=_who(incoming.identity),
                current=_who(current),
            )
            return JSONResponse(asked.model_dump(), headers={"Cache-Control": "no-store"})
    done = Joined(status="signed-in", campaign=campaign, location=_path(campaign), incoming=_who(incoming.identity))
    response = JSONResponse(done.model_dump(), headers={"Cache-Control": "no-store"})
    response.set_cookie(
        cookie_name(campaign),
        body.token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=COOKIE_SECONDS,
        path="/",
    )
    return response
