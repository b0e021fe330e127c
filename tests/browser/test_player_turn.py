"""The player's whole turn from a 390x844 phone, in every system (issue 27, items 1 and 8): a GM
at the laptop and two players on phones. The players take their turns with the page's taps and
forms (generated from the ruleset's turn and the action specs); in GURPS the defender chooses a
defence on the phone; an action on the other player's character waits for the GM, who approves
it. Each phone is screenshot (RULEKEEPER_SCREENSHOTS) and checked by axe-core."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from web.web_support import GURPS_FIGHTER, ServeProcess

from .browser_support import PHONE, Table, new_table, open_page, shoot
from .test_pages_look_and_access import _serious

_SHEETS: dict[str, dict[str, Any]] = {
    "gurps": GURPS_FIGHTER,
    "gods-and-monsters": {
        "name": "Hero",
        "archetype": "warrior",
        "level": 2,
        "survival": 7,
        "verve": 17,
        "health": 12,
        "strength": 12,
    },
    "wrath-and-glory": {"tier": 1, "toughness": 3, "willpower": 3, "wrath": 2, "medicae": 2},
    "vi-viii-x": {"BU": 7, "CO": 5, "IN": 5, "EM": 5, "us": {"VIG": 3}},
}
_NPC = {"gods-and-monsters": {"name": "Orc", "archetype": "warrior", "level": 2, "survival": 7, "health": 12}}


def _table(server: ServeProcess, system: str) -> Table:
    # Players act on NPCs on their own; on the other player's character they ask the GM.
    table = new_table(server.url, system, prefix="turn", options={"actions_on_others": "npcs"})
    table.add("hero", _SHEETS[system], player="ana")
    table.add("zed", _SHEETS[system], player="bea")
    r = table.api("POST", "/characters", json={"actor": "orc", "sheet": _NPC.get(system, _SHEETS[system]), "npc": True})
    assert r.status_code == 200
    return table


def _turn(page: Page, actor: str) -> Any:
    return page.locator(f'#turn [data-turn="{actor}"]')


def _tap(page: Page, actor: str, label: str, dice: str | None = None) -> str:
    """Tap a button of the character's turn (after typing the dice, if any); the result panel's text."""
    turn = _turn(page, actor)
    if dice is not None:
        turn.get_by_label("Dice rolled at the table").fill(dice)
    turn.locator("button.tap", has_text=label).first.click()
    return _result(page)


def _form(page: Page, actor: str, label: str, fields: dict[str, str], selects: dict[str, str]) -> str:
    """Open one of the turn's forms, fill it and send it; the result panel's text."""
    turn = _turn(page, actor)
    details = turn.locator("details.turn-action", has=page.locator("summary", has_text=label)).first
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    for name, value in selects.items():
        details.locator(f'select[name="params:{name}"]').select_option(value)
    for name, value in fields.items():
        details.locator(f'input[name="params:{name}"]').fill(value)
    details.locator("button[type=submit]").click()
    return _result(page)


def _result(page: Page) -> str:
    panel = page.locator("#turn-result")
    expect(panel).not_to_contain_text("sending", timeout=5000)
    expect(panel).to_be_visible()
    return panel.inner_text()


def _approve_waiting(gm: Page, player: Page) -> None:
    """The request the player's panel announces waits on the GM's page; the GM approves it."""
    text = _result(player)
    assert "waiting for the GM" in text, text
    number = re.search(r"request #(\d+)", text)
    assert number, text
    mine = player.locator(f"#requests [data-request='{number[1]}']")
    expect(mine).to_have_attribute("data-status", "waiting", timeout=3000)
    row = gm.locator(f"#requests [data-request='{number[1]}']")
    expect(row).to_be_visible(timeout=3000)
    row.get_by_role("button", name="Approve").click()
    expect(mine).to_have_attribute("data-status", "approved", timeout=3000)
    expect(player.locator("#turn-result")).to_contain_text(f"approved by the GM (request #{number[1]})")


def _look(page: Page, screens: Path, name: str) -> None:
    assert _serious(page) == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    shoot(page, screens, name)
    page.set_viewport_size(dict(PHONE))  # type: ignore[arg-type]


def test_gurps_a_fight_taken_from_the_phones_with_a_defence_chosen_on_one(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = _table(server, "gurps")
    gm = open_page(browser, table, table.gm)
    ana = open_page(browser, table, table.invite("ana", "hero"), PHONE)
    bea = open_page(browser, table, table.invite("bea", "zed"), PHONE)

    # ana: a maneuver, then an attack with the sword from her sheet's pick-list, at the NPC.
    weapon = _turn(ana, "hero").locator('details.turn-action select[name="params:weapon"]').last
    assert "sword: broadsword 13, sw+1 cut (1d+2), melee" in (weapon.text_content() or "")
    assert "bow: bow 12, 1d+2 imp, range 150/200" in (weapon.text_content() or "")
    assert "hero takes attack" in _form(ana, "hero", "Choose a maneuver", {}, {"choice": "attack"})
    text = _form(ana, "hero", "Attack", {}, {"target": "orc", "weapon": "sword"})
    assert "hero attacks orc with sword" in text, text

    # The GM's orc attacks bea's zed and hits: bea's phone asks for the defence, with the odds.
    r = table.api(
        "POST",
        "/gurps/actions/attack",
        json={"actor": "orc", "params": {"target": "zed", "weapon": "sword"}, "rolled": [3, 3, 4]},
    )
    assert r.json()["entry"]["result"]["awaiting_defense"]
    zed = _turn(bea, "zed")
    defend = zed.locator('[data-group="defend"]')
    expect(defend).to_be_visible(timeout=3000)
    # The defence is marked for the phone's alerts (static/table.js: vibration, tone, notification).
    expect(zed.locator(".turn-waiting")).to_have_attribute("data-alert", re.compile(r"\S+"))
    expect(zed.locator(".turn-waiting")).to_contain_text("orc's attack with sword")
    expect(defend.locator("button.tap", has_text="Dodge 8")).to_contain_text("25.93%")
    expect(defend.locator("button.tap", has_text="Parry (sword) 9")).to_contain_text("37.50%")
    _look(bea, screens, "turn-gurps-defence")
    text = _tap(bea, "zed", "Parry (sword) 9", dice="2 2 2")
    assert "zed parries the attack" in text, text
    expect(defend).to_have_count(0, timeout=3000)

    # bea's own rolls from the sheet, with a tap; then a rest.
    assert "DX" in _tap(bea, "zed", "DX 12")
    assert "rest" in _form(bea, "zed", "Rest", {}, {"kind": "short"}).lower()

    # ana's attack on bea's character waits for the GM, who approves it.
    _form(ana, "hero", "Attack", {}, {"target": "zed", "weapon": "sword"})
    _approve_waiting(gm, ana)
    _look(ana, screens, "turn-gurps-player")


@pytest.mark.parametrize(
    ("system", "taps", "form", "asks"),
    [
        (
            "gods-and-monsters",
            ["Strength 12"],
            ("Rest", {}, {"kind": "night"}),
            ("Chase or flee", {}, {"other": "zed"}),
        ),
        (
            "wrath-and-glory",
            ["Spend 1 Wrath", "Toughness 3d"],
            ("Take an action", {}, {"action": "walk"}),
            ("Rest", {}, {"kind": "regroup", "healer": "zed"}),
        ),
        ("vi-viii-x", ["Climb (rope and hook)"], ("Spend the days", {}, {"kind": "total"}), None),
    ],
)
def test_each_system_a_scene_taken_from_the_phones(
    browser: Browser,
    server: ServeProcess,
    screens: Path,
    system: str,
    taps: list[str],
    form: tuple[str, dict[str, str], dict[str, str]],
    asks: tuple[str, dict[str, str], dict[str, str]] | None,
) -> None:
    table = _table(server, system)
    gm = open_page(browser, table, table.gm)
    ana = open_page(browser, table, table.invite("ana", "hero"), PHONE)
    bea = open_page(browser, table, table.invite("bea", "zed"), PHONE)
    before = len(table.api("GET", "/log").json())
    for label in taps:
        text = _tap(ana, "hero", label)
        assert "refused" not in text and "#" in text, (label, text)
    label, fields, selects = form
    text = _form(bea, "zed", label, fields, selects)
    assert "refused" not in text and "#" in text, (label, text)
    # Every tap and the form became a command in the table's history, by the players' seats.
    assert len(table.api("GET", "/log").json()) >= before + len(taps) + 1
    if asks is not None:
        label, fields, selects = asks
        _form(ana, "hero", label, fields, selects)
        _approve_waiting(gm, ana)
    _look(ana, screens, f"turn-{system}-player")
    _look(bea, screens, f"turn-{system}-other")
