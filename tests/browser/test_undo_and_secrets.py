"""Undo with its cascade preview and redo from the dashboard; a VI·VIII·X player's page holds
no unknown stat after damage to one."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Browser, expect

from web.web_support import ServeProcess, sheets_6810

from .browser_support import PHONE, new_table, open_page


def test_undo_shows_what_goes_with_it_then_redo_brings_it_back(browser: Browser, server: ServeProcess) -> None:
    table = new_table(server.url, "wg")
    table.add("ari", {"tier": 1, "toughness": 3, "willpower": 3})
    table.add("bo", {"tier": 1, "toughness": 4, "willpower": 2})
    first = table.act("damage", "ari", amount=12)["seq"]
    table.act("damage", "bo", amount=9)
    table.act("shock", "ari", amount=1)  # depends on the first: it concerns ari too
    gm = open_page(browser, table, table.gm)
    wounds = gm.locator("[data-actor=ari] [data-vital=Wounds]")
    hurt = wounds.inner_text()
    bo = gm.locator("[data-actor=bo] [data-vital=Wounds]").inner_text()
    assert not hurt.startswith("0/")

    gm.get_by_label("Command #").fill(str(first))
    gm.get_by_role("button", name="Preview undo").click()
    preview = gm.locator("#undo-preview")
    expect(preview).to_contain_text("Undo takes 2 commands with it")
    expect(preview.locator("li")).to_have_count(2)
    expect(preview).to_contain_text("ari")
    expect(wounds).to_have_text(hurt)  # a preview changes nothing
    gm.get_by_role("button", name="Undo 2 commands").click()
    expect(wounds).to_have_text(re.compile(r"^0/"), timeout=5000)
    expect(gm.locator("[data-actor=ari] [data-vital=Shock]")).to_have_text(re.compile(r"^0/"))
    expect(gm.locator(f"[data-live=log] li.entry[data-seq='{first}']")).to_contain_text("undone by")
    expect(gm.locator("[data-actor=bo] [data-vital=Wounds]")).to_have_text(bo)  # untouched

    gm.get_by_role("button", name="Redo").click()
    expect(wounds).to_have_text(hurt, timeout=5000)
    expect(gm.locator(f"[data-live=log] li.entry[data-seq='{first}']")).to_contain_text("redone by")

    # The log filtered by a character keeps only what concerns them; citations fold out.
    gm.get_by_label("Character", exact=True).select_option("bo")
    expect(gm.locator(f"[data-live=log] li.entry[data-seq='{first}']")).to_have_count(0, timeout=5000)
    entries = gm.locator("[data-live=log] li.entry")
    for actors in entries.evaluate_all("els => els.map(e => e.dataset.actors)"):
        assert "bo" in actors.split(), actors
    cite = gm.locator("[data-live=log] details.cite").first
    expect(cite).not_to_have_attribute("open", "")
    gm.get_by_label("open all citations").check()
    expect(cite).to_have_attribute("open", "")
    gm.context.close()


def test_a_vi_viii_x_player_page_never_holds_an_unknown_stat(browser: Browser, server: ServeProcess) -> None:
    table = new_table(server.url, "6810")
    sheets = sheets_6810()
    table.add("ranger", sheets["ranger"], player="ana")
    table.add("adept", sheets["adept"], player="bea")
    ana = open_page(browser, table, table.invite("ana", "ranger"), PHONE)
    gm = open_page(browser, table, table.gm)
    table.act("damage", "ranger", amount=2, us="VIG")
    table.act("damage", "adept", amount=3, kind="mental", ks="in", us="QZX")
    table.act("damage", "ranger", amount=1)  # VIG 1 -> 0: damage lands on the unknown stat first
    table.act("damage", "ranger", amount=1)  # ... and then on BU, which the player may see
    # The GM's card names the unknown stats and their values ...
    expect(gm.locator("[data-actor=ranger]")).to_contain_text("US VIG (BU)", timeout=5000)
    expect(gm.locator("[data-actor=adept]")).to_contain_text("5/8")
    expect(gm.locator("[data-actor=ranger]")).to_contain_text("0/3")
    # ... and ana's page, kept live the same way, shows the known stat's injury and nothing else.
    expect(ana.locator("#mine [data-actor=ranger]")).to_contain_text("5/6 injured", timeout=5000)
    cookie = {c["name"]: c["value"] for c in ana.context.cookies()}
    live = httpx.get(f"{table.base}/campaigns/{table.name}/live", cookies=cookie, timeout=30).text
    for text in (ana.content(), live):
        for secret in ("VIG", "QZX", "vig", "qzx", "unknown_stats", "US ", "5/8", "0/3"):
            assert secret not in text, secret
    for page in (ana, gm):
        page.context.close()
