"""The player's seat held across server processes (issue 26): two ``rulekeeper serve``
processes sharing one PostgreSQL, as behind a load balancer, and a hostile player who spreads
their attempts over both.

* What the seat refused is kept in the database: the GM sees it from either process and after a
  restart, and a player who keeps being refused cannot grow it past ``MAX_REFUSALS_KEPT``.
* The live streams one token may hold are counted over both processes: a player who reaches
  the limit on one cannot open more on the other; a closed stream makes room again anywhere;
  revoking the member through one process ends their stream on the other.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from rulekeeper.limits import MAX_REFUSALS_KEPT

from .web_support import EventStream, bearer, cli, cli_json, serving

_SHEET = ("--set", "st=11", "--set", "ht=11", "--set", "skills.broadsword=13")
_OVERRIDES = {"damage": "30d6", "skill": 20}


def _table(env: dict[str, str]) -> tuple[str, str]:
    gm = cli_json("campaign", "new", "shared", "--system", "gurps", "--seed", "3", env=env)["gm_token"]
    cli("char", "add", "mine", *_SHEET, "--player", "ana", env=env)
    cli("char", "add", "theirs", *_SHEET, "--player", "bea", env=env)
    ana = cli_json("campaign", "invite", "shared", "--player", "ana", env=env)["token"]
    return gm, ana


def _refused(base: str, ana: str, n: int) -> None:
    body = {"actor": "mine", "params": {"target": "theirs", **_OVERRIDES, "weapon": f"w{n}"}}
    r = httpx.post(f"{base}/api/campaigns/shared/gurps/actions/attack", headers=bearer(ana), json=body, timeout=30)
    assert r.status_code == 403, r.text


def _refusals(base: str, gm: str) -> list[dict[str, object]]:
    r = httpx.get(f"{base}/api/campaigns/shared/refusals", headers=bearer(gm), timeout=30)
    assert r.status_code == 200, r.text
    found: list[dict[str, object]] = r.json()
    return found


@pytest.mark.postgres
def test_refusals_are_seen_from_every_process_and_after_a_restart_and_stay_bounded(
    fresh_pg_url: str, tmp_path: Path
) -> None:
    env = {"RULEKEEPER_DB": fresh_pg_url, "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm, ana = _table(env)
    with serving(fresh_pg_url, tmp_path) as one, serving(fresh_pg_url, tmp_path) as other:
        _refused(one.url, ana, 0)
        seen = _refusals(other.url, gm)  # refused by one process, listed by the other
        assert [(r["by"], r["role"]) for r in seen] == [("ana", "player")], seen
        assert "attack" in str(seen[0]["what"]) and "only the GM may set" in str(seen[0]["why"])
        # A player who keeps trying, on both processes, cannot grow what is kept past the limit.
        for n in range(1, MAX_REFUSALS_KEPT + 5):
            _refused((one, other)[n % 2].url, ana, n)
        kept = _refusals(one.url, gm)
        assert len(kept) == MAX_REFUSALS_KEPT
        assert re.search(r"weapon=w5\b", str(kept[0]["what"])), kept[0]  # the oldest ones went first
        assert re.search(rf"weapon=w{MAX_REFUSALS_KEPT + 4}\b", str(kept[-1]["what"])), kept[-1]
        assert _refusals(other.url, gm) == kept
        r = httpx.get(f"{one.url}/api/campaigns/shared/refusals", headers=bearer(ana), timeout=30)
        assert r.status_code == 403
    with serving(fresh_pg_url, tmp_path) as again:  # a restart forgets nothing
        assert _refusals(again.url, gm) == kept


@pytest.mark.postgres
def test_one_tokens_live_streams_are_counted_over_every_process(fresh_pg_url: str, tmp_path: Path) -> None:
    env = {"RULEKEEPER_DB": fresh_pg_url, "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm, ana = _table(env)
    limits = {"RULEKEEPER_MAX_STREAMS_PER_TOKEN": "2"}
    streams: list[EventStream] = []
    with serving(fresh_pg_url, tmp_path, env=limits) as one, serving(fresh_pg_url, tmp_path, env=limits) as other:
        events = {s.url: f"{s.url}/api/campaigns/shared/events" for s in (one, other)}
        try:
            streams.append(EventStream(events[one.url], ana))
            streams.append(EventStream(events[other.url], ana))
            for stream in streams:
                assert stream.response.status_code == 200
            # The limit is reached over both processes: neither opens a third.
            for url in events.values():
                third = EventStream(url, ana)  # read as a stream: a 200 would never end
                try:
                    assert third.response.status_code == 429
                    assert "2 live streams" in json.loads(third.response.read())["detail"]
                finally:
                    third.close()
            # The GM's token counts apart.
            gm_stream = EventStream(events[other.url], gm)
            streams.append(gm_stream)
            assert gm_stream.response.status_code == 200
            # A stream closed on one process makes room on the other.
            streams.pop(0).close()
            reopened = _open_when_room(events[other.url], ana)
            streams.append(reopened)
            assert reopened.response.status_code == 200
            # Revoked through one process, ana's stream on the other ends, told why.
            r = httpx.delete(f"{one.url}/api/campaigns/shared/members/ana", headers=bearer(gm), timeout=30)
            assert r.status_code in (200, 204), r.text
            assert _until_revoked(reopened)
        finally:
            for stream in streams:
                stream.close()


def _open_when_room(url: str, token: str) -> EventStream:
    """A stream opened as soon as the closed one's lease is given back (a background write)."""
    for _ in range(100):
        stream = EventStream(url, token)
        if stream.response.status_code == 200:
            return stream
        stream.close()
        httpx.get(url.rsplit("/api/", 1)[0] + "/api/health", timeout=30)  # let the release land
    raise AssertionError("the closed stream's place was never given back")


def _until_revoked(stream: EventStream) -> bool:
    try:
        while True:
            if stream.next().event == "revoked":
                return True
    except EOFError:
        return False
