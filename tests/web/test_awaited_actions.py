"""Actions written by the server's event loop (``commands.execute_awaited``): the same answers
as the blocking path, a member remembered by the process never outliving its revocation, and
the store's other writers always seen.

The app runs in process, on a SQLite file served by one process (whose event loop writes them
inline: ``store.sqlite_inline``) and on a real PostgreSQL database (awaited on asynchronous
connections: ``store.pg_awaited``); "another process" is a second store on the same database,
as the CLI or another server would be. The last tests are PostgreSQL's connections alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulekeeper.campaign import Campaign
from rulekeeper.core import Action
from rulekeeper.store import Store, open_store
from rulekeeper.web import create_app
from rulekeeper.web.server import Server
from support.pg_faults import answers_lost
from support.pg_sessions import end_client_sessions

from .web_support import InProcess, bearer

_SHEET = {"st": 12, "ht": 12}


def _serving(url: str) -> Iterator[InProcess]:
    client = InProcess(create_app(url))
    try:
        awaited = _server(client).awaited
        assert awaited is not None
        client.run(awaited.warm())  # as a started server does in the background
        yield client
    finally:
        client.close()


@pytest.fixture
def api(db_url: str) -> Iterator[InProcess]:
    yield from _serving(db_url)


@pytest.fixture
def pg_api(fresh_pg_url: str) -> Iterator[InProcess]:
    yield from _serving(fresh_pg_url)


@pytest.fixture
def other(db_url: str) -> Iterator[Store]:
    """The same database through another store: another process's writes."""
    store = open_store(db_url)
    try:
        yield store
    finally:
        store.close()


def _server(api: InProcess) -> Server:
    server: Server = api.app.state.rulekeeper
    return server


def _table(api: InProcess) -> tuple[dict[str, str], dict[str, str], str]:
    """A GURPS table: the GM, and ana playing kira; returns both headers and ana's token id."""
    r = api.post("/api/campaigns", json={"name": "t", "system": "gurps", "seed": 5})
    assert r.status_code == 201, r.text
    gm = bearer(r.json()["gm_token"])
    r = api.post("/api/campaigns/t/characters", headers=gm, json={"actor": "kira", "sheet": _SHEET, "player": "ana"})
    assert r.status_code == 200, r.text
    r = api.post("/api/campaigns/t/members", headers=gm, json={"name": "ana", "role": "player"})
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    return gm, bearer(token), token.split(".")[1]


def _act(api: InProcess, who: dict[str, str], action: str, **params: Any) -> Any:
    return api.post(f"/api/campaigns/t/gurps/actions/{action}", headers=who, json={"actor": "kira", "params": params})


def _blocked(*_args: object, **_kw: object) -> None:
    raise AssertionError("an ordinary action reached the blocking store")


def _hp(store: Store) -> int:
    hp: int = Campaign.open(store, "t").state.characters["kira"].current_hp
    return hp


def test_ordinary_actions_never_call_the_blocking_store(api: InProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    gm, ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign opens in this process
    store = _server(api).store
    expected = [3, 4, 5, 6, 7]  # 1: kira added, 2: the first damage
    if store.url.startswith("sqlite"):
        # SQLite's inline statements are the store's own: ana's member is read there, once.
        assert _act(api, ana, "heal", amount=1).status_code == 200
        expected = [v + 1 for v in expected]

    for name in ("append_if_head", "reading", "writing", "member_by_token_id", "find_campaign"):
        monkeypatch.setattr(store, name, _blocked)
    versions = []
    for who, action in ((gm, "damage"), (ana, "damage"), (gm, "heal"), (ana, "heal"), (ana, "damage")):
        r = _act(api, who, action, amount=2)
        assert r.status_code == 200, r.text
        versions.append(int(r.headers["etag"].strip('"')))
    assert versions == expected
    monkeypatch.undo()
    assert _hp(store) == 12 - 1 - 2 + (expected[0] - 3)  # read back from the database by a fresh object


def test_a_revoked_member_cannot_act_on_what_the_process_remembers(api: InProcess, other: Store) -> None:
    _gm, ana, ana_id = _table(api)
    assert _act(api, ana, "damage", amount=1).status_code == 200
    assert _act(api, ana, "damage", amount=1).status_code == 200
    assert ana_id in _server(api).known_members  # the member is remembered, not read each time
    record = other.find_campaign("t")
    assert record is not None
    assert other.revoke_members(record.id, "ana", 1.0) == 1  # revoked by another process
    r = _act(api, ana, "damage", amount=5)
    assert r.status_code == 401, r.text
    assert r.json()["detail"] == "this token was revoked"
    assert other.find_campaign("t").version == record.version  # type: ignore[union-attr]  # nothing written
    assert _hp(other) == 12 - 2


def test_another_processes_writes_are_seen_before_the_next_action(api: InProcess, other: Store) -> None:
    gm, ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200
    elsewhere = Campaign.open(other, "t")
    elsewhere.act(Action("damage", "kira", {"amount": 3}))  # the CLI, say, between two requests
    for who in (gm, ana):
        r = _act(api, who, "damage", amount=1)
        assert r.status_code == 200, r.text
    assert int(r.headers["etag"].strip('"')) == 5
    assert _hp(other) == 12 - 1 - 3 - 1 - 1
    r = api.get("/api/campaigns/t/characters/kira", headers=gm)
    assert r.status_code == 200 and r.json()["view"]["current_hp"] == 12 - 6, r.text


def test_a_player_acting_for_another_character_is_refused_and_the_gm_is_told(api: InProcess) -> None:
    gm, ana, _ = _table(api)
    r = api.post("/api/campaigns/t/characters", headers=gm, json={"actor": "orc", "sheet": _SHEET, "player": "bea"})
    assert r.status_code == 200, r.text
    assert _act(api, ana, "damage", amount=1).status_code == 200  # the campaign is open and ana remembered
    r = api.post("/api/campaigns/t/gurps/actions/damage", headers=ana, json={"actor": "orc", "params": {"amount": 4}})
    assert r.status_code == 403, r.text
    assert "may not act for orc" in r.json()["detail"]
    r = api.get("/api/campaigns/t/refusals", headers=gm)
    assert [(x["by"], "damage" in x["what"]) for x in r.json()] == [("ana", True)], r.text
    r = api.get("/api/campaigns/t/characters/orc", headers=gm)
    assert r.json()["view"]["current_hp"] == 12, r.text


def test_every_hundredth_action_keeps_its_snapshot(
    api: InProcess, other: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm, _ana, _ = _table(api)
    store = _server(api).store
    for i in range(104):
        if i == 98:
            # The loop's write keeps the snapshot itself (SQLite's inline, PostgreSQL's awaited
            # statement): the 100th command never reaches the blocking store.
            for name in ("append_if_head", "reading", "writing"):
                monkeypatch.setattr(store, name, _blocked)
        r = _act(api, gm, "damage" if i % 2 == 0 else "heal", amount=1)
        assert r.status_code == 200, r.text
        if i == 98:
            assert r.headers["etag"] == '"100"'
            monkeypatch.undo()
    record = other.find_campaign("t")
    assert record is not None and record.version == 105
    with other.reading(record.id) as history:
        snapshot = history.latest_snapshot()
    assert snapshot is not None and snapshot.version == 100
    assert _hp(other) == 12  # replayed from that snapshot by a fresh object: 52 wounds, 52 heals


@pytest.mark.postgres
def test_a_database_that_drops_its_connections_costs_one_clean_refusal_and_nothing_half_written(
    pg_api: InProcess, fresh_pg_url: str
) -> None:
    api = pg_api
    gm, _ana, _ = _table(api)
    for _ in range(2):
        assert _act(api, gm, "damage", amount=1).status_code == 200
    version = api.app.state.rulekeeper.store.find_campaign("t").version
    # Every connection to the database ended from outside, as a restart or a failover ends them.
    end_client_sessions(fresh_pg_url)
    r = _act(api, gm, "damage", amount=1)
    assert r.status_code == 503, r.text
    assert r.json()["type"] == "/problems/store-unavailable"
    assert r.json()["detail"] == "the campaign database could not be used"  # our words, no driver text
    # The server's other pooled connections died too. Finding one dead drops its pool's idle
    # ones, so one request at a time is refused at most once more (by the other pool, the
    # blocking one), not once per dead connection; then every action is answered.
    second = _act(api, gm, "damage", amount=1)
    assert second.status_code in (200, 503), second.text
    for _ in range(3 if second.status_code == 503 else 2):
        assert _act(api, gm, "damage", amount=1).status_code == 200
    after = open_store(fresh_pg_url)  # the test's own connections were ended too
    try:
        assert after.find_campaign("t").version == version + 3  # type: ignore[union-attr]  # only what was answered
        assert _hp(after) == 12 - 2 - 3
    finally:
        after.close()


@pytest.mark.postgres
def test_a_campaign_another_process_holds_holds_up_no_other_campaign(pg_api: InProcess, fresh_pg_url: str) -> None:
    """Another process in the middle of a command on one campaign (its row held, as a long undo
    holds it) holds up neither this process's actions on other campaigns nor their pages; the
    held campaign's action waits in a worker thread and lands once the row is free."""
    import psycopg

    api = pg_api
    gms = {}
    for name in ("held", "free"):
        r = api.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 5})
        gms[name] = gm = bearer(r.json()["gm_token"])
        r = api.post(f"/api/campaigns/{name}/characters", headers=gm, json={"actor": "kira", "sheet": _SHEET})
        assert r.status_code == 200, r.text
    body = {"actor": "kira", "params": {"amount": 1}}

    def acting(name: str) -> Any:
        return api._client.post(f"/api/campaigns/{name}/gurps/actions/damage", headers=gms[name], json=body)

    for name in gms:  # each campaign held by the process, its actions written by the event loop
        assert api.run(acting(name)).status_code == 200
    with psycopg.connect(fresh_pg_url.replace("postgresql+psycopg://", "postgresql://", 1)) as holder:
        holder.execute("SELECT 1 FROM campaigns WHERE name = 'held' FOR UPDATE")

        async def meanwhile() -> tuple[int, int, bool, int]:
            held = asyncio.ensure_future(acting("held"))
            await asyncio.sleep(0.2)
            free = await asyncio.wait_for(acting("free"), 30)
            page = await asyncio.wait_for(api._client.get("/api/campaigns/free", headers=gms["free"]), 30)
            waiting = not held.done()
            holder.commit()  # the other process's command ends
            return free.status_code, page.status_code, waiting, (await asyncio.wait_for(held, 30)).status_code

        assert api.run(meanwhile()) == (200, 200, True, 200)
    store = _server(api).store
    assert [store.find_campaign(n).version for n in gms] == [3, 3]  # type: ignore[union-attr]


@pytest.mark.postgres
def test_an_action_whose_answer_is_lost_says_it_may_have_been_applied(
    pg_api: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database lost after the action's write was sent: the client is told the action may
    have been applied (it was), and sent again with its Idempotency-Key it is applied once."""
    api = pg_api
    gm, _ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign held, the pool warm
    store = _server(api).store
    version = store.find_campaign("t").version  # type: ignore[union-attr]
    answers_lost(monkeypatch)
    keyed = {**gm, "Idempotency-Key": "lost-1"}
    r = _act(api, keyed, "damage", amount=2)
    assert r.status_code == 503, r.text
    assert r.json()["type"] == "/problems/outcome-unknown"
    assert "may have been applied" in r.json()["detail"] and "Idempotency-Key" in r.json()["expected"]
    assert "psycopg" not in r.text and "socket" not in r.text  # our words only
    monkeypatch.undo()
    for _ in range(20):  # the pool opens new connections in the background
        again = _act(api, keyed, "damage", amount=2)
        if again.status_code != 503:
            break
        time.sleep(0.1)
    assert again.status_code == 200 and again.json()["retried"] is True, again.text
    assert store.find_campaign("t").version == version + 1  # type: ignore[union-attr]  # applied once
    assert _hp(store) == 12 - 1 - 2


@pytest.mark.postgres
def test_a_database_that_stops_answering_holds_the_processs_writes_only_so_long(
    pg_api: InProcess, fresh_pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A transaction of writes that gets no answer (here: waiting for a table another session
    holds, as it would for a synchronous standby gone) is given up after ``HOLD_SECONDS``: its
    action is told its outcome is unknown, the statement is cancelled so nothing lands later,
    and the process's next writes are answered."""
    import psycopg

    from rulekeeper.store import pg_awaited

    api = pg_api
    gm, _ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign held, the pool warm
    store = _server(api).store
    version = store.find_campaign("t").version  # type: ignore[union-attr]
    monkeypatch.setattr(pg_awaited, "HOLD_SECONDS", 0.5)
    with psycopg.connect(fresh_pg_url.replace("postgresql+psycopg://", "postgresql://", 1)) as holder:
        # Let go of by PostgreSQL itself after 10 s, should the hold never be given up.
        holder.execute("SET idle_in_transaction_session_timeout = '10s'")
        holder.execute("LOCK TABLE events IN SHARE MODE")
        started = time.monotonic()
        r = _act(api, gm, "damage", amount=2)
        waited = time.monotonic() - started
        with contextlib.suppress(psycopg.OperationalError):
            holder.rollback()
    assert r.status_code == 503 and r.json()["type"] == "/problems/outcome-unknown", r.text
    assert "0.5 s" not in r.json()["detail"] and "psycopg" not in r.text  # our words, as any lost answer
    assert waited < 10, waited  # not until the lock was let go: the hold was given up
    assert store.find_campaign("t").version == version  # type: ignore[union-attr]  # cancelled, not landed
    assert _act(api, gm, "damage", amount=3).status_code == 200
    assert store.find_campaign("t").version == version + 1  # type: ignore[union-attr]
    assert _hp(store) == 12 - 1 - 3


@pytest.mark.postgres
def test_postgresql_connections_find_a_vanished_host_within_a_minute(fresh_pg_url: str) -> None:
    """TCP keepalives on every connection of both pools, unless the URL sets its own."""
    import asyncio as aio

    from rulekeeper.store.sql import SqlStore

    def settings(url: str) -> tuple[dict[str, str], dict[str, str]]:
        store = SqlStore(url)
        try:
            with store._engine.connect() as conn:
                blocking = conn.connection.driver_connection.info.get_parameters()
            awaited = store.awaited()
            assert awaited is not None

            async def asked() -> dict[str, str]:
                await awaited.warm()
                async with awaited.connected() as held:
                    params: dict[str, str] = held._connection.info.get_parameters()  # type: ignore[attr-defined]
                await awaited.close()
                return params

            return blocking, aio.run(asked())
        finally:
            store.close()

    for params in settings(fresh_pg_url):
        assert (params.get("keepalives"), params.get("keepalives_idle"), params.get("keepalives_count")) == (
            "1",
            "30",
            "3",
        ), params
        assert params.get("tcp_user_timeout") == "60000", params
    joined = "&" if "?" in fresh_pg_url else "?"
    for params in settings(f"{fresh_pg_url}{joined}keepalives_idle=7"):
        assert params.get("keepalives_idle") == "7", params


def test_the_remembered_members_are_bounded_and_the_least_recently_used_goes_first(
    api: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulekeeper.web.server as server_module
    from rulekeeper.store.records import MemberRecord

    monkeypatch.setattr(server_module, "KNOWN_MEMBERS", 2)
    server = _server(api)
    members = [MemberRecord(i, 1, f"m{i}", "player", (), f"tok{i}", "0" * 64, 1.0, None, None) for i in range(3)]
    server.remember_member(members[0])
    server.remember_member(members[1])
    server.remember_member(members[0])  # used again: now the most recent
    server.remember_member(members[2])  # past the bound: the least recently used goes
    assert list(server.known_members) == ["tok0", "tok2"]


def test_players_acting_at_once_on_one_campaign_wait_on_the_loop_not_in_threads(
    api: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players' actions on one campaign at once: on PostgreSQL the first holds the campaign
    while its write is awaited, and the others wait for it on the loop. (They once took the
    worker-thread path instead, which nearly doubled the server's CPU per action.)"""
    gm, ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200
    assert _act(api, ana, "heal", amount=1).status_code == 200  # both members remembered
    store = _server(api).store
    for name in ("append_if_head", "reading", "writing", "member_by_token_id", "find_campaign"):
        monkeypatch.setattr(store, name, _blocked)
    path = "/api/campaigns/t/gurps/actions/damage"
    sent = [
        # Four each: as many as one token may have under way (guard.Limits.requests_per_token).
        ("POST", path, {"headers": who, "json": {"actor": "kira", "params": {"amount": 1}}})
        for who in [gm, ana] * 4
    ]
    answers = api.at_once(sent)
    assert [a.status_code for a in answers] == [200] * len(sent), [a.text for a in answers]
    assert sorted(int(a.headers["etag"].strip('"')) for a in answers) == list(range(4, 4 + len(sent)))
    monkeypatch.undo()
    assert _hp(store) == 12 - 1 + 1 - len(sent)


def test_actions_sent_together_at_a_snapshot_are_all_answered(api: InProcess) -> None:
    """More requests on one campaign than the worker has threads, at the command that keeps a
    snapshot: the event loop holds the campaign for one of them while the others queue on it in
    worker threads, so it must never wait for a thread itself (it once did, and hung for good)."""
    from rulekeeper.web.app import THREADS

    gm, _ana, _ = _table(api)
    players = []
    for i in range(THREADS):
        r = api.post(
            "/api/campaigns/t/characters", headers=gm, json={"actor": f"c{i}", "sheet": _SHEET, "player": f"p{i}"}
        )
        assert r.status_code == 200, r.text
        r = api.post("/api/campaigns/t/members", headers=gm, json={"name": f"p{i}", "role": "player"})
        assert r.status_code == 201, r.text
        players.append((f"c{i}", bearer(r.json()["token"])))
    for actor, who in players:  # each member remembered by the process
        r = api.post(
            "/api/campaigns/t/gurps/actions/damage", headers=who, json={"actor": actor, "params": {"amount": 1}}
        )
        assert r.status_code == 200, r.text
    version = int(r.headers["etag"].strip('"'))
    while version < 99:  # the next command is the hundredth: it keeps a snapshot
        r = _act(api, gm, "heal", amount=1)
        assert r.status_code == 200, r.text
        version = int(r.headers["etag"].strip('"'))
    sent = [
        (
            "POST",
            "/api/campaigns/t/gurps/actions/damage",
            {"headers": gm, "json": {"actor": "kira", "params": {"amount": 1}}},
        )
    ]
    sent += [
        (
            "POST",
            "/api/campaigns/t/gurps/actions/damage",
            {"headers": who, "json": {"actor": actor, "params": {"amount": 1}}},
        )
        for actor, who in players
    ]
    answers = api.at_once(sent)
    assert [a.status_code for a in answers] == [200] * len(sent), [a.text for a in answers]
    assert sorted(int(a.headers["etag"].strip('"')) for a in answers) == list(range(100, 100 + len(sent)))


def test_a_remembered_token_that_expires_is_refused(api: InProcess) -> None:
    gm, _ana, _ = _table(api)
    r = api.post("/api/campaigns/t/members", headers=gm, json={"name": "ana", "role": "player", "expires_in": 3})
    assert r.status_code == 201, r.text
    brief = bearer(r.json()["token"])
    assert _act(api, brief, "damage", amount=1).status_code == 200  # remembered from here on
    time.sleep(3.2)
    r = _act(api, brief, "damage", amount=1)
    assert r.status_code == 401, r.text
    assert r.json()["detail"] == "this token has expired"


def test_keys_and_versions_answer_as_the_blocking_path_does(api: InProcess, other: Store) -> None:
    gm, ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200
    path = "/api/campaigns/t/gurps/actions/damage"
    first = api.post(path, headers={**ana, "Idempotency-Key": "k1"}, json={"actor": "kira", "params": {"amount": 2}})
    assert first.status_code == 200, first.text
    again = api.post(path, headers={**ana, "Idempotency-Key": "k1"}, json={"actor": "kira", "params": {"amount": 2}})
    assert again.status_code == 200 and again.json().get("retried") is True, again.text
    assert again.headers["etag"] == first.headers["etag"]
    stale = api.post(path, headers={**gm, "If-Match": '"1"'}, json={"actor": "kira", "params": {"amount": 2}})
    assert stale.status_code == 412, stale.text
    current = first.headers["etag"]
    fresh = api.post(path, headers={**gm, "If-Match": current}, json={"actor": "kira", "params": {"amount": 1}})
    assert fresh.status_code == 200, fresh.text
    assert int(fresh.headers["etag"].strip('"')) == int(current.strip('"')) + 1
    assert _hp(other) == 12 - 1 - 2 - 1  # the retry applied nothing, the stale one nothing


def test_a_players_key_is_their_own_on_the_event_loops_path_too(
    api: InProcess, other: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key a player sent is kept in their own space (``Viewer.key``) on this path as on the
    blocking one: the GM's same key and command are a new command, not the player's answer."""
    gm, ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign held
    assert _act(api, ana, "heal", amount=1).status_code == 200  # ana remembered (SQLite reads her there)
    path = "/api/campaigns/t/gurps/actions/damage"
    body = {"actor": "kira", "params": {"amount": 2}}
    monkeypatch.setattr(_server(api).store, "append_if_head", _blocked)  # the event loop's writes only
    mine = api.post(path, headers={**ana, "Idempotency-Key": "k1"}, json=body)
    gms = api.post(path, headers={**gm, "Idempotency-Key": "k1"}, json=body)
    monkeypatch.undo()
    assert mine.status_code == gms.status_code == 200, (mine.text, gms.text)
    assert (mine.json()["retried"], gms.json()["retried"]) == (False, False)
    assert int(gms.headers["etag"].strip('"')) == int(mine.headers["etag"].strip('"')) + 1
    again = api.post(path, headers={**ana, "Idempotency-Key": "k1"}, json=body)
    assert again.status_code == 200 and again.json()["retried"] is True, again.text
    assert again.headers["etag"] == mine.headers["etag"]
    assert _hp(other) == 12 - 1 + 1 - 2 - 2
    log = api.get("/api/campaigns/t/log", headers=gm).json()
    assert [e["key"] for e in log if e["key"] is not None] == ["k1", "k1"]


@pytest.mark.postgres
def test_a_command_never_opens_a_connection_while_it_holds_its_campaign(
    pg_api: InProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening a connection may wait for one of asyncio's threads (a host name looked up), and
    threads may be queued on the campaign: with no connection open (after a database restart),
    a command takes the blocking path and the connections are opened in the background."""
    import psycopg

    api = pg_api
    gm, _ana, _ = _table(api)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign open, the GM remembered
    server = _server(api)
    record = server.known_campaign("t", server.store.find_campaign("t").id)  # type: ignore[union-attr]
    assert record is not None
    held_while_connecting: list[bool] = []
    real = psycopg.AsyncConnection.connect

    async def connect(*args: Any, **kw: Any) -> Any:
        held_while_connecting.append(server.pool._lock(record.id).locked())
        return await real(*args, **kw)

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", staticmethod(connect))
    old = server.awaited
    assert old is not None
    api.run(old.close())
    server.awaited = server.store.awaited()  # no connection open, as after a database restart
    assert _act(api, gm, "damage", amount=1).status_code == 200  # answered on the blocking path
    api.run(asyncio.sleep(1))  # the background opens the connections meanwhile
    assert held_while_connecting and not any(held_while_connecting)
    for name in ("append_if_head", "reading", "writing", "member_by_token_id", "find_campaign"):
        monkeypatch.setattr(server.store, name, _blocked)
    assert _act(api, gm, "damage", amount=1).status_code == 200  # awaited again
    monkeypatch.undo()


def test_sqlite_shared_with_other_processes_writes_from_worker_threads(tmp_path: Path) -> None:
    """Inline statements only for one process alone on its file: with several workers, another
    process may hold SQLite's lock, and the event loop must never wait for it."""
    alone = InProcess(create_app(f"sqlite:///{tmp_path / 'a.db'}"))
    shared = InProcess(create_app(f"sqlite:///{tmp_path / 'b.db'}", only_process=False))
    try:
        assert _server(alone).awaited is not None
        assert _server(shared).awaited is None
        gm, _ana, _ = _table(shared)
        assert _act(shared, gm, "damage", amount=1).status_code == 200
    finally:
        alone.close()
        shared.close()


def test_a_sqlite_file_another_writer_holds_never_stalls_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection holding SQLite's write lock (the CLI, or a worker thread adding a
    member): the action waits in a worker thread, not on the event loop, which answers others
    meanwhile; once the lock is free the action is written."""
    import sqlite3

    from rulekeeper.store import sqlite_inline
    from rulekeeper.store.base import AwaitedUnavailable

    turned_away: list[bool] = []
    inline_write = sqlite_inline.InlineSqlite.append_if_head

    async def spied(self: Any, *args: Any, **kw: Any) -> bool:
        try:
            return await inline_write(self, *args, **kw)
        except AwaitedUnavailable:
            turned_away.append(True)
            raise

    monkeypatch.setattr(sqlite_inline.InlineSqlite, "append_if_head", spied)
    path = tmp_path / "c.db"
    api = InProcess(create_app(f"sqlite:///{path}"))
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        gm, _ana, _ = _table(api)
        assert _act(api, gm, "damage", amount=1).status_code == 200  # the campaign open, the GM remembered
        client = api._client
        blocker.execute("BEGIN IMMEDIATE")

        async def scenario() -> tuple[float, int, bool, Any]:
            started = time.monotonic()
            action = asyncio.ensure_future(
                client.post(
                    "/api/campaigns/t/gurps/actions/damage", headers=gm, json={"actor": "kira", "params": {"amount": 2}}
                )
            )
            await asyncio.sleep(0.5)  # the action meets the lock meanwhile
            health = await client.get("/api/health")
            answered_in = time.monotonic() - started  # a loop that waited for SQLite: a minute
            waiting = not action.done()
            blocker.execute("COMMIT")
            return answered_in, health.status_code, waiting, await asyncio.wait_for(action, 30)

        answered_in, health, waiting, r = api.run(scenario())
        assert health == 200 and answered_in < 3.0, answered_in
        assert turned_away == [True]  # the loop tried, was turned away at once...
        assert waiting  # ...and the action waited for the lock in a worker thread
        assert r.status_code == 200, r.text
        assert _hp(_server(api).store) == 12 - 1 - 2
    finally:
        blocker.close()
        api.close()
