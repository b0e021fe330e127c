"""Pages that are never silently stale, and a GM screen that never applies twice (issue #27,
items 3 and 5): a network cut and a server restart mid-evening, two GM tabs, a check resolved
twice, results kept whole in a panel, and alerts on the phone for the player's own checks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from web.web_support import ServeProcess

from .browser_support import LAPTOP, PHONE, Table, new_table, open_page

HERO = {"name": "Hero", "ht": 12}
ZED = {"name": "Zed", "ht": 11}

# Calls to the phone's alert APIs, recorded on the way through (the real ones still run).
SPY_ALERTS = """
window.__vibrations = [];
window.__notifications = [];
const realVibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : null;
navigator.vibrate = (pattern) => {
  window.__vibrations.push(pattern);
  return realVibrate ? realVibrate(pattern) : true;
};
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notifications.push(title + ": " + (options && options.body));
    }
  };
  Object.defineProperty(window.Notification, "permission", { get: () => Real.permission });
  window.Notification.requestPermission = (...a) => Real.requestPermission(...a);
}
"""


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[ServeProcess]:
    """A server of this test's own, restarted mid-test on the same port and database."""
    proc = ServeProcess(str(tmp_path / "campaigns.db")).start(tmp_path)
    try:
        yield proc
    finally:
        proc.stop()


def _hp(page: Page, actor: str, where: str = "#mine") -> object:
    return page.locator(f"{where} [data-actor={actor}] [data-vital=HP]")


def _indicator(page: Page) -> object:
    return page.locator("#live-indicator")


def _damage(table: Table, actor: str, amount: int) -> None:
    table.act("damage", actor, amount=amount)


def test_the_phone_says_when_it_is_not_live_and_catches_up_after_a_cut_and_a_restart(
    browser: Browser, restartable: ServeProcess, screens: Path
) -> None:
    table = new_table(restartable.url, "gurps")
    table.add("hero", HERO, player="ana")
    ana = open_page(browser, table, table.invite("ana", "hero"), PHONE)
    ana.evaluate("window.__sameDocument = true")
    hp = _hp(ana, "hero")
    expect(hp).to_have_text("10/10")
    expect(_indicator(ana)).to_have_attribute("data-state", "on")
    expect(_indicator(ana)).to_contain_text("Live")
    expect(_indicator(ana)).to_be_visible()

    # The network goes for 3 s; the GM wounds Hero meanwhile.
    ana.context.set_offline(True)
    expect(_indicator(ana)).to_have_attribute("data-state", "offline", timeout=5000)
    expect(_indicator(ana)).to_contain_text("not live since")
    _damage(table, "hero", 2)
    ana.wait_for_timeout(3000)
    expect(hp).to_have_text("10/10")  # not live: the old HP, and the page says so
    shots = screens / "live"
    shots.mkdir(exist_ok=True)
    ana.screenshot(path=str(shots / "phone-offline.png"))
    ana.context.set_offline(False)
    expect(_indicator(ana)).to_have_attribute("data-state", "on", timeout=10_000)
    expect(hp).to_have_text("8/10", timeout=5000)  # caught up by itself

    # The server restarts mid-evening (same port, same database); the GM wounds Hero again
    # while the page is still reconnecting.
    restartable.stop()
    expect(_indicator(ana)).to_have_attribute("data-state", "reconnecting", timeout=10_000)
    expect(_indicator(ana)).to_contain_text("Reconnecting")
    ana.screenshot(path=str(shots / "phone-reconnecting.png"))
    restartable.start(restartable.log.parent if restartable.log else Path("."))
    _damage(table, "hero", 3)
    expect(_indicator(ana)).to_have_attribute("data-state", "on", timeout=20_000)
    expect(hp).to_have_text("5/10", timeout=5000)
    assert ana.evaluate("window.__sameDocument === true")  # recovered without a reload
    ana.screenshot(path=str(shots / "phone-live.png"))
    ana.context.close()


def test_two_gm_tabs_apply_the_same_damage_once(browser: Browser, server: ServeProcess, screens: Path) -> None:
    table = new_table(server.url, "gurps")
    table.add("hero", HERO, player="ana")
    tabs = [open_page(browser, table, table.gm, LAPTOP) for _ in range(2)]
    forms = []
    for tab in tabs:
        tab.locator("#act-damage > summary").click()
        form = tab.locator("#act-damage form")
        form.locator("#act-damage-actor").select_option("hero")
        form.get_by_label("amount").fill("4")
        forms.append(form)
    first, second = forms
    before = table.api("GET", "").json()["version"]
    first.get_by_role("button", name="damage").click()
    expect(first).to_have_attribute("data-status", "200", timeout=10_000)
    # The second tab shows the wound live, but its form was filled in before it: a 412.
    expect(_hp(tabs[1], "hero", "#board")).to_have_text("6/10", timeout=5000)
    second.get_by_role("button", name="damage").click()
    expect(second).to_have_attribute("data-status", "412", timeout=10_000)
    said = tabs[1].locator("[data-result-for] .result").first
    expect(said).to_contain_text("changed since you looked")
    expect(said).to_contain_text("damage")  # what changed: the first tab's command
    expect(_hp(tabs[1], "hero", "#board")).to_have_text("6/10")  # the new state, applied once
    assert table.api("GET", "").json()["version"] == before + 1  # one damage, not two
    tabs[1].set_viewport_size(dict(LAPTOP))  # type: ignore[arg-type]
    shots = screens / "live"
    shots.mkdir(exist_ok=True)
    tabs[1].screenshot(path=str(shots / "gm-second-tab.png"))

    # Sent again once looked at, it applies (to the new state).
    second.get_by_role("button", name="damage").click()
    expect(second).to_have_attribute("data-status", "200", timeout=10_000)
    expect(_hp(tabs[0], "hero", "#board")).to_have_text("2/10", timeout=5000)
    for tab in tabs:
        tab.context.close()


def test_a_check_resolved_in_two_tabs_says_already_resolved_by_and_keeps_every_line(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = new_table(server.url, "gurps", automation={"gurps.consciousness": "prompt"})
    table.add("hero", HERO, player="ana")
    tabs = [open_page(browser, table, table.gm, LAPTOP) for _ in range(2)]
    entry = table.act("damage", "hero", amount=11)  # below 0 HP: a consciousness roll waits
    for tab in tabs:
        expect(tab.locator("#pending li.pending")).to_have_count(1, timeout=5000)
    checks = [tab.locator("#pending li.pending").first for tab in tabs]
    # The second tab is a moment behind (its live update of the pending checks held back by the
    # test, as a slow network would): it still shows the check when the first tab resolves it.
    tabs[1].evaluate("document.querySelector('[data-live=pending]').removeAttribute('data-live')")
    checks[1].get_by_label("Dice rolled at the table").fill("4 4 4")
    checks[0].get_by_label("Dice rolled at the table").fill("3 3 3")
    checks[0].get_by_role("button", name="Use these dice").click()
    expect(tabs[0].locator("#pending li.pending")).to_have_count(0, timeout=5000)
    resolved_by = int(tabs[0].locator("[data-live=log] li.entry").first.get_attribute("data-seq") or "0")
    assert resolved_by > entry["entry"]["seq"]
    # Its dice were typed before the first tab sent its own: the server names the resolving entry.
    checks[1].get_by_role("button", name="Use these dice").click()
    said = tabs[1].locator("#results-list > li").first
    expect(said).to_contain_text(f"already resolved by #{resolved_by}", timeout=10_000)
    expect(said).not_to_contain_text("no pending check")

    # The results panel keeps every line of a result (the damage's Dying or Memorable Injury
    # lines were cut to three in toasts), and covers no control.
    gm = tabs[0]
    gm.locator("#act-damage > summary").click()
    form = gm.locator("#act-damage form")
    form.locator("#act-damage-actor").select_option("hero")
    form.get_by_label("amount").fill("30")
    form.get_by_role("button", name="damage").click()
    expect(form).to_have_attribute("data-status", "200", timeout=10_000)
    newest = gm.locator("#results-list > li").first
    seq = (newest.locator(".result-head").inner_text()).split()[0].lstrip("#")
    log_lines = gm.locator(f"[data-live=log] li.entry[data-seq='{seq}'] ol.steps > li")
    expect(log_lines.first).to_be_visible(timeout=5000)
    lines = newest.locator(".result-lines > li")
    assert lines.count() == log_lines.count() and lines.count() > 3, (lines.all_inner_texts(), log_lines.count())
    under_form = gm.locator("#act-damage [data-result-for] .result-lines > li")  # where the GM looks
    assert under_form.count() == log_lines.count()
    expect(under_form.last).to_be_visible()
    _covers_nothing(gm)
    shots = screens / "live"
    shots.mkdir(exist_ok=True)
    gm.screenshot(path=str(shots / "gm-results.png"))
    gm.evaluate("window.scrollTo(0, 0)")
    gm.screenshot(path=str(shots / "gm-results-top.png"))
    gm.set_viewport_size(dict(PHONE))  # type: ignore[arg-type]
    _covers_nothing(gm)
    gm.evaluate("window.scrollTo(0, 0)")
    gm.screenshot(path=str(shots / "gm-results-phone.png"))
    for tab in tabs:
        tab.context.close()


def _covers_nothing(page: Page) -> None:
    """No result is drawn over a control: the panel and the lines are in the page's flow."""
    fixed = page.evaluate(
        """() => [...document.querySelectorAll('#results, .form-result, #live-bar')]
             .filter((el) => ['fixed', 'absolute'].includes(getComputedStyle(el).position)).length"""
    )
    assert fixed == 0


def test_the_phone_alerts_its_player_for_their_own_check_only(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = new_table(server.url, "gurps", automation={"gurps.consciousness": "prompt"})
    table.add("hero", HERO, player="ana")
    table.add("zed", ZED, player="bea")
    pages = {}
    for name, actor in (("ana", "hero"), ("bea", "zed")):
        context = browser.new_context(viewport=dict(PHONE))  # type: ignore[arg-type]
        context.grant_permissions(["notifications"], origin=table.base)
        context.add_init_script(SPY_ALERTS)
        page = context.new_page()
        page.goto(table.join_url(table.invite(name, actor)))
        page.wait_for_selector("body[data-live=on]", timeout=10_000)
        # Alerts are asked for with a tap (vibration and sound need one; so does the question).
        toggle = page.get_by_role("button", name="Alerts off")
        toggle.click()
        expect(page.locator("#alerts-toggle")).to_have_attribute("aria-pressed", "true")
        pages[name] = page
    ana, bea = pages["ana"], pages["bea"]

    table.act("damage", "hero", amount=11)  # hero's consciousness roll waits for ana
    expect(ana.locator("#checks li.pending")).to_have_count(1, timeout=5000)
    expect(ana.locator("#results-list > li").first).to_contain_text("Waiting for you", timeout=5000)
    assert ana.evaluate("window.__vibrations.length") == 1
    assert ana.evaluate("window.__notifications.length") == 1
    assert "conscious" in ana.evaluate("window.__notifications[0]")
    # bea heard the damage (the table's event) but nothing waits for her: no alert.
    expect(bea.locator("#others [data-actor=hero]")).to_contain_text("reeling", timeout=5000)
    assert bea.evaluate("window.__vibrations.length") == 0
    assert bea.evaluate("window.__notifications.length") == 0
    assert bea.evaluate("document.body.dataset.alerts || '0'") == "0"
    shots = screens / "live"
    shots.mkdir(exist_ok=True)
    ana.screenshot(path=str(shots / "phone-alert.png"))
    for page in pages.values():
        page.context.close()
