"""The GM answers a player's request on the dashboard (amend and approve, decline); the player's
page shows it waiting, then its outcome, live (issue 26, item 2)."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from web.web_support import ServeProcess, bearer

from .browser_support import PHONE, new_table, open_page, shoot

_SHEET = {
    "st": 11,
    "ht": 11,
    "skills": {"broadsword": 13},
    "weapons": [{"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
}


def test_the_gm_amends_approves_and_declines_requests_on_the_dashboard(
    browser: Browser, server: ServeProcess, screens: Path
) -> None:
    table = new_table(server.url, "gurps")
    table.add("hero", _SHEET, player="ana")
    table.add("zed", _SHEET, player="bea")
    gm = open_page(browser, table, table.gm)
    ana_token = table.invite("ana", "hero")
    ana = open_page(browser, table, ana_token, PHONE)

    def ask() -> int:
        r = httpx.post(
            f"{server.url}/api/campaigns/{table.name}/gurps/actions/attack",
            headers=bearer(ana_token),
            json={"actor": "hero", "params": {"target": "zed", "defense": "dodge"}},
            timeout=60,
        )
        assert r.status_code == 200, r.text
        number: int = r.json()["request"]["id"]
        return number

    first = ask()
    mine = ana.locator(f"#requests [data-request='{first}']")
    expect(mine).to_have_attribute("data-status", "waiting", timeout=2000)
    expect(mine).to_contain_text("waiting for the GM")
    waiting = gm.locator(f"#requests [data-request='{first}']")
    expect(waiting).to_contain_text("touches zed", timeout=2000)
    shoot(gm, screens, "gm-request-waiting")

    # Amend (the target does not defend) and approve.
    waiting.locator("summary", has_text="Amend").click()
    waiting.get_by_label("defense").fill("none")
    approve = waiting.locator("form", has=gm.get_by_role("button", name="Approve"))
    approve.get_by_role("button", name="Approve").click()
    expect(mine).to_have_attribute("data-status", "approved", timeout=2000)
    listed = table.api("GET", "/requests").json()
    assert listed[0]["status"] == "approved" and listed[0]["params"]["defense"] == "none"

    second = ask()
    row = gm.locator(f"#requests [data-request='{second}']")
    expect(row).to_be_visible(timeout=2000)
    row.get_by_label("Note").fill("zed is out of reach")
    row.get_by_role("button", name="Decline").click()
    declined = ana.locator(f"#requests [data-request='{second}']")
    expect(declined).to_have_attribute("data-status", "declined", timeout=2000)
    expect(declined).to_contain_text("zed is out of reach")
    shoot(ana, screens, "player-requests-answered")
