"""Browser tests: a real Chromium (Debian's ``chromium``) driven by Playwright against a real
``rulekeeper serve`` subprocess on 127.0.0.1. They never skip in CI (``CI`` set): a missing
browser fails them there; ``scripts/check.py`` installs it first."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from web.web_support import ServeProcess

from .browser_support import CHROMIUM, launch

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Playwright, sync_playwright


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is open, and the in-process API tests run their own loop after these modules.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install chromium (scripts/check.py does)")
        pytest.skip(f"Chromium is missing at {CHROMIUM}")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = launch(playwright)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("serve")
    proc = ServeProcess(str(tmp / "campaigns.db")).start(tmp)
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def screens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: ``RULEKEEPER_SCREENSHOTS`` (to look at them), else a temporary dir."""
    chosen = os.environ.get("RULEKEEPER_SCREENSHOTS")
    path = Path(chosen) if chosen else tmp_path_factory.mktemp("screens")
    path.mkdir(parents=True, exist_ok=True)
    return path
