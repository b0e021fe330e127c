"""Fixtures of the web tests: the API in process on a real SQLite file, and a ready table."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count

import pytest

from rulekeeper.web import create_app

from .web_support import InProcess, bearer, sheets_6810


@pytest.fixture(scope="module")
def db_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(tmp_path_factory.mktemp("web") / "campaigns.db")


@pytest.fixture(scope="module")
def api(db_file: str) -> Iterator[InProcess]:
    """One app per test module (building it costs seconds); tests keep apart by campaign name."""
    client = InProcess(create_app(db_file))
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def api_on_each_store(request: pytest.FixtureRequest, db_file: str) -> Iterator[InProcess]:
    """As ``api``, once on a SQLite file and once on PostgreSQL (the event loop writes ordinary
    actions on each its own way: ``store.sqlite_inline``, ``store.pg_awaited``): a module whose
    tests name ``api`` runs on both when it defines ``api`` as this."""
    if request.param == "sqlite":
        client = InProcess(create_app(db_file))
        try:
            yield client
        finally:
            client.close()
        return
    pg_server = request.getfixturevalue("pg_server")
    url = pg_server.create_database()
    client = InProcess(create_app(url))
    try:
        yield client
    finally:
        client.close()
        pg_server.drop_database(url)


_NAMES = count(1)


@dataclass
class Table6810:
    """A VI·VIII·X campaign: ana plays the ranger, bea the adept, obi observes."""

    api: InProcess
    name: str
    gm: dict[str, str]
    ana: dict[str, str]
    bea: dict[str, str]
    obi: dict[str, str]
    tokens: dict[str, str]

    def url(self, rest: str = "") -> str:
        return f"/api/campaigns/{self.name}{rest}"

    def version(self) -> int:
        r = self.api.get(self.url(), headers=self.gm)
        assert r.status_code == 200, r.text
        version: int = r.json()["version"]
        return version

    def act(self, who: dict[str, str], action: str, actor: str | None, **params: object) -> object:
        body: dict[str, object] = {"params": params}
        if actor is not None:
            body["actor"] = actor
        return self.api.post(self.url(f"/vi-viii-x/actions/{action}"), headers=who, json=body)


def make_table(api: InProcess, name: str | None = None) -> Table6810:
    name = name or f"table-{next(_NAMES)}"
    r = api.post("/api/campaigns", json={"name": name, "system": "6810", "seed": 11})
    assert r.status_code == 201, r.text
    tokens = {"gm": r.json()["gm_token"]}
    gm = bearer(tokens["gm"])
    sheets = sheets_6810()
    for actor, player in (("ranger", "ana"), ("adept", "bea")):
        r = api.post(
            f"/api/campaigns/{name}/characters",
            headers=gm,
            json={"actor": actor, "sheet": sheets[actor], "player": player},
        )
        assert r.status_code == 200, r.text
    for who, role in (("ana", "player"), ("bea", "player"), ("obi", "observer")):
        r = api.post(f"/api/campaigns/{name}/members", headers=gm, json={"name": who, "role": role})
        assert r.status_code == 201, r.text
        tokens[who] = r.json()["token"]
    return Table6810(api, name, gm, bearer(tokens["ana"]), bearer(tokens["bea"]), bearer(tokens["obi"]), tokens)


@pytest.fixture
def table(api: InProcess) -> Table6810:
    return make_table(api)
