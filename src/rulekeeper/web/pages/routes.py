"""The pages: GM dashboard, player page, dice and odds (the join link that opens them is
:mod:`rulekeeper.web.pages.join`).

Routes here only read: every change a page makes is a ``fetch`` of the JSON API (the same
operations, permissions, ``If-Match`` and problems as any client), and the page is kept live by
the campaign's event stream: each event makes the script fetch :func:`live`, the live sections
re-rendered for the same viewer.

A page authenticates with its campaign's cookie (``auth.cookie_name``), which the join page sets
(HttpOnly, so page scripts never hold the token; SameSite=Strict, so another site cannot post
with it; one per campaign, so a GM can keep another campaign's player page open beside).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from rulekeeper.campaign import Campaign
from rulekeeper.errors import RulesError
from rulekeeper.web.auth import Access, CampaignName, cookie_token, gm, resolve
from rulekeeper.web.commands import viewer_in
from rulekeeper.web.pages.chart import Column, bar_chart
from rulekeeper.web.pages.context import table_of
from rulekeeper.web.pages.forms import action_forms, field_of
from rulekeeper.web.pages.templates import render, sections
from rulekeeper.web.pages.turn import GROUPS, sheet_picks, turns_for
from rulekeeper.web.problems import Problem
from rulekeeper.web.projections import requests_json, set_aside_json
from rulekeeper.web.server import Server, server_of

__all__ = ["router"]

router = APIRouter(include_in_schema=False)
ServerDep = Annotated[Server, Depends(server_of)]
_LIVE = {
    "gm": ("board", "tracker", "pending", "requests", "clock", "log", "status", "members"),
    "player": ("tracker", "turn", "mine", "checks", "requests", "others", "log", "status"),
    "screen": ("tracker", "board", "log", "status"),
}
#: Whom the screen-share view is: an observer, so it shows what any observer's page shows.
SCREEN_VIEWER = "table screen"


def _access(request: Request, server: Server, campaign: str, token: str | None = None) -> Access:
    return resolve(server, token or cookie_token(request, campaign), campaign)


def _problem_page(request: Request, exc: Problem) -> HTMLResponse:
    return render(request, "problem.html", {"problem": exc}, status_code=exc.status)


def _context(server: Server, access: Access, log_actor: str | None, *, tools: bool = True) -> dict[str, Any]:
    """What a page renders; ``tools`` adds the GM's forms, settings and members (not live)."""
    with server.pool.use(access.record) as campaign:
        viewer = viewer_in(campaign, access)
        table = table_of(campaign, viewer, log_actor=log_actor)
        out: dict[str, Any] = {
            "t": table,
            "viewer": viewer,
            "campaign": campaign.name,
            "system": campaign.system,
            "kinds": campaign.ruleset.check_kinds,
            "requests": requests_json(campaign, viewer),
            "turn_groups": GROUPS,
        }
        # The player's own turns (web/pages/turn.py): live, so a defence appears when attacked.
        out["turns"] = turns_for(campaign, viewer)
        if viewer.is_gm:
            out["set_aside"] = set_aside_json(campaign)
            out["refusals"] = list(campaign.refusals)
            out["members"] = _members(server, access, campaign)
            out["viewer_token"] = access.identity.token_id
        if viewer.is_gm and tools:
            ruleset = campaign.ruleset
            names = list(campaign.state.characters)
            picks = sheet_picks(campaign)
            out["forms"] = action_forms(campaign.system, campaign.name, ruleset.actions(), names, picks)
            out["characters"] = names
            options = campaign.state.settings.options
            out["options"] = [
                field_of(p, group="options", prefix="opt", value=options.get(p.name)) for p in ruleset.rule_options
            ]
            settings = campaign.state.settings
            automation = settings.automation
            out["check_kinds"] = [
                {
                    "kind": k,
                    "help": h,
                    "level": automation[k].value if k in automation else "",
                    # Who sees it now, and whether that is the rules' own choice.
                    "mode": ruleset.roll_mode(settings, k),
                    "declared": ruleset.declared_roll_mode(k),
                }
                for k, h in sorted(ruleset.check_kinds.items())
            ]
            out["default_level"] = automation["*"].value if "*" in automation else "auto"
            out["sheet_formats"] = list(ruleset.sheet_formats().values())
        return out


def _members(server: Server, access: Access, campaign: Campaign) -> list[dict[str, Any]]:
    """Members with a live token: name, role, token id, and every character they play (those
    bound by the invite and those the campaign records them playing)."""
    roles = campaign.roles
    out = []
    for m in server.store.members(access.record.id):
        if m.revoked is None:
            plays = list(dict.fromkeys([*m.characters, *roles.characters_of(m.name)])) if m.role == "player" else []
            out.append({"name": m.name, "role": m.role, "token_id": m.token_id, "characters": plays})
    return out


def _screen_access(access: Access) -> Access:
    """The GM's sign-in seen as an observer (or an observer's own): the screen-share view is
    built, and kept live, through the very projection an observer's page gets (the same token,
    so revoking the link ends the screen too)."""
    if access.identity.role == "observer":
        # An observer's link for the TV: it already sees what the screen shows, and the TV then
        # holds no GM sign-in that someone at it could take to the dashboard.
        return access
    if not access.identity.is_gm:
        raise Problem(
            403,
            "forbidden",
            "the screen-share view is opened by the GM from the dashboard, or with an observer's link",
        )
    return replace(access, identity=replace(access.identity, role="observer", name=SCREEN_VIEWER, characters=()))


def _screen_context(server: Server, access: Access) -> dict[str, Any]:
    with server.pool.use(access.record) as campaign:
        viewer = viewer_in(campaign, access)
        return {"t": table_of(campaign, viewer), "viewer": viewer, "campaign": campaign.name, "system": campaign.system}


@router.get("/campaigns/{campaign}/screen", response_class=HTMLResponse)
def screen(request: Request, campaign: CampaignName, server: ServerDep) -> Response:
    """Screen-share mode: the table for a TV, as an observer sees it -- no unknown stat, blind
    check, NPC sheet or GM note reaches it, because it is rendered from the observer's projection."""
    try:
        access = _screen_access(_access(request, server, campaign))
    except Problem as exc:
        return _problem_page(request, exc)
    context = _screen_context(server, access)
    context["live"] = sections("screen_live.html", _LIVE["screen"], context)
    return render(request, "screen.html", context)


@router.get("/campaigns/{campaign}/screen/live")
def screen_live(request: Request, campaign: CampaignName, server: ServerDep) -> dict[str, Any]:
    """The screen-share view's live sections, re-rendered for the observer it is."""
    access = _screen_access(_access(request, server, campaign))
    context = _screen_context(server, access)
    shown = sections("screen_live.html", _LIVE["screen"], context)
    return {"version": context["t"].data["version"], "sections": {k: str(v) for k, v in shown.items()}}


@router.get("/campaigns/{campaign}/screen/events")
async def screen_events(
    request: Request,
    campaign: CampaignName,
    server: ServerDep,
    last_event_id: Annotated[int | None, Query(ge=0, le=2**31)] = None,
) -> Response:
    """The screen-share view's event stream: the campaign's live events as an observer gets
    them (the GM's own stream would carry the GM's log to the TV's browser)."""
    from starlette.concurrency import run_in_threadpool

    from rulekeeper.web.event_routes import events

    access = _screen_access(await run_in_threadpool(_access, request, server, campaign))
    header = request.headers.get("last-event-id")
    return await events(
        access=access, server=server, token=None, last_event_id_query=last_event_id, last_event_id=header
    )


@router.get("/campaigns/{campaign}", response_class=HTMLResponse)
def page(request: Request, campaign: CampaignName, server: ServerDep) -> Response:
    """The GM's dashboard, or a player's (or observer's) page, by the cookie's token."""
    try:
        access = _access(request, server, campaign)
    except Problem as exc:
        return _problem_page(request, exc)
    context = _context(server, access, None)
    kind = "gm" if access.identity.is_gm else "player"
    context["live"] = sections(f"{kind}_live.html", _LIVE[kind], context)
    return render(request, "dashboard.html" if kind == "gm" else "player.html", context)


@router.get("/campaigns/{campaign}/live")
def live(
    request: Request,
    campaign: CampaignName,
    server: ServerDep,
    character: Annotated[str | None, Query(max_length=200)] = None,
) -> dict[str, Any]:
    """The live sections of the caller's page, re-rendered; the script swaps them in."""
    access = _access(request, server, campaign)
    context = _context(server, access, character or None, tools=False)
    kind = "gm" if access.identity.is_gm else "player"
    shown = sections(f"{kind}_live.html", _LIVE[kind], context)
    return {"version": context["t"].data["version"], "sections": {k: str(v) for k, v in shown.items()}}


@router.post("/campaigns/{campaign}/qr")
def qr(
    _gm: Annotated[Access, Depends(gm)],
    text: Annotated[str, Body(embed=True, min_length=1, max_length=2000)],
) -> Response:
    """A QR code (SVG) of a join link, for a player to scan at the table. A POST, so the link
    and its token stay out of addresses and access logs."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=5, border=2, svgclass="qr", title="QR code of the link")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def _bound(text: str, what: str) -> int | None:
    from rulekeeper.errors import InputError

    text = text.strip()
    if not text:
        return None
    if not text.lstrip("-").isdigit() or abs(int(text)) > 10**6:
        raise InputError(f"{what} {text!r} is not a whole number", expected="a whole number, or empty")
    return int(text)


@router.get("/dice", response_class=HTMLResponse)
def dice(
    request: Request,
    expr: Annotated[str, Query(max_length=200)] = "3d6",
    at_least_text: Annotated[str, Query(alias="at_least", max_length=12)] = "",
    at_most_text: Annotated[str, Query(alias="at_most", max_length=12)] = "",
) -> Response:
    """Any expression's exact distribution as a chart, with at-least/at-most probabilities.
    The bounds are text because the page's form sends an empty field as an empty value."""
    from rulekeeper.dice import parse

    context: dict[str, Any] = {"expr": expr, "at_least": None, "at_most": None}
    try:
        at_least = _bound(at_least_text, "at least")
        at_most = _bound(at_most_text, "at most")
        context.update(at_least=at_least, at_most=at_most)
        dist = parse(expr).distribution()
    except (RulesError, ValueError) as exc:
        context["error"] = str(exc)
        return render(request, "dice.html", context, status_code=400)
    outcomes = [(int(v), Fraction(p)) for v, p in dist.outcomes()]

    def hit(v: int) -> bool:
        return (
            (at_least is None or v >= at_least)
            and (at_most is None or v <= at_most)
            and (at_least is not None or at_most is not None)
        )

    p_range = sum((p for v, p in outcomes if hit(v)), Fraction(0))
    context.update(
        mean=float(dist.mean),
        low=dist.min_value,
        high=dist.max_value,
        outcomes=outcomes,
        chart=bar_chart([Column(v, p, hit(v)) for v, p in outcomes[:400]], f"Distribution of {expr}"),
        p_range=p_range if at_least is not None or at_most is not None else None,
    )
    return render(request, "dice.html", context)
