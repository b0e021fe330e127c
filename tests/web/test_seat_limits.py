"""Issue 26, items 5 and 6, against a real ``rulekeeper serve``: limits on bodies, slow clients
and live streams; a browser's sign-in used only by this server's own pages; revocation at once."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from rulekeeper.web.auth import cookie_name

from .web_support import RULEKEEPER, EventStream, ServeProcess, bearer, cli, cli_json, serving

# Small limits so the tests reach them with small requests; the defaults are in docs/api.md.
LIMITS = {
    "RULEKEEPER_MAX_BODY_BYTES": "20000",
    "RULEKEEPER_BODY_TIMEOUT": "1",
    "RULEKEEPER_HEADER_TIMEOUT": "1",
    "RULEKEEPER_MAX_STREAMS_PER_TOKEN": "2",
}


@dataclass
class Seat:
    server: ServeProcess
    env: dict[str, str]
    gm: str
    ana: str

    def cookie(self, token: str) -> dict[str, str]:
        return {"Cookie": f"{cookie_name('fri')}={token}"}


@pytest.fixture(scope="module")
def seat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Seat]:
    tmp = tmp_path_factory.mktemp("seat")
    env = {"XDG_DATA_HOME": str(tmp / "data"), "RULEKEEPER_CONFIG": str(tmp / "selection.json"), **LIMITS}
    gm = cli_json("campaign", "new", "fri", "--system", "gurps", "--seed", "1", env=env)["gm_token"]
    cli("char", "add", "hero", "--set", "name=Hero", "--set", "st=10", "--player", "ana", env=env)
    ana = cli_json("campaign", "invite", "fri", "--player", "ana", env=env)["token"]
    with serving(None, tmp, env=env) as server:
        yield Seat(server, env, gm, ana)


def _raw(seat: Seat, data: bytes, *, wait: float = 10) -> bytes:
    """Send ``data`` on a fresh connection and read until the server closes it or answers."""
    with socket.create_connection(("127.0.0.1", seat.server.port), timeout=wait) as sock:
        sock.sendall(data)
        out = b""
        while b"\r\n\r\n" not in out:
            chunk = sock.recv(65536)
            if not chunk:
                break
            out += chunk
        return out


def _status(raw: bytes) -> int:
    return int(raw.split(b" ", 2)[1]) if raw else 0


def test_a_big_body_is_refused_before_it_is_read(seat: Seat) -> None:
    head = (
        "POST /api/campaigns/fri/gurps/actions/damage HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {seat.gm}\r\nContent-Type: application/json\r\nContent-Length: 200000000\r\n\r\n"
    )
    answer = _raw(seat, head.encode())  # not one byte of the 200 MB sent: answered all the same
    assert _status(answer) == 413, answer
    # Without a length (chunked), the body is cut off once it passes the limit.
    big = json.dumps({"actor": "hero", "params": {"amount": 1}, "pad": "x" * 50000}).encode()
    r = httpx.post(
        f"{seat.server.url}/api/campaigns/fri/gurps/actions/damage",
        headers={**bearer(seat.gm), "Content-Type": "application/json"},
        content=iter([big[i : i + 4096] for i in range(0, len(big), 4096)]),
        timeout=30,
    )
    assert r.status_code == 413 and "20,000 bytes" in r.json()["detail"]
    assert r.headers["content-type"].startswith("application/problem+json")


def test_slow_clients_are_dropped(seat: Seat) -> None:
    # Headers never finished: the connection is closed, with no answer.
    assert _raw(seat, b"GET /api/health HTTP/1.1\r\nHost: x\r\n") == b""
    # A body that stops arriving: 408.
    head = (
        "POST /api/campaigns/fri/round HTTP/1.1\r\nHost: x\r\n"
        f"Authorization: Bearer {seat.gm}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    )
    assert _status(_raw(seat, head.encode())) == 408
    assert httpx.get(f"{seat.server.url}/api/health", timeout=10).status_code == 200


def _exchange(sock: socket.socket, request: bytes) -> bytes:
    sock.sendall(request)
    answer = b""
    while not answer.endswith(b"}"):  # the health check's small JSON body
        chunk = sock.recv(65536)
        assert chunk, "the server closed a connection that kept to its deadline"
        answer += chunk
    return answer


_HEALTH = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"


def _answers_for_over_a_second(sock: socket.socket) -> float:
    """Four health checks 0.4 s apart on ``sock``, each answered (one connection kept past a
    1 s limit); the moment of the last answer."""
    started = answered = time.monotonic()
    for turn in range(4):
        if turn:
            time.sleep(0.4)
        assert _status(_exchange(sock, _HEALTH)) == 200
        answered = time.monotonic()
    assert answered - started > 1.1
    return answered


def test_a_kept_alive_connection_has_its_header_deadline_from_its_last_answer(seat: Seat) -> None:
    """Each answer gives the connection a new deadline (1 s here) for its next request's headers:
    requests 0.4 s apart go on for longer than one deadline; a connection then left idle is closed
    when its deadline comes, never before."""
    with socket.create_connection(("127.0.0.1", seat.server.port), timeout=10) as sock:
        answered = _answers_for_over_a_second(sock)  # past one deadline, on one connection
        assert sock.recv(1) == b""  # then idle: closed by the server ...
        assert 0.7 < time.monotonic() - answered < 5.0  # ... at its deadline, a second after its last answer


def test_a_connection_idle_for_the_keep_alive_time_is_closed_cleanly(tmp_path: Path) -> None:
    """The keep-alive time (1 s here, with a header deadline far off) counts from each answer:
    requests 0.4 s apart go on past it; a connection then left idle is closed, with an orderly
    end of stream rather than a reset, about a second after its last answer and never before."""
    env = {
        **LIMITS,
        "RULEKEEPER_HEADER_TIMEOUT": "60",
        "RULEKEEPER_KEEPALIVE_TIMEOUT": "1",
        "RULEKEEPER_BODY_TIMEOUT": "10",
    }
    with serving(str(tmp_path / "c.db"), tmp_path, env=env) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            answered = _answers_for_over_a_second(sock)  # past one keep-alive time
            assert sock.recv(1) == b""  # idle: an orderly close (a reset would raise here) ...
            assert 0.7 < time.monotonic() - answered < 5.0  # ... about a second after its last answer
        # Two connections idle at once: each closed in its own time.
        first = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        second = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        with first, second:
            assert _status(_exchange(first, _HEALTH)) == 200
            first_answered = time.monotonic()
            time.sleep(0.5)
            assert _status(_exchange(second, _HEALTH)) == 200
            second_answered = time.monotonic()
            assert first.recv(1) == b""
            assert second.recv(1) == b""
            assert time.monotonic() - second_answered > 0.7  # the second kept its own full time
            assert time.monotonic() - first_answered < 5.0
        # A request under way is not idle: a body sent in two parts, longer than the keep-alive
        # time apart, still gets its answer on a connection that had answered before.
        body = json.dumps({"actor": "hero", "params": {"amount": 1}}).encode()
        head = (
            "POST /api/campaigns/nowhere/gurps/actions/damage HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: Bearer rk.x.y\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            assert _status(_exchange(sock, _HEALTH)) == 200
            sock.sendall(head + body[:5])
            time.sleep(1.5)
            sock.sendall(body[5:])
            answer = sock.recv(65536)
            assert _status(answer) == 401, answer


def test_a_token_holds_a_bounded_number_of_streams(seat: Seat) -> None:
    url = f"{seat.server.url}/api/campaigns/fri/events"
    streams = [EventStream(url, seat.ana), EventStream(url, seat.ana)]
    try:
        assert all(s.response.status_code == 200 for s in streams)
        r = httpx.get(url, headers=bearer(seat.ana), timeout=10)
        assert r.status_code == 429 and "2 live streams" in r.json()["detail"]
        other = EventStream(url, seat.gm)  # another token is not counted against ana's
        assert other.response.status_code == 200
        other.close()
    finally:
        for s in streams:
            s.close()


def test_a_cookie_may_only_post_from_this_servers_pages(seat: Seat) -> None:
    url = f"{seat.server.url}/api/campaigns/fri/redo"
    same = {**seat.cookie(seat.gm), "Origin": seat.server.url}
    for headers in (
        {**seat.cookie(seat.gm), "Origin": "http://127.0.0.1:1", "Content-Type": "application/json"},
        {**seat.cookie(seat.gm), "Sec-Fetch-Site": "same-site", "Content-Type": "application/json"},
        {**seat.cookie(seat.gm), "Content-Type": "application/json"},  # says nothing of where from
        same,  # no JSON
        {**same, "Content-Type": "text/plain"},
    ):
        r = httpx.post(url, headers=headers, timeout=10)
        assert r.status_code == 403 and "sign-in" in r.json()["detail"], (headers, r.text)
    r = httpx.post(url, headers={**same, "Content-Type": "application/json"}, content=b"{}", timeout=10)
    assert r.status_code == 409, r.text  # through: nothing to redo
    # A script's bearer token is not a browser's sign-in: no Origin rules for it.
    r = httpx.post(url, headers={**bearer(seat.gm), "Origin": "http://elsewhere.example"}, timeout=10)
    assert r.status_code == 409, r.text


def test_every_answer_carries_the_browser_headers(seat: Seat) -> None:
    for path, headers in (
        ("/campaigns/fri", seat.cookie(seat.gm)),
        ("/api/campaigns/fri", bearer(seat.gm)),
        ("/dice", {}),
        ("/api/health", {}),
    ):
        r = httpx.get(f"{seat.server.url}{path}", headers=headers, timeout=10)
        assert r.status_code == 200, (path, r.text)
        csp = r.headers["content-security-policy"]
        assert (
            "script-src 'self'" in csp
            and "frame-ancestors 'none'" in csp
            and "unsafe-inline" not in csp.split("script-src", 1)[1].split(";")[0]
        )
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-frame-options"] == "DENY"
        assert "server" not in r.headers and "date" in r.headers  # nothing says what software answers
        if "campaigns" in path:
            assert r.headers["cache-control"] == "no-store"


def test_a_join_link_asks_before_replacing_a_sign_in(seat: Seat) -> None:
    base = seat.server.url
    url = f"{base}/campaigns/fri/join"
    own = {"Origin": base}
    r = httpx.post(url, json={"token": seat.ana}, headers={**seat.cookie(seat.gm), **own}, timeout=10)
    assert r.status_code == 200 and "set-cookie" not in r.headers
    asked = r.json()
    assert asked["status"] == "ask" and asked["current"].startswith("gm ") and asked["incoming"] == "player ana"
    # Another site cannot post the answer for the GM, as JSON or as a form ...
    for extra in ({"json": {"token": seat.ana, "replace": True}}, {"content": f"token={seat.ana}".encode()}):
        headers = {**seat.cookie(seat.gm), "Origin": "http://evil.example"}
        if "content" in extra:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        r = httpx.post(url, headers=headers, timeout=10, **extra)  # type: ignore[arg-type]
        assert r.status_code == 403 and "set-cookie" not in r.headers
    # ... nor can the page itself post a form: a page's requests carry JSON.
    r = httpx.post(
        url,
        headers={**seat.cookie(seat.gm), **own, "Content-Type": "application/x-www-form-urlencoded"},
        content=f"token={seat.ana}".encode(),
        timeout=10,
    )
    assert r.status_code == 403 and "set-cookie" not in r.headers
    # The page's own answer switches.
    r = httpx.post(url, json={"token": seat.ana, "replace": True}, headers={**seat.cookie(seat.gm), **own}, timeout=10)
    assert r.status_code == 200 and r.json()["status"] == "signed-in"
    assert cookie_name("fri") in r.headers["set-cookie"] and "samesite=strict" in r.headers["set-cookie"].lower()
    # No sign-in yet, or the same one: straight through.
    for headers in ({}, seat.cookie(seat.ana)):
        r = httpx.post(url, json={"token": seat.ana}, headers={**headers, **own}, timeout=10)
        assert r.status_code == 200 and r.json()["status"] == "signed-in"


def test_revoking_ends_a_stream_at_once(seat: Seat) -> None:
    bob = cli_json("campaign", "invite", "fri", "--player", "bob", env=seat.env)["token"]
    # A read timeout well under the 15 s keepalive: the end must come from the revocation itself.
    stream = EventStream(f"{seat.server.url}/api/campaigns/fri/events", bob, timeout=5)
    try:
        stream.until(1)
        cli("campaign", "revoke", "fri", "--member", "bob", env=seat.env)
        event = stream.next()
        while event.event == "command":
            event = stream.next()
        assert event.event == "revoked"
    finally:
        stream.close()
    assert httpx.get(f"{seat.server.url}/api/campaigns/fri", headers=bearer(bob), timeout=10).status_code == 401


def test_new_names_must_stand_in_an_address_and_old_ones_still_open(seat: Seat) -> None:
    base = seat.server.url
    for bad in ("a/b", "//evil.example", "..", "Saturday group"):
        r = httpx.post(f"{base}/api/campaigns", json={"name": bad, "system": "gurps"}, timeout=30)
        assert r.status_code == 400 and "letters A-Z" in r.json()["expected"], (bad, r.text)
    r = httpx.post(
        f"{base}/api/campaigns/fri/characters",
        headers=bearer(seat.gm),
        json={"actor": "../x", "sheet": {"name": "X", "st": 10}},
        timeout=30,
    )
    assert r.status_code == 400 and "letters A-Z" in r.json()["expected"], r.text
    # A campaign whose name predates the rule (here: an import under its old name) still opens.
    exported = httpx.get(f"{base}/api/campaigns/fri/export", headers=bearer(seat.gm), timeout=30).json()
    r = httpx.post(f"{base}/api/campaigns/import", json={"document": exported, "name": "Old table"}, timeout=30)
    assert r.status_code == 201, r.text
    old = r.json()["gm_token"]
    assert httpx.get(f"{base}/api/campaigns/Old%20table", headers=bearer(old), timeout=30).status_code == 200


def test_serve_refuses_a_limit_that_is_not_a_number(tmp_path: Path) -> None:
    proc = subprocess.run(
        [RULEKEEPER, "serve", "--db", str(tmp_path / "c.db"), "--port", "0"],
        capture_output=True,
        text=True,
        env={**os.environ, "RULEKEEPER_MAX_BODY_BYTES": "lots"},
        timeout=60,
    )
    assert proc.returncode == 2 and "RULEKEEPER_MAX_BODY_BYTES='lots'" in proc.stderr, proc.stderr


def test_idle_connections_beyond_the_cap_make_room_for_real_clients(tmp_path: Path) -> None:
    env = {**LIMITS, "RULEKEEPER_MAX_CONNECTIONS": "20", "RULEKEEPER_HEADER_TIMEOUT": "60"}
    with serving(str(tmp_path / "c.db"), tmp_path, env=env) as server:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(60)]
        try:
            # Sixty silent connections on a cap of twenty: the oldest of them were closed ...
            idle[0].settimeout(10)
            assert idle[0].recv(1) == b""
            # ... and a client that asks gets its answer.
            assert httpx.get(f"{server.url}/api/health", timeout=10).status_code == 200
        finally:
            for sock in idle:
                sock.close()
        assert "Traceback" not in (server.log.read_text() if server.log else "")
