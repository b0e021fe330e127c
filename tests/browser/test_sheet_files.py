"""The GM adds a character from a GCS file on the dashboard (chosen, then dropped to update it),
in real Chromium against a real server, and sees the import report the CLI prints."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, expect

from support.gcs_files import LIBRARY
from web.web_support import ServeProcess

from .browser_support import new_table, open_page, shoot

BEAR = next(LIBRARY.rglob("Cave Bear.gcs"))


def test_a_gcs_file_added_and_updated_from_the_dashboard(browser: Browser, server: ServeProcess, screens: Path) -> None:
    table = new_table(server.url, "gurps", prefix="files")
    page = open_page(browser, table, table.gm)
    form = page.locator("form.sheet-file[data-format=gcs]")

    # chosen with the file picker: the id comes from the file's name
    form.locator("input[type=file]").set_input_files(str(BEAR))
    expect(form.locator("input[name=actor]")).to_have_value("cave-bear")
    form.locator("button[type=submit]").click()
    report = page.locator("#sheet-file-report")
    expect(report).to_contain_text("added cave-bear from Cave Bear.gcs", timeout=20_000)
    expect(report).to_contain_text("fields not used from Cave Bear.gcs")  # the CLI's own note line
    bear = table.api("GET", "/characters/cave-bear").json()["view"]
    table.act("damage", "cave-bear", amount=8)
    hurt = table.api("GET", "/characters/cave-bear").json()["view"]["current_hp"]

    # dropped on the form: a changed file updates the bear and keeps its wound
    changed = json.loads(BEAR.read_text(encoding="utf-8"))
    hp = next(a for a in changed["attributes"] if a["attr_id"] == "hp")
    hp["adj"] = hp.get("adj", 0) + 4
    page.evaluate(
        """([text, name]) => {
            const zone = document.querySelector("form.sheet-file [data-drop]");
            const data = new DataTransfer();
            data.items.add(new File([text], name, { type: "application/json" }));
            zone.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
        }""",
        [json.dumps(changed), "Cave Bear.gcs"],
    )
    form.locator("input[name=mode][value=update]").check()
    form.locator("button[type=submit]").click()
    expect(report).to_contain_text("updated cave-bear from Cave Bear.gcs", timeout=20_000)
    expect(report).to_contain_text(f"hp: {bear['hp']} -> {bear['hp'] + 4}")
    after = table.api("GET", "/characters/cave-bear").json()["view"]
    assert after["hp"] == bear["hp"] + 4 and after["current_hp"] == hurt
    shoot(page, screens, "sheet-files")

    # a file that is not GCS at all: a clear error and nothing written
    version = table.api("GET", "").json()["version"]
    form.locator("input[type=file]").set_input_files(
        files=[{"name": "notes.gcs", "mimeType": "application/json", "buffer": b'{"name": "not a sheet"}'}]
    )
    form.locator("input[name=mode][value=add]").check()
    form.locator("input[name=actor]").fill("notes")
    form.locator("button[type=submit]").click()
    expect(report).to_contain_text("notes.gcs", timeout=20_000)
    expect(report.locator("[role=alert]")).to_contain_text("version")
    assert table.api("GET", "").json()["version"] == version
    page.context.close()
