"""The GM runs the table from one screen (issue 27, items 5 and 6), in a real Chromium against a
real server: members invited (with a QR code) and revoked from the dashboard, the screen-share
view leaking no secret in any system while it follows the game live, the combat tracker on
every page, a one-line phone header, axe-core clean; screenshots of each system to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from rulekeeper.core import get_ruleset
from web.web_support import SCREEN_CAST, SCREEN_HURT, ServeProcess

from .browser_support import LAPTOP, PHONE, Table, new_table, open_page


def _serious(page: Page) -> list[dict[str, Any]]:
    violations: list[dict[str, Any]] = Axe().run(page).response["violations"]
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def _table(base: str, system: str, *, blind: bool) -> Table:
    settings: dict[str, Any] = {"automation": {"*": "prompt"}}
    if blind:
        settings["roll_modes"] = dict.fromkeys(get_ruleset(system).check_kinds, "blind")
    table = new_table(base, system, prefix=f"gms-{system}", **settings)
    (pc, pc_sheet), (npc, npc_sheet) = SCREEN_CAST[system]
    table.add(pc, pc_sheet, player="ana")
    table.api("POST", "/characters", json={"actor": npc, "sheet": npc_sheet, "npc": True})
    return table


def _header_height(page: Page) -> float:
    return float(page.evaluate("document.querySelector('header.top').getBoundingClientRect().height"))


@pytest.mark.parametrize("system", sorted(SCREEN_CAST))
def test_screen_share_follows_the_game_and_shows_no_secret(
    browser: Browser, server: ServeProcess, screens: Path, system: str
) -> None:
    table = _table(server.url, system, blind=True)
    (pc, _), (npc, _) = SCREEN_CAST[system]
    hurt = SCREEN_HURT[system]
    gm = open_page(browser, table, table.gm)
    ana = open_page(browser, table, table.invite("ana", pc), PHONE)
    # The GM opens the screen-share view from the dashboard (a new tab, same sign-in).
    with gm.context.expect_page() as opened:
        gm.locator("#tracker").get_by_role("link", name="Open the screen-share view").click()
    tv = opened.value
    tv.set_viewport_size(dict(LAPTOP))  # type: ignore[arg-type]
    tv.wait_for_selector("body[data-live=on]", timeout=10_000)
    # Live: the GM's damage reaches the screen without a reload.
    table.act("damage", pc, **hurt)
    table.act("damage", npc, **hurt)
    if system == "6810":  # an ARC on the unknown stat: a blind roll waits
        table.act("arc", pc, ks="bu", us="VIG", threshold="easy")
    expect(tv.locator("[data-live=log] li.entry").first).to_contain_text("Damage · " + npc, timeout=10_000)

    gm_state = table.api("GET", "").json()
    secret = [p["check"] for p in gm_state["pending"] if p["secret"]]
    assert secret
    gm_only = [s["text"] for e in table.api("GET", "/log").json() for s in e["explanation"] if s.get("gm_only")]
    words = ["VIG", "QZX"] if system == "6810" else []
    gm.reload()
    dashboard = gm.inner_text("body")
    for text in secret + words:
        assert text in dashboard, text  # the GM's screen has them: the check below can fail
    shown = tv.inner_text("body")
    source = tv.content()
    for text in secret + gm_only:
        assert text not in shown and text not in source, text
    for word in words:
        assert not re.search(rf"\b{word}\b", source), word
    assert tv.locator(".bar-row, dl.stats").count() == 0  # no character's numbers: the table's view
    # Nor does the screen's event stream carry them to that browser (the GM's own stream does).
    cookies = {c["name"]: c["value"] for c in gm.context.cookies()}
    screen_stream = _backlog(f"{table.base}/campaigns/{table.name}/screen/events?last_event_id=0", cookies)
    gm_stream = _backlog(f"{table.base}/api/campaigns/{table.name}/events?last_event_id=0", cookies)
    assert "event: command" in screen_stream and gm_only + words
    for text in gm_only + words:
        assert text in gm_stream and text not in screen_stream, text
    assert "Version" not in shown
    tv.set_viewport_size(dict(LAPTOP))  # type: ignore[arg-type]
    assert _serious(tv) == []
    tv.screenshot(path=str(screens / f"gm-screen-share-{system}.png"))
    # Screenshots of the dashboard and the phone in this system, to look at.
    gm.set_viewport_size(dict(LAPTOP))  # type: ignore[arg-type]
    gm.screenshot(path=str(screens / f"gm-dashboard-{system}.png"))
    ana.screenshot(path=str(screens / f"gm-phone-{system}.png"))
    ana.screenshot(path=str(screens / f"gm-phone-{system}-full.png"), full_page=True)
    for page in (gm, ana):
        assert _serious(page) == [], page.url
    # A player cannot open it.
    ana.goto(f"{table.base}/campaigns/{table.name}/screen")
    expect(ana.get_by_role("heading", name="Not for you")).to_be_visible()
    for page in (gm, ana):
        page.context.close()


def test_the_tracker_follows_the_fight_on_every_page(browser: Browser, server: ServeProcess, screens: Path) -> None:
    table = _table(server.url, "gurps", blind=False)
    gm = open_page(browser, table, table.gm)
    ana = open_page(browser, table, table.invite("ana", "hero"), PHONE)
    tv = gm.context.new_page()
    tv.goto(f"{table.base}/campaigns/{table.name}/screen")
    tv.wait_for_selector("body[data-live=on]", timeout=10_000)
    table.act("start_combat", None)
    table.act("damage", "hero", amount=14)
    for page in (gm, ana, tv):
        tracker = page.locator("[data-live=tracker]")
        expect(tracker).to_contain_text("Round 1", timeout=10_000)
        expect(tracker.locator(".order li")).to_have_count(2)
        expect(tracker.locator(".order li.now")).to_have_text("Hero")
    table.api("POST", "/round", json={})
    for page in (gm, ana, tv):
        expect(page.locator("[data-live=tracker]")).to_contain_text("Round 2", timeout=10_000)
    # Who waits for what: the GM sees every roll, ana her own, the screen no private one.
    expect(gm.locator("[data-live=tracker] .waits")).to_contain_text("hero's roll to stay conscious")
    expect(ana.locator("[data-live=tracker] .waits")).to_contain_text("roll to stay conscious")
    assert tv.locator("[data-live=tracker] .waits").count() == 0
    # ana's own timers in rounds, never seconds.
    timers = ana.locator("[data-live=tracker] .my-timers")
    expect(timers).to_contain_text(re.compile(r"Hero: shock, \d+ rounds? left"))
    assert not re.search(r"\d+s\b", ana.locator("#mine").inner_text())
    ana.screenshot(path=str(screens / "gm-tracker-phone.png"))
    gm.screenshot(path=str(screens / "gm-tracker-dashboard.png"))
    tv.screenshot(path=str(screens / "gm-tracker-screen.png"))
    for page in (gm, ana):
        page.context.close()


def test_members_invited_with_a_qr_code_and_revoked_from_the_dashboard(browser: Browser, server: ServeProcess) -> None:
    table = _table(server.url, "wg", blind=False)
    gm = open_page(browser, table, table.gm)
    members = gm.locator("[data-live=members]")
    gm.get_by_label("Player's name").fill("cai")
    gm.locator("#invite-form").get_by_label("ari").check()
    gm.get_by_role("button", name="Make invite link").click()
    expect(gm.locator("#invite-result .qr svg")).to_be_visible(timeout=10_000)
    expect(members.locator("[data-member=cai]")).to_contain_text("plays ari", timeout=10_000)
    link = gm.locator("#invite-result a.join-link").get_attribute("href") or ""
    cai = browser.new_context(viewport=dict(PHONE)).new_page()  # type: ignore[arg-type]
    cai.goto(link)
    cai.wait_for_selector("body[data-live=on]", timeout=10_000)
    expect(cai.locator("#mine [data-actor=ari]")).to_contain_text("Resilience")
    gm.get_by_role("button", name="Revoke cai").click()
    expect(members.locator("[data-member=cai]")).to_have_count(0, timeout=10_000)
    # The revoked player's page stops at once, and does not open again.
    expect(cai.locator("body")).to_have_attribute("data-live", "off", timeout=10_000)
    cai.reload()
    expect(cai.get_by_role("heading", name="Open your invite link")).to_be_visible()
    assert cai.locator("[data-actor=ari]").count() == 0
    for page in (gm, cai):
        page.context.close()


def test_the_phone_header_is_one_compact_line_with_every_section_reachable(
    browser: Browser, server: ServeProcess
) -> None:
    table = _table(server.url, "gm", blind=False)
    ana = open_page(browser, table, table.invite("ana", "toro"), PHONE)
    gm = open_page(browser, table, table.gm, PHONE)
    for page in (ana, gm):
        assert _header_height(page) <= 64, _header_height(page)
        links = page.locator("header.top nav a[href^='#']")
        assert links.count() >= 4
        for i in range(links.count()):
            link = links.nth(i)
            target = (link.get_attribute("href") or "#")[1:]
            link.click()  # Playwright scrolls the strip to it: reachable, not hidden
            expect(page.locator(f"#{target}")).to_be_in_viewport()
            # The sticky header does not cover the section's heading.
            top = page.evaluate(f"document.getElementById('{target}').getBoundingClientRect().top")
            assert top >= _header_height(page) - 1, (target, top)
        page.evaluate("window.scrollTo(0, 0)")
        assert _serious(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in (ana, gm):
        page.context.close()


def _backlog(url: str, cookies: dict[str, str]) -> str:
    """What an event stream sends at once (its backlog), read until it falls quiet."""
    out: list[str] = []
    try:
        with httpx.stream("GET", url, cookies=cookies, timeout=httpx.Timeout(10, read=1.5)) as r:
            assert r.status_code == 200, r.status_code
            for line in r.iter_lines():
                out.append(line)
    except httpx.ReadTimeout:
        pass
    return "\n".join(out)
