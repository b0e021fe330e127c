"""A real ``rulekeeper serve`` subprocess on 127.0.0.1: SQLite (the CLI's default file) and
PostgreSQL with two worker processes; the CLI writes beside it."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from .web_support import EventStream, bearer, cli, cli_json, serving

GURPS_HERO = ("--set", "name=Hero", "--set", "st=10", "--set", "ht=10")


def _env(tmp_path: Path) -> dict[str, str]:
    # No --db and no RULEKEEPER_DB: the CLI and the server both use the default file, here under
    # a private data directory.
    return {"XDG_DATA_HOME": str(tmp_path / "data"), "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}


def _damage(base: str, campaign: str, token: str, actor: str, amount: int) -> httpx.Response:
    return httpx.post(
        f"{base}/api/campaigns/{campaign}/gurps/actions/damage",
        headers=bearer(token),
        json={"actor": actor, "params": {"amount": amount}},
        timeout=30,
    )


def test_sqlite_server_sees_the_cli_streams_resumes_and_revokes(tmp_path: Path) -> None:
    env = _env(tmp_path)
    made = cli_json("campaign", "new", "fri", "--system", "gurps", "--seed", "1", env=env)
    gm = made["gm_token"]
    assert made["gm_link"].endswith(gm)
    cli("char", "add", "hero", *GURPS_HERO, "--player", "ana", env=env)
    cli("char", "add", "brute", *GURPS_HERO, "--player", "bea", env=env)
    ana = cli_json("campaign", "invite", "fri", "--player", "ana", env=env)["token"]
    # With the access log on (off by default), which must still never keep a token.
    with serving(None, tmp_path, env=env, options=("--access-log",)) as server:
        events_url = f"{server.url}/api/campaigns/fri/events"
        stream = EventStream(events_url, ana)
        try:
            backlog = stream.until(2)
            assert [e.id for e in backlog] == [1, 2]
            cli("damage", "hero", "--amount", "3", env=env)  # the CLI writes; the server pushes
            (event,) = stream.until(3)
            assert event.event == "command" and event.data["action"] == "damage" and event.data["version"] == 3
            assert event.data["explanation"] and all(s["actor"] in ("hero", None) for s in event.data["explanation"])
            r = _damage(server.url, "fri", gm, "brute", 2)
            assert r.status_code == 200, r.text
            (event,) = stream.until(4)
            assert event.data["actors"] == ["brute"] and event.data["explanation"] == []  # not ana's character
        finally:
            stream.close()

        # Two commands while away; a reconnect with Last-Event-ID gets exactly those.
        assert _damage(server.url, "fri", gm, "hero", 1).status_code == 200
        cli("damage", "hero", "--amount", "1", env=env)
        stream = EventStream(events_url, ana, last_event_id=4)
        try:
            assert [e.id for e in stream.until(6)] == [5, 6]
            cli("damage", "hero", "--amount", "1", env=env)
            assert [e.id for e in stream.until(7)] == [7]
            cli("campaign", "revoke", "fri", "--member", "ana", env=env)
            import time

            time.sleep(1.2)
            cli("damage", "hero", "--amount", "1", env=env)
            event = stream.next()
            assert event.event == "revoked" and event.id is None
        finally:
            stream.close()
        r = httpx.get(f"{server.url}/api/campaigns/fri", headers=bearer(ana), timeout=30)
        assert r.status_code == 401
        # The GM's view is the same campaign the CLI has.
        r = httpx.get(f"{server.url}/api/campaigns/fri", headers=bearer(gm), timeout=30)
        assert r.status_code == 200 and r.json()["version"] == 8
        log = server.log.read_text() if server.log else ""
        assert "POST /api/campaigns/fri/gurps/actions/damage" in log  # the access log is on
        assert gm not in log and ana.split(".")[2] not in log  # tokens never reach the log


@pytest.mark.postgres
def test_postgres_two_workers_deliver_across_processes(fresh_pg_url: str, tmp_path: Path) -> None:
    env = {"RULEKEEPER_DB": fresh_pg_url, "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm = cli_json("campaign", "new", "pg", "--system", "gurps", "--seed", "2", env=env)["gm_token"]
    cli("char", "add", "hero", *GURPS_HERO, "--player", "ana", env=env)
    ana = cli_json("campaign", "invite", "pg", "--player", "ana", env=env)["token"]
    with serving(fresh_pg_url, tmp_path, workers=2) as server:
        url = f"{server.url}/api/campaigns/pg/events"
        streams: dict[int, EventStream] = {}
        try:
            for _ in range(40):  # new connections land on either worker; hold one on each
                stream = EventStream(url, ana)
                stream.until(1)
                pid = int(re.findall(r"process (\d+)", " ".join(stream.comments))[0])
                if pid in streams:
                    # Closed at once: held, they would pass the streams one token may open (429).
                    stream.close()
                else:
                    streams[pid] = stream
                if len(streams) == 2:
                    break
            assert len(streams) == 2, "both workers should have taken a connection"
            r = _damage(server.url, "pg", gm, "hero", 4)  # served by one worker ...
            assert r.status_code == 200, r.text
            for stream in streams.values():  # ... and heard on both
                (event,) = stream.until(2)
                assert event.data["action"] == "damage" and event.data["actors"] == ["hero"]
            cli("damage", "hero", "--amount", "1", env=env)  # the CLI: each worker looks at the heads
            for stream in streams.values():
                assert [e.id for e in stream.until(3)] == [3]
        finally:
            for stream in streams.values():
                stream.close()
