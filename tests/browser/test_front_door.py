"""The front door in a real Chromium against a real ``rulekeeper serve`` (issue 27 item 7, issue
26 item 6): ``/`` on a phone, joining by a link whose token is in the fragment (absent from
every request's address, every ``Referer`` and the server's log), an old ``?token=`` link, the
question before a sign-in is replaced, and a pasted link."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect

from web.web_support import ServeProcess

from .browser_support import LAPTOP, PHONE, new_table, shoot


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A server that writes an access log, to look for tokens in it."""
    tmp = tmp_path_factory.mktemp("door")
    proc = ServeProcess(str(tmp / "campaigns.db"), options=("--access-log",)).start(tmp)
    try:
        yield proc
    finally:
        proc.stop()


class Watched:
    """A browser context whose every request (address and headers) is kept."""

    def __init__(self, browser: Browser, viewport: dict[str, int]) -> None:
        self.context: BrowserContext = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        self.requests: list[Request] = []
        self.context.on("request", self._keep)
        self.page: Page = self.context.new_page()

    def _keep(self, request: Request) -> None:
        self.requests.append(request)

    def leaks(self, secret: str) -> list[str]:
        """Every request whose address or headers (``Referer`` included) hold ``secret``; the
        page cookie, which holds it by design (HttpOnly, SameSite=Strict), aside."""
        return [
            f"{r.method} {r.url}"
            for r in self.requests
            if secret in r.url or any(secret in v for k, v in r.all_headers().items() if k != "cookie")
        ]


def _serious(page: Page) -> list[dict[str, object]]:
    violations = Axe().run(page).response["violations"]
    return [
        {"id": v["id"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def _secret(token: str) -> str:
    return token.rsplit(".", 1)[1]


def _log(server: ServeProcess) -> str:
    assert server.log is not None
    return server.log.read_text()


def test_a_phone_joins_by_a_fragment_link_and_finds_the_campaign_on_the_front_page(
    browser: Browser, logged: ServeProcess, screens: Path
) -> None:
    table = new_table(logged.url, "gurps", prefix="door")
    table.add("hero", {"name": "Sir Hero", "ht": 12, "st": 12}, player="ana")
    token = table.invite("ana", "hero")
    phone = Watched(browser, PHONE)
    page = phone.page
    # A stranger: no campaign is named, and the way in is explained.
    page.goto(f"{logged.url}/")
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    expect(page.locator("#joined-none")).to_be_visible()
    expect(page.get_by_role("heading", name="Join a campaign")).to_be_visible()
    assert table.name not in page.content()
    assert _serious(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, screens, "front-stranger")
    # The join link: the page takes the token from the fragment and opens the player's page.
    page.goto(table.join_url(token))
    page.wait_for_selector("body[data-live=on]", timeout=15_000)
    expect(page.locator("#mine [data-actor=hero]")).to_be_visible()
    assert page.url == f"{logged.url}/campaigns/{table.name}"
    assert "token" not in page.evaluate("location.href")
    # Back at the front door, the campaign is listed, and its link opens it.
    page.goto(f"{logged.url}/")
    link = page.get_by_role("link", name=table.name)
    expect(link).to_be_visible()
    expect(page.locator("#joined")).to_contain_text("you are player ana")
    for size in (PHONE, LAPTOP):
        page.set_viewport_size(dict(size))  # type: ignore[arg-type]
        assert _serious(page) == [], size
    page.set_viewport_size(dict(PHONE))  # type: ignore[arg-type]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, screens, "front-joined")
    link.click()
    page.wait_for_selector("body[data-live=on]", timeout=15_000)
    # The token travelled only in the join POST's body, then in the cookie: in no address, no
    # Referer, no other header, and not in the server's log.
    posts = [r for r in phone.requests if r.method == "POST" and r.url.endswith(f"/campaigns/{table.name}/join")]
    assert len(posts) == 1 and _secret(token) in (posts[0].post_data or "")
    assert phone.leaks(_secret(token)) == []
    assert _secret(token) not in _log(logged)
    phone.context.close()


def test_an_old_link_lands_on_the_page_and_its_token_leaves_every_address(
    browser: Browser, logged: ServeProcess
) -> None:
    table = new_table(logged.url, "gurps", prefix="door-old")
    token = table.invite("obi", role="observer")
    tab = Watched(browser, PHONE)
    tab.page.goto(f"{logged.url}/campaigns/{table.name}/join?token={token}")
    tab.page.wait_for_selector("body[data-live=on]", timeout=15_000)
    assert tab.page.url == f"{logged.url}/campaigns/{table.name}"
    # Only the old link's own request holds it (masked in the log); the redirect moved it to the fragment.
    assert tab.leaks(_secret(token)) == [f"GET {logged.url}/campaigns/{table.name}/join?token={token}"]
    assert f"/campaigns/{table.name}/join?token=***" in _log(logged) and _secret(token) not in _log(logged)
    tab.context.close()


def test_a_join_link_asks_before_it_replaces_the_sign_in_and_no_keeps_it(
    browser: Browser, logged: ServeProcess
) -> None:
    table = new_table(logged.url, "gurps", prefix="door-ask")
    ana = table.invite("ana")
    laptop = Watched(browser, LAPTOP)
    page = laptop.page
    page.goto(table.join_url(table.gm))
    page.wait_for_selector("#invite-form", timeout=15_000)
    # ana's link in the GM's browser: a question, and nothing changed yet.
    page.goto(table.join_url(ana))
    expect(page.get_by_role("button", name="Yes, continue as player ana")).to_be_visible()
    expect(page.locator("#join-current")).to_contain_text("gm ")
    assert "token" not in page.evaluate("location.href")
    assert _serious(page) == []
    page.get_by_role("link", name="No, stay").click()
    page.wait_for_selector("#invite-form", timeout=15_000)  # still the GM's dashboard
    page.goto(table.join_url(ana))
    page.get_by_role("button", name="Yes, continue as player ana").click()
    page.wait_for_selector("body[data-live=on]", timeout=15_000)
    expect(page.locator("#invite-form")).to_have_count(0)
    expect(page.locator('[data-live="mine"]')).to_have_count(1)
    laptop.context.close()


def test_a_pasted_link_opens_on_this_server_and_a_wrong_one_is_explained(
    browser: Browser, logged: ServeProcess
) -> None:
    table = new_table(logged.url, "gurps", prefix="door-paste")
    token = table.invite("bea", role="observer")
    tab = Watched(browser, PHONE)
    page = tab.page
    page.goto(f"{logged.url}/")
    field = page.get_by_label("Or paste your join link here")
    field.fill("http://example.invalid/not-a-join-link")
    page.get_by_role("button", name="Open the link").click()
    expect(page.locator("#paste-error")).to_contain_text("not a join link")
    # A link printed with another address (or the old ?token= form) opens here, token in the fragment.
    field.fill(f"http://10.9.8.7:8000/campaigns/{table.name}/join?token={token}")
    page.get_by_role("button", name="Open the link").click()
    page.wait_for_selector("body[data-live=on]", timeout=15_000)
    assert page.url == f"{logged.url}/campaigns/{table.name}"
    assert tab.leaks(_secret(token)) == []
    tab.context.close()
