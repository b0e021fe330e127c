"""Two ``rulekeeper serve`` processes on different ports sharing one PostgreSQL, as two machines
behind a load balancer would: commands sent to both are serialized per campaign, each page
hears every command whichever process served it, undo on one reverses what the other wrote,
and killing one process in the middle of its writes loses and duplicates nothing (a client
retries on the other with the same ``Idempotency-Key``)."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import httpx
import pytest

from .web_support import EventStream, SseEvent, bearer, cli, cli_json, serving

GURPS_HERO = ("--set", "name=Hero", "--set", "st=10", "--set", "ht=10")
PER_SERVER = 25


def _act(base: str, token: str, key: str, action: str) -> httpx.Response:
    return httpx.post(
        f"{base}/api/campaigns/two/gurps/actions/{action}",
        headers={**bearer(token), "Idempotency-Key": key},
        json={"actor": "hero", "params": {"amount": 1}},
        timeout=30,
    )


def _events(stream: EventStream, last: int) -> list[SseEvent]:
    return [e for e in stream.until(last) if e.id is not None]


@pytest.mark.postgres
def test_two_servers_share_campaigns_and_lose_nothing_when_one_dies(fresh_pg_url: str, tmp_path: Path) -> None:
    env = {"RULEKEEPER_DB": fresh_pg_url, "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm = cli_json("campaign", "new", "two", "--system", "gurps", "--seed", "4", env=env)["gm_token"]
    cli("char", "add", "hero", *GURPS_HERO, "--player", "ana", env=env)
    ana = cli_json("campaign", "invite", "two", "--player", "ana", env=env)["token"]
    with serving(fresh_pg_url, tmp_path) as one, serving(fresh_pg_url, tmp_path) as other:
        pages = {one.url: EventStream(f"{one.url}/api/campaigns/two/events", ana)}
        pages[other.url] = EventStream(f"{other.url}/api/campaigns/two/events", ana)
        try:
            for page in pages.values():
                assert [e.id for e in _events(page, 1)] == [1]

            # Undo across processes: a command written by one, undone through the other.
            assert _act(one.url, gm, "first", "damage").status_code == 200
            r = httpx.post(f"{other.url}/api/campaigns/two/undo", headers=bearer(gm), json={}, timeout=30)
            assert r.status_code == 200 and r.json()["undone"] == [2], r.text
            r = httpx.post(f"{one.url}/api/campaigns/two/redo", headers=bearer(gm), timeout=30)
            assert r.status_code == 200 and r.json()["redone"] == [2], r.text
            for page in pages.values():  # both pages heard all three, in order
                assert [(e.id, e.data["action"] if e.id == 2 else e.data["kind"]) for e in _events(page, 4)] == [
                    (2, "damage"),
                    (3, "undo"),
                    (4, "redo"),
                ]

            # Both servers take commands at once; one is killed while its client is writing.
            answered: dict[str, int] = {}
            failed: list[tuple[str, str]] = []
            half_way = threading.Event()

            def client(base: str, name: str) -> None:
                for i in range(PER_SERVER):
                    key, action = f"{name}-{i}", ("damage", "heal")[i % 2]
                    if i == PER_SERVER // 2:
                        half_way.set()
                    try:
                        r = _act(base, gm, key, action)
                    except httpx.HTTPError:
                        failed.append((key, action))
                        continue
                    if r.status_code != 200:
                        failed.append((key, action))
                        continue
                    answered[key] = r.json()["seq"]

            threads = [threading.Thread(target=client, args=(s.url, s.url[-5:])) for s in (one, other)]
            for thread in threads:
                thread.start()
            half_way.wait(timeout=60)
            assert other.proc is not None
            os.killpg(other.proc.pid, signal.SIGKILL)  # mid-write: no graceful shutdown
            other.proc.wait(timeout=15)
            for thread in threads:
                thread.join(timeout=120)
            # What the dead server never answered is retried on the live one with the same key:
            # applied once, whether or not the dead one had committed it.
            for key, action in failed:
                r = _act(one.url, gm, key, action)
                assert r.status_code == 200, r.text
                answered[key] = r.json()["seq"]
            assert len(answered) == 2 * PER_SERVER
            assert len(set(answered.values())) == 2 * PER_SERVER, "two keys answered with one event"

            log = httpx.get(f"{one.url}/api/campaigns/two/log", headers=bearer(gm), timeout=30).json()
            keyed = [e for e in log if e["seq"] > 4]
            assert [e["seq"] for e in log] == list(range(1, len(log) + 1))  # no gap, no repeat
            assert sorted(e["seq"] for e in keyed) == sorted(answered.values())  # each key once
            last = log[-1]["seq"]

            # The live server's page heard every command, in order, once; the dead server's page
            # resumes on the live one from its Last-Event-ID and misses nothing either.
            heard = [e.id for e in _events(pages[one.url], last) if e.id is not None and e.id > 4]
            assert heard == list(range(5, last + 1))
            dropped = pages.pop(other.url)
            seen = [e.id for e in _read_until_closed(dropped) if e.id is not None and e.id > 4]
            resumed = EventStream(f"{one.url}/api/campaigns/two/events", ana, last_event_id=max(seen, default=4))
            pages[other.url] = resumed
            rest = [e.id for e in _events(resumed, last)]
            assert seen + rest == list(range(5, last + 1))
        finally:
            for page in pages.values():
                page.close()


def _read_until_closed(stream: EventStream) -> list[SseEvent]:
    """What a page got before its server died (the connection ends)."""
    out: list[SseEvent] = []
    try:
        while True:
            out.append(stream.next())
    except (EOFError, httpx.HTTPError):
        pass
    finally:
        stream.close()
    return out
