"""The one dispatch route for actions answers as the documented per-action operations did: the
same body (what ``CommandResponse`` declares), the same errors, and anything unusual is handed
to the documented operation, which explains it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp, Receive, Scope, Send

from rulekeeper.campaign import Campaign
from rulekeeper.campaign.members import invite
from rulekeeper.core import Action
from rulekeeper.store import open_store
from rulekeeper.web import create_app
from rulekeeper.web.models import CommandResponse

from .web_support import InProcess, bearer


def _table(api: InProcess, name: str) -> tuple[dict[str, str], dict[str, str]]:
    r = api.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 3})
    gm = bearer(r.json()["gm_token"])
    r = api.post(f"/api/campaigns/{name}/characters", headers=gm, json={"actor": "hero", "sheet": {}, "player": "ana"})
    assert r.status_code == 200, r.text
    ana = api.post(f"/api/campaigns/{name}/members", headers=gm, json={"name": "ana"}).json()["token"]
    return gm, bearer(ana)


def _declared(body: dict[str, Any]) -> dict[str, Any]:
    """What the documented operation's response model makes of a body."""
    declared: dict[str, Any] = CommandResponse.model_validate(body).model_dump(mode="json", exclude_unset=True)
    return declared


def test_answers_are_what_the_operation_declares(api: InProcess) -> None:
    gm, ana = _table(api, "dispatch-shape")
    url = "/api/campaigns/dispatch-shape/gurps/actions"
    for who, action in ((gm, "damage"), (ana, "heal"), (gm, "heal"), (ana, "damage")):
        r = api.post(f"{url}/{action}", headers=who, json={"actor": "hero", "params": {"amount": 2}})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "application/json"
        assert r.headers["etag"] == f'"{r.json()["version"]}"'
        assert r.json() == _declared(r.json())
        assert ("result" in r.json()) is (who is gm)  # the GM's extras only to the GM


def test_unusual_requests_get_the_documented_answers(api: InProcess) -> None:
    gm, ana = _table(api, "dispatch-odd")
    url = "/api/campaigns/dispatch-odd/gurps/actions/damage"
    body = {"actor": "hero", "params": {"amount": 1}}
    version = api.get("/api/campaigns/dispatch-odd", headers=gm).json()["version"]

    r = api.post(url, headers={**gm, "Idempotency-Key": "k" * 201}, json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["location"] == "header", r.text
    r = api.post(url, headers={**gm, "If-Match": "twelve"}, json=body)
    assert r.status_code == 422 and r.json()["errors"][0]["location"] == "header", r.text
    r = api.post(url, headers=gm, json={"actor": "hero", "params": {"amount": "lots"}})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "params.amount", r.text
    r = api.post(url, headers={**gm, "Content-Type": "text/plain"}, content=b'{"actor": "hero"}')
    assert r.status_code == 422, r.text
    assert api.get("/api/campaigns/dispatch-odd", headers=gm).json()["version"] == version  # nothing applied

    # A well-formed body under an odd but valid header still acts, once.
    r = api.post(
        url, headers={**gm, "Content-Type": "application/json; charset=utf-8", "If-Match": f'W/"{version}"'}, json=body
    )
    assert r.status_code == 200 and r.json()["version"] == version + 1, r.text

    assert api.post("/api/campaigns/dispatch-odd/gurps/actions/no-such", headers=gm, json=body).status_code == 404
    assert api.post("/api/campaigns/dispatch-odd/nosystem/actions/damage", headers=gm, json=body).status_code == 404
    assert api.get(url, headers=gm).status_code == 405
    r = api.post(url, json=body)
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer"), r.text
    r = api.post(url, headers=ana, json={"actor": "hero", "params": {"amount": 1}, "rolled": [3, 3, 3]})
    # A player's own character, with dice the rules never roll: refused by the rules, in our words.
    assert r.status_code == 400 and "dice" in r.json()["detail"], r.text
    r = api.post(url, headers={**gm, "If-Match": '"1"'}, json=body)
    assert r.status_code == 412 and r.json()["type"] == "/problems/stale-version", r.text


def test_every_action_keeps_its_documented_operation(api: InProcess) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    operation = paths["/api/campaigns/{campaign}/gurps/actions/damage"]["post"]
    assert operation["operationId"] == "gurps.damage"
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("GurpsDamageRequest")
    assert "/api/campaigns/{campaign}/{system}/actions/{action}" not in paths


def test_middleware_given_to_the_app_sees_every_action(tmp_path: Path) -> None:
    """The lane in front of the middleware stack stands aside when the app has middleware of its
    own, so a limit or check added there is never skipped by actions."""
    app = create_app(str(tmp_path / "campaigns.db"))
    seen: list[str] = []

    class Note:
        def __init__(self, inner: ASGIApp) -> None:
            self.inner = inner

        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] == "http":
                seen.append(f"{scope['method']} {scope['path']}")
            await self.inner(scope, receive, send)

    app.add_middleware(Note)
    api = InProcess(app)
    try:
        gm, _ = _table(api, "noted")
        r = api.post(
            "/api/campaigns/noted/gurps/actions/damage", headers=gm, json={"actor": "hero", "params": {"amount": 1}}
        )
        assert r.status_code == 200, r.text
        assert "POST /api/campaigns/noted/gurps/actions/damage" in seen
    finally:
        api.close()


def test_a_name_taken_again_after_a_delete_is_the_new_campaign(api: InProcess) -> None:
    """The server remembers which campaign a name found; a new campaign under a deleted one's
    name is found afresh, and the old tokens open nothing."""
    old_gm, _ = _table(api, "again")
    body = {"actor": "hero", "params": {"amount": 1}}
    assert api.post("/api/campaigns/again/gurps/actions/damage", headers=old_gm, json=body).status_code == 200
    assert api.request("DELETE", "/api/campaigns/again", headers=old_gm).status_code == 204
    new_gm, _ = _table(api, "again")
    r = api.post("/api/campaigns/again/gurps/actions/damage", headers=new_gm, json=body)
    assert r.status_code == 200 and r.json()["seq"] == 2, r.text  # the new campaign's first command after its hero
    assert api.post("/api/campaigns/again/gurps/actions/damage", headers=old_gm, json=body).status_code == 401


@pytest.mark.parametrize("quick", [True, False], ids=["event loop", "worker thread"])
def test_a_campaign_deleted_and_another_made_elsewhere_is_never_taken_for_the_old(tmp_path: Path, quick: bool) -> None:
    """The server keeps what it read of a campaign by its id. When another process (the CLI, or
    another worker) deletes a campaign the server holds and makes another, the new one gets an id
    never given before: its members see only its own characters, and act only on them."""
    url = f"sqlite:///{tmp_path / 'reused.db'}"
    api = InProcess(create_app(url))
    other = open_store(url)  # as the CLI would open the same file
    try:
        if not quick:
            api.app.state.rulekeeper.awaited = None  # every action through a worker thread
        r = api.post("/api/campaigns", json={"name": "t", "system": "gurps", "seed": 5})
        gm = bearer(r.json()["gm_token"])
        r = api.post("/api/campaigns/t/characters", headers=gm, json={"actor": "secret", "sheet": {"st": 17}})
        assert r.status_code == 200, r.text
        for _ in range(3):
            r = api.post(
                "/api/campaigns/t/gurps/actions/damage", headers=gm, json={"actor": "secret", "params": {"amount": 1}}
            )
            assert r.status_code == 200, r.text
        held = other.find_campaign("t")
        assert held is not None and held.version == 4

        other.delete_campaign("t")
        new = Campaign.create(other, "t", "gurps", seed=9, gm="mallory")
        new.add_character("mine", {"st": 10})
        while new.version < held.version:  # the same version as the one the server holds
            new.act(Action("damage", "mine", {"amount": 1}))
        assert new.record.id != held.id
        mallory = bearer(invite(other, new.record, "mallory", "gm").token)

        r = api.get("/api/campaigns/t", headers=mallory)
        assert r.status_code == 200 and [c["actor"] for c in r.json()["characters"]] == ["mine"], r.text
        assert api.get("/api/campaigns/t/characters/secret", headers=mallory).status_code == 404
        body = {"actor": "secret", "params": {"amount": 1}}
        assert api.post("/api/campaigns/t/gurps/actions/damage", headers=mallory, json=body).status_code == 404
        body = {"actor": "mine", "params": {"amount": 1}}
        r = api.post("/api/campaigns/t/gurps/actions/damage", headers=mallory, json=body)
        assert r.status_code == 200 and r.json()["seq"] == held.version + 1, r.text
        reopened = Campaign.open(other, "t")  # and the new campaign's history replays
        assert sorted(reopened.state.characters) == ["mine"] and reopened.version == held.version + 1
    finally:
        api.close()
        other.close()


def test_the_quick_path_reads_each_header_as_the_documented_operation_does() -> None:
    from rulekeeper.web.action_dispatch import _ordinary_headers

    def read(*headers: tuple[str, str]) -> tuple[str | None, str | None, str | None] | None:
        return _ordinary_headers({"headers": [(k.encode(), v.encode("latin-1")) for k, v in headers]})

    assert read() == (None, None, None)
    assert read(("authorization", "bEaReR tok.en"), ("if-match", 'W/"7"'), ("idempotency-key", "k1")) == (
        'W/"7"',
        "k1",
        "tok.en",
    )
    # The first of a repeated header counts, as Starlette's Headers.get reads it.
    assert read(("authorization", "Bearer first"), ("authorization", "Bearer second")) == (None, None, "first")
    assert read(("authorization", "Basic dXNlcg==")) == (None, None, None)  # no bearer: a 401 later
    assert read(("authorization", "Bearer")) == (None, None, None)
    assert read(("content-type", "application/json; charset=utf-8")) == (None, None, None)
    # Anything unusual goes the documented way, which explains it.
    assert read(("content-type", "text/plain")) is None
    assert read(("if-match", "twelve")) is None
    assert read(("if-match", '"' + "1" * 40 + '"')) is None
    assert read(("idempotency-key", "k" * 201)) is None
    assert read(("idempotency-key", "")) is None
