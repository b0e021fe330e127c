"""Issue 27, item 7 (the front door) and issue 26's join-token item, against a real
``rulekeeper serve`` and the real ``rulekeeper`` command: ``GET /`` lists only the campaigns
this browser holds a live sign-in for; printed links name where the server really is (the port
bound, or ``--public-url``); an old ``?token=`` link is redirected and its token never logged."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from rulekeeper.core import system_names
from rulekeeper.links import DEFAULT_BASE_URL
from rulekeeper.web.auth import cookie_name

from .web_support import RULEKEEPER, bearer, cli, cli_json, free_port, serving

NAME = "frontdoor-fri"
OTHER = "frontdoor-sun"
_NOT_BOUND = "No 'rulekeeper serve' is running on this database"


@dataclass
class Door:
    tmp: Path
    env: dict[str, str]
    gm: str
    other_gm: str


def _env(tmp: Path) -> dict[str, str]:
    return {
        "XDG_DATA_HOME": str(tmp / "data"),
        "RULEKEEPER_CONFIG": str(tmp / "config" / "selection.json"),
        "RULEKEEPER_DB": str(tmp / "door.db"),
        "RULEKEEPER_BASE_URL": "",  # whatever the machine's environment says, these tests decide
        "NO_COLOR": "1",
    }


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Door:
    tmp = tmp_path_factory.mktemp("door")
    env = _env(tmp)
    system = system_names()[0]
    gm = cli_json("campaign", "new", NAME, "--system", system, "--seed", "3", env=env)["gm_token"]
    other = cli_json("campaign", "new", OTHER, "--system", system, "--seed", "4", env=env)["gm_token"]
    return Door(tmp, env, gm, other)


@pytest.fixture
def served(door: Door) -> Iterator[str]:
    """``rulekeeper serve`` on a free port (never serve's default 8000), with an access log."""
    with serving(None, door.tmp, env=door.env, options=("--access-log",)) as server:
        assert server.port != 8000
        yield server.url


def _members(door: Door) -> int:
    return len(cli_json("campaign", "members", NAME, env=door.env)["members"])


def test_links_name_the_port_serve_really_bound_and_the_default_says_it_is_a_guess(door: Door) -> None:
    text = cli("campaign", "invite", NAME, "--observer", "before", env=door.env)
    assert f"{DEFAULT_BASE_URL}/campaigns/{NAME}/join#token=rk1." in text and _NOT_BOUND in text
    with serving(None, door.tmp, env=door.env) as server:
        made = cli_json("campaign", "invite", NAME, "--player", "ana", env=door.env)
        assert made["link"] == f"{server.url}/campaigns/{NAME}/join#token={made['token']}"
        text = cli("campaign", "invite", NAME, "--observer", "obi", env=door.env)
        assert f"{server.url}/campaigns/{NAME}/join#token=rk1." in text and _NOT_BOUND not in text
        new = cli_json("campaign", "new", "frontdoor-new", "--system", system_names()[0], env=door.env)
        assert new["gm_link"].startswith(f"{server.url}/campaigns/frontdoor-new/join#token=rk1.")
        # The API's links (the dashboard's invites and their QR codes) name the same address.
        r = httpx.post(
            f"{server.url}/api/campaigns/{NAME}/members",
            json={"name": "cai", "role": "observer"},
            headers=bearer(door.gm),
            timeout=30,
        )
        assert r.status_code == 201 and r.json()["join_url"].startswith(f"{server.url}/campaigns/{NAME}/join#token=")
        # --url wins over the running server; a bad one is refused before a token is made.
        given = cli_json(
            "campaign", "invite", NAME, "--observer", "dee", "--url", "http://table.lan:9000/", env=door.env
        )
        assert given["link"].startswith(f"http://table.lan:9000/campaigns/{NAME}/join#token=")
        before = _members(door)
        proc = subprocess.run(
            [RULEKEEPER, "campaign", "invite", NAME, "--observer", "eve", "--url", "ftp://x"],
            capture_output=True,
            text=True,
            env={**os.environ, **door.env},
            timeout=60,
        )
        assert proc.returncode == 2 and "http://HOST[:PORT]" in proc.stderr and "Traceback" not in proc.stderr
        assert _members(door) == before
        log = server.log.read_text() if server.log else ""
        assert f"links point to {server.url}" in log
    # Once serve has stopped, its address is no longer claimed.
    assert cli_json("campaign", "invite", NAME, "--observer", "fay", env=door.env)["link"].startswith(DEFAULT_BASE_URL)


def test_serve_public_url_is_every_link_s_base(door: Door) -> None:
    public = "https://table.example.org/rk"
    with serving(None, door.tmp, env=door.env, options=("--public-url", public + "/")) as server:
        made = cli_json("campaign", "invite", NAME, "--observer", "gil", env=door.env)
        assert made["link"] == f"{public}/campaigns/{NAME}/join#token={made['token']}"
        r = httpx.post(
            f"{server.url}/api/campaigns/{NAME}/members",
            json={"name": "hal", "role": "observer"},
            headers=bearer(door.gm),
            timeout=30,
        )
        assert r.json()["join_url"].startswith(f"{public}/campaigns/{NAME}/join#token=")
    proc = subprocess.run(
        [RULEKEEPER, "serve", "--port", str(free_port()), "--public-url", "table.example.org"],
        capture_output=True,
        text=True,
        env={**os.environ, **door.env},
        timeout=60,
    )
    assert proc.returncode == 2 and "--public-url" in proc.stderr and "Traceback" not in proc.stderr


def test_serve_on_port_zero_links_to_the_port_it_was_given(door: Door) -> None:
    log = door.tmp / "port-zero.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [RULEKEEPER, "serve", "--port", "0"],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **door.env},
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        found = None
        while found is None and time.monotonic() < deadline and proc.poll() is None:
            found = re.search(r"listening on (http://127\.0\.0\.1:(\d+))", log.read_text())
            time.sleep(0.1)
        assert found is not None, log.read_text()
        url, port = found.group(1), int(found.group(2))
        assert port != 0
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        assert cli_json("campaign", "invite", NAME, "--observer", "ivy", env=door.env)["link"].startswith(url + "/")
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)


def test_the_front_page_lists_only_the_campaigns_this_browser_holds_a_sign_in_for(door: Door, served: str) -> None:
    stranger = httpx.get(f"{served}/", timeout=30)
    assert stranger.status_code == 200 and stranger.headers["content-type"].startswith("text/html")
    assert NAME not in stranger.text and OTHER not in stranger.text and "has not joined" in stranger.text
    assert "Join a campaign" in stranger.text and '<script src="/static/front.js"' in stranger.text
    assert re.search(r"<script(?![^>]*\bsrc=)", stranger.text) is None  # no inline script
    assert "script-src 'self'" in stranger.headers["content-security-policy"]
    # A cookie for one campaign shows that one, as who this browser is there; not the other.
    gm_cookie = {cookie_name(NAME): door.gm}
    mine = httpx.get(f"{served}/", cookies=gm_cookie, timeout=30).text
    assert f'href="/campaigns/{NAME}"' in mine and OTHER not in mine and "you are gm " in mine
    both = httpx.get(f"{served}/", cookies={**gm_cookie, cookie_name(OTHER): door.other_gm}, timeout=30).text
    assert f'href="/campaigns/{NAME}"' in both and f'href="/campaigns/{OTHER}"' in both
    # A token of one campaign under the other's cookie, a forged one or a revoked one opens nothing.
    ana = cli_json("campaign", "invite", NAME, "--player", "jo", env=door.env)["token"]
    wrong = {cookie_name(OTHER): ana, cookie_name("nothing-here"): door.gm}
    assert OTHER not in httpx.get(f"{served}/", cookies=wrong, timeout=30).text
    forged = {cookie_name(NAME): "rk1.0000000000000000.forged"}
    assert NAME not in httpx.get(f"{served}/", cookies=forged, timeout=30).text
    assert "you are player jo" in httpx.get(f"{served}/", cookies={cookie_name(NAME): ana}, timeout=30).text
    cli("campaign", "revoke", NAME, "--member", "jo", env=door.env)
    assert NAME not in httpx.get(f"{served}/", cookies={cookie_name(NAME): ana}, timeout=30).text


def test_an_old_join_link_is_redirected_to_the_fragment_and_its_token_is_never_logged(door: Door, served: str) -> None:
    made = cli_json("campaign", "invite", NAME, "--player", "kim", env=door.env)
    token = made["token"]
    secret = token.rsplit(".", 1)[1]
    with httpx.Client(timeout=30) as client:
        r = client.get(f"{served}/campaigns/{NAME}/join", params={"token": token}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/campaigns/{NAME}/join#token={token}"
        page = client.get(f"{served}/campaigns/{NAME}/join")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        assert page.headers["referrer-policy"] == "no-referrer"
        joined = client.post(f"{served}/campaigns/{NAME}/join", json={"token": token}, headers={"Origin": served})
        assert joined.status_code == 200 and joined.json()["incoming"] == "player kim"
        assert client.get(f"{served}/campaigns/{NAME}").status_code == 200  # the cookie opens the page
    path = door.tmp / f"serve-{served.rsplit(':', 1)[1]}.log"
    deadline = time.monotonic() + 30
    while f"GET /campaigns/{NAME} HTTP" not in path.read_text():  # the access log follows each answer
        assert time.monotonic() < deadline, path.read_text()
        time.sleep(0.1)
    log = path.read_text()
    assert f"/campaigns/{NAME}/join?token=***" in log  # the old link's one request, masked
    assert secret not in log
