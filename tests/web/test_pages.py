"""The pages in process: join links, role projections on pages, generated forms, dice page."""

from __future__ import annotations

import httpx

from rulekeeper.core import get_ruleset, system_names
from rulekeeper.web.auth import cookie_name
from rulekeeper.web.pages.forms import action_forms
from rulekeeper.web.pages.vitals import card_of

from .conftest import Table6810, make_table
from .web_support import InProcess


def _cookie(table: Table6810, who: str) -> dict[str, str]:
    return {"Cookie": f"{cookie_name(table.name)}={table.tokens[who]}"}


def _page(api: InProcess, table: Table6810, who: str, path: str = "") -> str:
    r = api.get(f"/campaigns/{table.name}{path}", headers=_cookie(table, who))
    assert r.status_code == 200, r.text
    return r.text


#: What a browser says of a request made by this server's own page.
_OWN_PAGE = {"Sec-Fetch-Site": "same-origin"}


def _join(api: InProcess, table: Table6810, token: str, **body: object) -> httpx.Response:
    """What the join page's script does with the token of its fragment."""
    return api.post(f"/campaigns/{table.name}/join", json={"token": token, **body}, headers=_OWN_PAGE)


def test_a_join_link_sets_an_httponly_cookie_and_a_bad_one_gets_a_problem_not_a_cookie(
    api: InProcess, table: Table6810
) -> None:
    page = api.get(f"/campaigns/{table.name}/join")
    assert page.status_code == 200 and '<script src="/static/join.js"' in page.text
    assert page.headers["cache-control"] == "no-store" and "set-cookie" not in page.headers
    r = _join(api, table, table.tokens["ana"])
    api._client.cookies.clear()  # the module's shared client must not keep ana's cookie
    assert r.status_code == 200, r.text
    assert r.json() == {
        "status": "signed-in",
        "campaign": table.name,
        "location": f"/campaigns/{table.name}",
        "incoming": "player ana",
        "current": None,
    }
    assert r.headers["cache-control"] == "no-store"
    cookie = r.headers["set-cookie"].lower()
    assert cookie.startswith(cookie_name(table.name)) and "httponly" in cookie and "samesite=strict" in cookie
    bad = _join(api, table, "rk1.nothing.here")
    assert bad.status_code == 401 and "set-cookie" not in bad.headers
    assert bad.headers["content-type"].startswith("application/problem+json")
    assert api.get(f"/campaigns/{table.name}").status_code == 401


def test_a_join_token_is_taken_only_as_json_from_the_page_itself(api: InProcess, table: Table6810) -> None:
    token = table.tokens["bea"]
    form = api.post(
        f"/campaigns/{table.name}/join",
        content=f"token={token}".encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded", **_OWN_PAGE},
    )
    assert form.status_code == 415 and "set-cookie" not in form.headers and "JSON" in form.json()["detail"]
    # Another site cannot sign a stranger's browser in to its campaign (login forgery).
    across = api.post(
        f"/campaigns/{table.name}/join", json={"token": token}, headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert across.status_code == 403 and "set-cookie" not in across.headers
    for junk in ({"token": ""}, {"token": token, "extra": 1}, {"nothing": True}, []):
        r = api.post(f"/campaigns/{table.name}/join", json=junk, headers=_OWN_PAGE)
        assert r.status_code == 400 and "set-cookie" not in r.headers, junk
        assert '{"token": "rk1....", "replace": false}' in r.json()["detail"]


def test_an_old_join_link_is_sent_on_to_the_fragment_form(api: InProcess, table: Table6810) -> None:
    token = table.tokens["obi"]
    r = api.get(f"/campaigns/{table.name}/join", params={"token": token}, follow_redirects=False)
    assert r.status_code == 303 and "set-cookie" not in r.headers
    assert r.headers["location"] == f"/campaigns/{table.name}/join#token={token}"
    assert r.headers["cache-control"] == "no-store"
    # The token is taken from the fragment only: an address holding it opens nothing by itself.
    assert api.get(f"/api/campaigns/{table.name}/join", params={"token": token}).status_code == 401


def test_one_browser_keeps_a_page_per_campaign(api: InProcess) -> None:
    """The GM of one campaign opens a player's invite to another in the same browser: both
    pages keep working, each with its own role (a single cookie made the first page 403)."""
    friday, sunday = make_table(api), make_table(api)
    try:
        for table, who in ((friday, "gm"), (sunday, "ana")):
            r = _join(api, table, table.tokens[who])
            assert r.status_code == 200 and r.json()["status"] == "signed-in", r.text
        gm_page, player_page = api.get(f"/campaigns/{friday.name}"), api.get(f"/campaigns/{sunday.name}")
        assert gm_page.status_code == 200 and player_page.status_code == 200
        assert "act-damage" in gm_page.text and "act-damage" not in player_page.text
        assert 'data-live="mine"' in player_page.text
        me = api.get(f"/api/campaigns/{sunday.name}/me").json()  # the page's fetches use the same cookie
        assert me["name"] == "ana" and me["role"] == "player"
    finally:
        api._client.cookies.clear()  # the module's shared client must not keep these cookies


def test_unknown_stats_are_on_the_gm_page_only(api: InProcess, table: Table6810) -> None:
    assert table.act(table.gm, "damage", "ranger", amount=2, us="VIG").status_code == 200  # type: ignore[attr-defined]
    gm = _page(api, table, "gm")
    assert "US VIG (BU)" in gm and "1/3" in gm
    for who in ("ana", "bea", "obi"):
        for text in (_page(api, table, who), _page(api, table, who, "/live")):
            assert "VIG" not in text and "QZX" not in text and "unknown" not in text, who


def test_a_player_page_has_its_own_sections_and_no_gm_tools(api: InProcess, table: Table6810) -> None:
    page = _page(api, table, "ana")
    assert 'data-live="mine"' in page and 'data-live="others"' in page
    assert "act-damage" not in page and "invite-form" not in page and "undo-form" not in page
    r = api.get(f"/campaigns/{table.name}/live", headers=_cookie(table, "ana"))
    assert set(r.json()["sections"]) == {"turn", "mine", "tracker", "checks", "requests", "others", "log", "status"}
    qr = api.post(f"/campaigns/{table.name}/qr", json={"text": "x"}, headers=_cookie(table, "ana"))
    assert qr.status_code == 403


def test_every_action_of_every_system_gets_a_form_with_every_parameter() -> None:
    for system in system_names():
        specs = get_ruleset(system).actions()
        forms = action_forms(system, "c", specs, ["a", "b"])
        assert [f.name for f in forms] == list(specs)
        for form, spec in zip(forms, specs.values(), strict=True):
            names = {f.name for f in form.fields}
            assert {f"params:{p.name}" for p in spec.params} <= names
            assert ("actor" in names) == (spec.actor != "none")
            assert form.endpoint == f"/api/campaigns/c/{system}/actions/{spec.name}"
            for f in form.fields:
                if f.kind == "character":
                    assert f.choices == ("a", "b")


def test_cards_read_only_what_the_projection_gave() -> None:
    us = {"VIG": {"ks": "BU", "current": 1, "original": 3}}
    gm = card_of(
        "vi-viii-x",
        {"actor": "r", "access": "gm", "view": {"name": "R", "bu": 5, "bu_original": 6, "unknown_stats": us}},
    )
    player = card_of("vi-viii-x", {"actor": "r", "access": "player", "view": {"name": "R", "bu": 5, "bu_original": 6}})
    assert [s.label for s in gm.stats] == ["BU", "US VIG (BU)"]
    assert [s.label for s in player.stats] == ["BU"] and player.stats[0].value == "5/6 injured"
    table = card_of("gurps", {"actor": "h", "access": "table", "view": {"name": "H", "conditions": ["reeling"]}})
    assert table.bars == () and table.conditions == ("reeling",)


def test_the_dice_page_gives_exact_odds_or_says_what_is_wrong(api: InProcess) -> None:
    r = api.get("/dice", params={"expr": "3d6", "at_least": "11", "at_most": ""})
    assert r.status_code == 200 and "50.00%" in r.text and "exactly 1/2" in r.text and "<svg" in r.text
    bad = api.get("/dice", params={"expr": "3d6+"})
    assert bad.status_code == 400 and 'role="alert"' in bad.text



def test_a_pending_check_on_the_pages_says_what_it_is_for_and_what_each_result_does(api: InProcess) -> None:
    r = api.post("/api/campaigns", json={"name": "stakes-page", "system": "gurps", "seed": 5})
    assert r.status_code == 201, r.text
    gm_token = r.json()["gm_token"]
    gm = {"Authorization": f"Bearer {gm_token}"}
    base = "/api/campaigns/stakes-page"
    sheet = {"name": "Hero", "st": 10, "ht": 10}
    hero = {"actor": "hero", "sheet": sheet, "player": "ana"}
    assert api.post(f"{base}/characters", headers=gm, json=hero).is_success
    ana_token = api.post(f"{base}/members", headers=gm, json={"name": "ana", "role": "player"}).json()["token"]
    assert api.patch(f"{base}/settings", headers=gm, json={"automation": {"gurps": "prompt"}}).is_success
    r = api.post(f"{base}/gurps/actions/damage", headers=gm, json={"actor": "hero", "params": {"amount": 12}})
    assert r.status_code == 200, r.text
    pending = r.json()["pending"]
    assert pending, "12 damage on 10 HP under prompt leaves a consciousness roll waiting"
    stakes = pending[0]["stakes"]
    assert stakes["on_success"] and stakes["on_failure"]
    for token in (gm_token, ana_token):
        page = api.get("/campaigns/stakes-page", headers={"Cookie": f"rulekeeper_token={token}"}).text
        assert "On success:" in page and "On failure:" in page
        assert stakes["on_success"] in page and stakes["on_failure"] in page
    # The odds in words (issue #25): what the result means for hero, with its chance.
    label = pending[0]["odds_label"]
    assert label.startswith("hero shrugs off the major wound ") and label.endswith("%")
    gm_page = api.get("/campaigns/stakes-page", headers={"Cookie": f"rulekeeper_token={gm_token}"}).text
    assert label in gm_page
