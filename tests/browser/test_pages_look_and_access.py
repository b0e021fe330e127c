"""Each page at a phone's and a laptop's size (screenshots to look at), with axe-core (bundled
in the axe-playwright-python package, injected locally) finding no serious or critical
accessibility violation; and the dice page's exact odds."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from web.web_support import ServeProcess

from .browser_support import LAPTOP, PHONE, Table, new_table, open_page, shoot


def _serious(page: Page) -> list[dict[str, Any]]:
    results = Axe().run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def _busy_table(base: str) -> Table:
    table = new_table(base, "gurps", prefix="look", automation={"gurps.consciousness": "prompt"})
    table.add("hero", {"name": "Sir Hero", "ht": 12, "st": 12}, player="ana")
    table.add("zed", {"name": "Zed", "ht": 11}, player="bea")
    table.add("orc", {"name": "Orc", "ht": 10})
    table.act("damage", "hero", amount=13)
    table.act("lose_fp", "zed", amount=8)
    table.act("damage", "orc", amount=25)
    return table


def test_every_page_at_both_sizes_has_no_serious_accessibility_violation(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = _busy_table(server.url)
    pages = {
        "look-dashboard": open_page(browser, table, table.gm),
        "look-player": open_page(browser, table, table.invite("ana", "hero"), PHONE),
    }
    dice = browser.new_context(viewport=dict(LAPTOP)).new_page()  # type: ignore[arg-type]
    dice.goto(f"{server.url}/dice?expr=3d6&at_least=10")
    pages["look-dice"] = dice
    for name, page in pages.items():
        for size in (PHONE, LAPTOP):
            page.set_viewport_size(dict(size))  # type: ignore[arg-type]
            assert _serious(page) == [], (name, size)
        shoot(page, screens, name)
        # Nothing on the page is wider than a phone's screen.
        page.set_viewport_size(dict(PHONE))  # type: ignore[arg-type]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        page.context.close()


def test_the_dice_page_gives_exact_odds_and_a_chart(browser: Browser, server: ServeProcess) -> None:
    page = browser.new_context(viewport=dict(PHONE)).new_page()  # type: ignore[arg-type]
    page.goto(f"{server.url}/dice")
    page.get_by_label("Expression").fill("3d6")
    page.get_by_label("At least").fill("11")  # 11 to 18: exactly half of 3d6
    page.get_by_role("button", name="Show odds").click()
    expect(page.locator(".p-range")).to_contain_text("50.00%")
    expect(page.locator("svg.chart rect.bar")).to_have_count(16)
    expect(page.locator("svg.chart rect.hit")).to_have_count(8)
    page.get_by_label("Expression").fill("3d6+")
    page.get_by_role("button", name="Show odds").click()
    expect(page.get_by_role("alert")).to_be_visible()
    page.context.close()


def test_an_invite_from_the_dashboard_gives_a_link_and_a_qr_code_that_open_the_player_page(
    browser: Browser, server: ServeProcess
) -> None:
    table = new_table(server.url, "gm", prefix="invite")
    table.add("toromeen", {"archetype": "warrior", "level": 2, "survival": 7, "verve": 17})
    gm = open_page(browser, table, table.gm)
    gm.get_by_label("Player's name").fill("cai")
    gm.locator("#invite-form").get_by_label("toromeen").check()
    gm.get_by_role("button", name="Make invite link").click()
    link = gm.locator("#invite-result a.join-link")
    expect(link).to_have_attribute("href", re.compile(r"/campaigns/invite-\d+/join#token=rk"))
    expect(gm.locator("#invite-result .qr svg")).to_be_visible()
    player = browser.new_context(viewport=dict(PHONE)).new_page()  # type: ignore[arg-type]
    player.goto(link.get_attribute("href") or "")
    expect(player.locator("#mine [data-actor=toromeen]")).to_contain_text("Survival")
    assert "token=" not in player.url  # the cookie holds it; the address bar does not
    for page in (gm, player):
        page.context.close()
