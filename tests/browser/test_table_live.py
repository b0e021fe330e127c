"""A GM and two players on one campaign, each in their own browser context, live with no reload."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from web.web_support import ServeProcess

from .browser_support import PHONE, new_table, open_page, shoot


def _mark_no_reload(page: Page) -> None:
    # A reload would drop this; the live update must keep the same document.
    page.evaluate("window.__sameDocument = true")


def _same_document(page: Page) -> bool:
    return bool(page.evaluate("window.__sameDocument === true"))


def test_gm_damage_reaches_the_player_who_types_dice_and_the_other_sees_only_the_table(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = new_table(server.url, "gurps")
    table.add("hero", {"name": "Hero", "ht": 12}, player="ana")
    table.add("zed", {"name": "Zed", "ht": 11}, player="bea")
    gm = open_page(browser, table, table.gm)
    ana = open_page(browser, table, table.invite("ana", "hero"), PHONE)
    bea = open_page(browser, table, table.invite("bea", "zed"), PHONE)
    for page in (gm, ana, bea):
        _mark_no_reload(page)

    # The table rolls its own consciousness checks: a setting made on the dashboard.
    gm.locator("details.kinds:not(.roll-modes) > summary").click()
    who_rolls = gm.get_by_role("group", name="Who rolls each kind of check")
    who_rolls.get_by_label("gurps.consciousness", exact=True).select_option("prompt")
    settings = gm.locator("#settings form")
    settings.get_by_role("button", name="Save settings").click()
    expect(settings).to_have_attribute("data-result", "ok", timeout=10_000)
    assert table.api("GET", "/settings").json()["automation"]["gurps.consciousness"] == "prompt"
    hero_hp = ana.locator("#mine [data-actor=hero] [data-vital=HP]")
    expect(hero_hp).to_have_text("10/10")

    # The GM damages ana's character from the generated action form.
    gm.locator("#act-damage > summary").click()
    form = gm.locator("#act-damage form")
    form.locator("#act-damage-actor").select_option("hero")
    form.get_by_label("amount").fill("11")
    form.get_by_role("button", name="damage").click()
    expect(form).to_have_attribute("data-result", "ok", timeout=10_000)

    # Within 1 s, without a reload, ana's page shows the wound and the check it causes.
    expect(hero_hp).to_have_text("-1/10", timeout=1000)
    check = ana.locator("#checks li.pending")
    expect(check).to_have_count(1, timeout=1000)
    expect(check).to_contain_text("to stay conscious")  # what the roll is for, in the system's words
    expect(check).to_contain_text("falls unconscious")  # what failure does
    expect(check).to_contain_text("%")  # its exact odds
    assert _same_document(ana)
    shoot(ana, screens, "player")

    # ana types the dice she rolled as people write them ("3+3+4" is three dice, issue #27: the
    # page hands the text to the server's reader); the GM's dashboard shows the result.
    check.get_by_label("Dice rolled at the table").fill("3+3+4")
    check.get_by_role("button", name="Use these dice").click()
    expect(ana.locator("#checks li.pending")).to_have_count(0, timeout=5000)
    gm_log = gm.locator("[data-live=log] li.entry").first
    expect(gm_log).to_contain_text("resolve", timeout=5000)
    expect(gm_log).to_contain_text("10")  # 3+3+4
    expect(gm.locator("#pending li.pending")).to_have_count(0)
    assert _same_document(gm)

    # bea sees what the table may see of Hero: a name and conditions, no HP, no pending check.
    hero_for_bea = bea.locator("#others [data-actor=hero]")
    expect(hero_for_bea).to_contain_text("Hero", timeout=5000)
    expect(hero_for_bea).to_contain_text("reeling")
    expect(hero_for_bea.locator("[data-vital]")).to_have_count(0)
    expect(bea.locator("#checks li.pending")).to_have_count(0)
    assert "3+3+4" not in bea.content()
    assert _same_document(bea)
    shoot(gm, screens, "dashboard")
    shoot(bea, screens, "player-other")
    for page in (gm, ana, bea):
        page.context.close()
