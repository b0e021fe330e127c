"""``GET /``: the front door. The campaigns this browser has joined, and how to join one.

A browser's campaigns are the ones it holds a page cookie for (``auth.cookie_name``, set by
the join page) whose token still opens that campaign: the list is never taken from the
database alone, so a stranger -- no cookie, or only tokens that ended -- sees no campaign's
name. A cookie is named by a digest of its campaign's name, so the names are matched against
the database's list; a browser without any page cookie costs no database read at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from rulekeeper.web.auth import COOKIE, cookie_name, resolve
from rulekeeper.web.pages.templates import render
from rulekeeper.web.problems import Problem
from rulekeeper.web.server import Server, server_of

__all__ = ["Joined", "joined_campaigns", "router"]

router = APIRouter(include_in_schema=False)
ServerDep = Annotated[Server, Depends(server_of)]


@dataclass(frozen=True)
class Joined:
    """One campaign this browser may open, as the front page lists it."""

    name: str
    path: str
    system: str
    #: Who this browser is there, e.g. "player ana".
    who: str
    is_gm: bool


def _system_title(system: str) -> str:
    from rulekeeper.core import get_ruleset
    from rulekeeper.errors import RulesError

    try:
        return get_ruleset(system).title
    except RulesError:
        return system  # a plug-in no longer installed: its name is all we have


def joined_campaigns(server: Server, cookies: dict[str, str]) -> list[Joined]:
    """The campaigns whose page cookie in ``cookies`` holds a token that opens them, by name.
    Blocking (reads the store)."""
    prefix = COOKIE + "_"
    held = {k: v for k, v in cookies.items() if k.startswith(prefix) and v}
    if not held:
        return []
    out: list[Joined] = []
    for info in server.store.list_campaigns():
        token = held.get(cookie_name(info.name))
        if token is None or info.problem is not None:
            continue
        try:
            identity = resolve(server, token, info.name).identity
        except Problem:
            continue  # revoked, expired or of another campaign: not this browser's any more
        out.append(
            Joined(
                name=info.name,
                path=f"/campaigns/{quote(info.name, safe='')}",
                system=_system_title(info.system),
                who=f"{identity.role} {identity.name}",
                is_gm=identity.is_gm,
            )
        )
    return out


@router.get("/", response_class=HTMLResponse)
async def front(request: Request, server: ServerDep) -> Response:
    """The front page (server-rendered; its one script only reads a pasted link)."""
    joined = await run_in_threadpool(joined_campaigns, server, dict(request.cookies))
    return render(request, "front.html", {"joined": joined})
