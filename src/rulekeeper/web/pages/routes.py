"""The pages: GM dashboard, player page, dice and odds, and the join link that opens them.

Routes here only read: every change a page makes is a ``fetch`` of the JSON API (the same
operations, permissions, ``If-Match`` and problems as any client), and the page is kept live by
the campaign's event stream: each event makes the script fetch :func:`live`, the live sections
re-rendered for the same viewer.

A page authenticates with its campaign's cookie (``auth.cookie_name``), which the join link sets
(HttpOnly, so page scripts never hold the token; SameSite=Strict, so another site cannot post
with it; one per campaign, so a GM can keep another campaign's player page open beside).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from rulekeeper.errors import RulesError
from rulekeeper.web.auth import Access, CampaignName, cookie_name, cookie_token, gm, resolve
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
    "gm": ("board", "pending", "requests", "clock", "log", "status"),
    "player": ("turn", "mine", "checks", "requests", "others", "log", "status"),
}


def _access(request: Request, server: Server, campaign: str, token: str | None = None) -> Access:
    return resolve(server, token or cookie_token(request, campaign), campaign)


def _problem_page(request: Request, exc: Problem) -> HTMLResponse:
    return render(request, "problem.html", {"problem": exc}, status_code=exc.status)


@router.get("/campaigns/{campaign}/join", response_class=HTMLResponse)
def join(
    request: Request,
    campaign: CampaignName,
    server: ServerDep,
    token: Annotated[str, Query(min_length=1, max_length=200)],
) -> Response:
    """Where an invite link lands: keep the token in a cookie and open the page, so the token
    leaves the address bar (and the browser's history) at once. A browser already signed in to
    the campaign as someone else is asked first (a link from another site must not swap the
    GM's identity for another): the answer comes back as a same-origin POST."""
    try:
        incoming = _access(request, server, campaign, token)
    except Problem as exc:
        return _problem_page(request, exc)
    held = cookie_token(request, campaign)
    if held and held != token:
        try:
            current = _access(request, server, campaign, held).identity
        except Problem:
            current = None  # a revoked or expired sign-in: nothing to keep
        if current is not None and current.token_id != incoming.identity.token_id:
            context = {
                "campaign": campaign,
                "campaign_path": quote(campaign, safe=""),
                "current": f"{current.role} {current.name}",
                "incoming": f"{incoming.identity.role} {incoming.identity.name}",
                "token": token,
            }
            return render(request, "join_confirm.html", context)
    return _signed_in(request, campaign, token)


@router.post("/campaigns/{campaign}/join", response_class=HTMLResponse)
async def join_confirmed(request: Request, campaign: CampaignName, server: ServerDep) -> Response:
    """The answer of :func:`join`'s question (the guard lets only this server's pages post it);
    a form body (``token=...``), read here: the app has no form parser installed."""
    from urllib.parse import parse_qs

    from starlette.concurrency import run_in_threadpool

    body = await request.body()
    token = (parse_qs(body.decode("utf-8", "replace")).get("token") or [""])[0][:200]
    try:
        await run_in_threadpool(resolve, server, token, campaign)
    except Problem as exc:
        return _problem_page(request, exc)
    return _signed_in(request, campaign, token)


def _signed_in(request: Request, campaign: str, token: str) -> Response:
    response = RedirectResponse(f"/campaigns/{quote(campaign, safe='')}", status_code=303)
    response.set_cookie(
        cookie_name(campaign),
        token,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=30 * 86400,
    )
    return response


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
            out["members"] = [m for m in server.store.members(access.record.id) if m.revoked is None]
            out["sheet_formats"] = list(ruleset.sheet_formats().values())
        return out


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
