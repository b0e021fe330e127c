"""Helpers of the browser tests: launching Debian's Chromium, campaigns set up through the API,
pages opened from invite links, form filling from ``ParamSpec``s."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, Page, Playwright

from web.web_support import bearer

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
_NAMES = count(1)


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)


@dataclass
class Table:
    """A campaign on the server, its GM token and the members' tokens."""

    base: str
    name: str
    system: str
    gm: str
    tokens: dict[str, str] = field(default_factory=dict)

    def api(self, method: str, rest: str, token: str | None = None, **kw: Any) -> httpx.Response:
        r = httpx.request(
            method, f"{self.base}/api/campaigns/{self.name}{rest}", headers=bearer(token or self.gm), timeout=60, **kw
        )
        assert r.status_code < 300, (method, rest, r.status_code, r.text)
        return r

    def add(self, actor: str, sheet: Mapping[str, Any], player: str | None = None) -> None:
        self.api("POST", "/characters", json={"actor": actor, "sheet": dict(sheet), "player": player})

    def invite(self, name: str, *characters: str, role: str = "player") -> str:
        r = self.api("POST", "/members", json={"name": name, "role": role, "characters": list(characters)})
        token: str = r.json()["token"]
        self.tokens[name] = token
        return token

    def act(self, action: str, actor: str | None, **params: Any) -> dict[str, Any]:
        body: dict[str, Any] = {"params": params}
        if actor is not None:
            body["actor"] = actor
        out: dict[str, Any] = self.api("POST", f"/{self.system}/actions/{action}", json=body).json()
        return out

    def join_url(self, token: str) -> str:
        return f"{self.base}/campaigns/{self.name}/join#token={token}"


def new_table(base: str, system: str, *, prefix: str = "t", **settings: Any) -> Table:
    name = f"{prefix}-{next(_NAMES)}"
    r = httpx.post(f"{base}/api/campaigns", json={"name": name, "system": system, "seed": 5}, timeout=60)
    assert r.status_code == 201, r.text
    table = Table(base, name, r.json()["campaign"]["system"], r.json()["gm_token"])
    if settings:
        table.api("PATCH", "/settings", json=settings)
    return table


def open_page(browser: Browser, table: Table, token: str, viewport: Mapping[str, int] = LAPTOP) -> Page:
    """A fresh browser context (its own cookies) opened from the member's join link."""
    context: BrowserContext = browser.new_context(viewport=dict(viewport))  # type: ignore[arg-type]
    page = context.new_page()
    # Everything the page loads as it opens is answered: its scripts and styles come several at
    # once with the page's cookie, and none may be refused (the fairness limit once did).
    refused: list[tuple[int, str]] = []

    def answered(response: Any) -> None:
        if response.status >= 400:
            refused.append((response.status, response.url))

    page.on("response", answered)
    page.goto(table.join_url(token))
    page.wait_for_selector("body[data-live=on]", timeout=10_000)
    page.wait_for_load_state("load")
    page.remove_listener("response", answered)
    assert not refused, f"the page's own requests were refused as it opened: {refused}"
    return page


def shoot(page: Page, where: Path, name: str) -> list[Path]:
    """The page at a phone's and a laptop's size: full length, and the first screenful."""
    out = []
    for label, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page.set_viewport_size(dict(size))  # type: ignore[arg-type]
        page.evaluate("window.scrollTo(0, 0)")
        for suffix, full in (("", True), ("-screen", False)):
            path = where / f"{name}-{label}{suffix}.png"
            page.screenshot(path=str(path), full_page=full)
            out.append(path)
    return out
