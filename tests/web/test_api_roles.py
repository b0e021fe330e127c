"""What each role sees and may do, in process (httpx's ASGI transport) on a real SQLite file."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.campaign.members import invite

from .conftest import Table6810, make_table
from .web_support import InProcess, bearer

PROBLEM = "application/problem+json"


def test_the_gm_sees_unknown_stats_and_players_never_do(table: Table6810) -> None:
    r = table.act(table.gm, "damage", "ranger", amount=2)  # on BU/VIG: VIG 3 -> 1, BU untouched
    assert r.status_code == 200, r.text
    gm = table.api.get(table.url("/characters/ranger"), headers=table.gm).json()
    assert gm["access"] == "gm" and gm["view"]["vig"] == 1
    for who in (table.ana, table.bea, table.obi):
        for path in ("", "/characters", "/characters/ranger", "/characters/adept", "/log", "/pending"):
            r = table.api.get(table.url(path), headers=who)
            assert r.status_code == 200, (path, r.text)
            text = r.text.lower()
            assert "vig" not in text and "qzx" not in text, (path, r.text)


def test_a_player_sees_their_own_sheet_and_only_the_table_view_of_others(table: Table6810) -> None:
    table.act(table.gm, "damage", "adept", amount=9)
    chars = {c["actor"]: c for c in table.api.get(table.url("/characters"), headers=table.ana).json()}
    assert chars["ranger"]["access"] == "player" and chars["ranger"]["view"]["bu"] == 6
    assert chars["adept"]["access"] == "table"
    assert set(chars["adept"]["view"]) == {"actor", "name", "conditions"}
    assert chars["adept"]["view"]["name"] == "Adept"
    observed = table.api.get(table.url("/characters"), headers=table.obi).json()
    assert {c["access"] for c in observed} == {"table"}
    me = table.api.get(table.url("/me"), headers=table.ana).json()
    assert me == {"campaign": table.name, "name": "ana", "role": "player", "characters": ["ranger"]}


def test_the_log_of_a_player_keeps_their_lines_in_player_wording(table: Table6810) -> None:
    table.act(table.gm, "damage", "ranger", amount=4)  # VIG 3 -> 0, then BU 6 -> 5
    table.act(table.gm, "damage", "adept", amount=2)
    gm_log = table.api.get(table.url("/log"), headers=table.gm).json()
    assert any("VIG" in step["text"] for e in gm_log for step in e["explanation"])
    ana_log = table.api.get(table.url("/log"), headers=table.ana).json()
    assert [e["seq"] for e in ana_log] == [e["seq"] for e in gm_log]
    lines = [step for e in ana_log for step in e["explanation"]]
    assert lines and all(step["actor"] in ("ranger", None) for step in lines)
    assert any("BU 6 → 5" in step["text"] for step in lines)
    assert all("command" not in e and "result" not in e and "dice" not in e for e in ana_log)


def test_pending_checks_are_the_players_own_without_odds(table: Table6810) -> None:
    r = table.api.patch(table.url("/settings"), headers=table.gm, json={"automation": {"*": "prompt"}})
    assert r.status_code == 200, r.text
    assert table.act(table.gm, "climb", "ranger", threshold="easy").status_code == 200
    assert table.act(table.gm, "climb", "adept", threshold="easy").status_code == 200
    gm = table.api.get(table.url("/pending"), headers=table.gm).json()
    assert {p["actor"] for p in gm} == {"ranger", "adept"} and all("probability" in p for p in gm)
    ana = table.api.get(table.url("/pending"), headers=table.ana).json()
    assert [p["actor"] for p in ana] == ["ranger"]
    assert set(ana[0]) == {"id", "actor", "purpose", "label", "dice", "threshold", "stakes"}
    # what the roll is for and does, never odds, a distribution or an outcome computed from a secret
    assert set(ana[0]["stakes"]) == {"for", "on_success", "on_failure", "plain", "dice"}
    assert table.api.get(table.url("/pending"), headers=table.obi).json() == []

    adept_check = next(p["id"] for p in gm if p["actor"] == "adept")
    ranger_check = next(p["id"] for p in gm if p["actor"] == "ranger")
    before = table.version()
    r = table.api.post(table.url(f"/pending/{adept_check}/resolve"), headers=table.ana, json={"dice": [7]})
    assert r.status_code == 403 and r.headers["content-type"].startswith(PROBLEM)
    assert table.version() == before
    r = table.api.post(table.url(f"/pending/{ranger_check}/resolve"), headers=table.ana, json={"dice": [7]})
    assert r.status_code == 200, r.text
    assert r.json()["version"] == before + 1 and "result" not in json.dumps(r.json()["entry"])


def test_players_act_only_for_their_own_characters(table: Table6810) -> None:
    before = table.version()
    assert table.act(table.ana, "damage", "adept", amount=1).status_code == 403
    assert table.act(table.obi, "damage", "ranger", amount=1).status_code == 403
    assert table.api.post(table.url("/advance"), headers=table.ana, json={"duration": "1h"}).status_code == 403
    assert table.api.post(table.url("/undo"), headers=table.bea, json={}).status_code == 403
    assert table.api.get(table.url("/export"), headers=table.ana).status_code == 403
    assert table.api.get(table.url("/members"), headers=table.obi).status_code == 403
    assert table.version() == before
    r = table.act(table.ana, "fall", "ranger", metres=3)
    assert r.status_code == 200, r.text
    assert table.version() == before + 1


def test_forged_expired_revoked_and_foreign_tokens_change_nothing(api: InProcess, table: Table6810) -> None:
    other = make_table(api)
    with open_store(str(api.app.state.rulekeeper.store.url).removeprefix("sqlite:///")) as store:
        record = Campaign.open(store, table.name).record
        expired = invite(store, record, "eve", "player", characters=["ranger"], expires=time.time() - 1).token
    token_id = table.tokens["ana"].split(".")[1]
    forged = f"rk1.{token_id}.{'A' * 43}"
    r = api.request("DELETE", table.url("/members/bea"), headers=table.gm)
    assert r.status_code == 200 and r.json() == {"revoked": 1}
    cases = {
        "none": ({}, 401),
        "malformed": (bearer("hello"), 401),
        "forged": (bearer(forged), 401),
        "expired": (bearer(expired), 401),
        "revoked": (table.bea, 401),
        "other campaign's GM": (other.gm, 403),
        "other campaign's player": (other.ana, 403),
    }
    before = table.version()
    for name, (headers, status) in cases.items():
        for method, path, body in (
            ("GET", "", None),
            ("GET", "/log", None),
            ("POST", "/vi-viii-x/actions/damage", {"actor": "ranger", "params": {"amount": 3}}),
            ("POST", "/advance", {"duration": "8h"}),
            ("DELETE", "/characters/ranger", None),
        ):
            r = api.request(method, table.url(path), headers=headers, json=body)
            assert r.status_code == status, (name, method, path, r.text)
            assert r.headers["content-type"].startswith(PROBLEM)
            problem = r.json()
            assert problem["status"] == status and problem["type"].startswith("/problems/")
    assert table.version() == before
    assert other.version() == 0 + 2  # its two characters only


def test_if_match_refuses_a_stale_command_with_what_changed(table: Table6810) -> None:
    r = table.api.get(table.url(), headers=table.gm)
    etag = r.headers["etag"]
    assert etag == '"2"'
    assert table.act(table.gm, "damage", "ranger", amount=1).status_code == 200
    r = table.api.post(
        table.url("/vi-viii-x/actions/damage"),
        headers={**table.gm, "If-Match": etag},
        json={"actor": "adept", "params": {"amount": 1}},
    )
    assert r.status_code == 412 and r.headers["content-type"].startswith(PROBLEM)
    problem = r.json()
    assert problem["expected_version"] == 2 and problem["current_version"] == 3
    assert problem["changes"] == [{"seq": 3, "summary": "ranger: damage amount=1"}]
    assert table.version() == 3
    r = table.api.post(
        table.url("/vi-viii-x/actions/damage"),
        headers={**table.gm, "If-Match": '"3"'},
        json={"actor": "adept", "params": {"amount": 1}},
    )
    assert r.status_code == 200 and r.headers["etag"] == '"4"'


def test_an_idempotency_key_applies_a_retry_once(table: Table6810) -> None:
    headers = {**table.gm, "Idempotency-Key": "bot-42"}
    body = {"actor": "ranger", "params": {"amount": 1}}
    first = table.api.post(table.url("/vi-viii-x/actions/damage"), headers=headers, json=body)
    again = table.api.post(table.url("/vi-viii-x/actions/damage"), headers=headers, json=body)
    assert first.status_code == again.status_code == 200
    assert first.json()["seq"] == again.json()["seq"] == 3
    assert again.json()["retried"] is True and first.json()["retried"] is False
    assert table.version() == 3
    other = table.api.post(
        table.url("/vi-viii-x/actions/damage"), headers=headers, json={"actor": "adept", "params": {"amount": 1}}
    )
    assert other.status_code == 400 and "already used" in other.json()["detail"]


def test_undo_preview_lists_the_cascade_and_changes_nothing(table: Table6810) -> None:
    table.act(table.gm, "damage", "ranger", amount=1)  # 3
    table.act(table.gm, "damage", "adept", amount=1)  # 4
    table.act(table.gm, "damage", "ranger", amount=1)  # 5, concerns ranger like 3
    r = table.api.get(table.url("/undo/preview"), headers=table.gm, params={"seq": 3})
    assert r.status_code == 200, r.text
    preview = r.json()
    assert [c["seq"] for c in preview["commands"]] == [3, 5]
    assert "ranger" in preview["commands"][1]["reason"]
    assert table.version() == 5
    r = table.api.post(table.url("/undo"), headers={**table.gm, "If-Match": r.headers["etag"]}, json={"seq": 3})
    assert r.status_code == 200, r.text
    assert r.json()["undone"] == [3, 5]
    assert table.api.post(table.url("/redo"), headers=table.gm).json()["redone"] == [3, 5]
    r = table.api.post(table.url("/redo"), headers=table.gm)
    assert r.status_code == 409 and r.json()["type"] == "/problems/rule-refusal"


def test_errors_are_problems_naming_the_field_and_form(table: Table6810) -> None:
    r = table.act(table.gm, "damage", "ranger", amount=-5)
    assert r.status_code == 422 and r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["errors"][0]["field"] == "params.amount"
    r = table.act(table.gm, "damage", "nobody", amount=1)
    assert r.status_code == 404 and "nobody" in r.json()["detail"] and r.json()["expected"]
    r = table.act(table.gm, "rest", "ranger", kind="siesta")
    assert r.status_code == 422 and "kind" in r.json()["detail"]
    r = table.api.post(table.url("/gurps/actions/damage"), headers=table.gm, json={"actor": "ranger", "params": {}})
    assert r.status_code in (404, 422)
    r = table.api.get("/api/campaigns/nowhere", headers=table.gm)
    assert r.status_code == 404 and r.json()["type"] == "/problems/not-found"
    r = table.api.get(table.url("/characters/ghost"), headers=table.ana)
    assert r.status_code == 404
    r = table.api.post(table.url("/pending/99/resolve"), headers=table.gm, json={})
    assert r.status_code == 404, r.text
    r = table.api.get("/api/roll", params={"expr": "3d6+"})
    assert r.status_code == 400 and r.json()["expected"]
    r = table.api.post(table.url("/advance"), headers=table.gm, json={"duration": "soon"})
    assert r.status_code == 400 and r.json()["expected"]
    r = table.api.post(table.url("/vi-viii-x/actions/damage"), headers=table.gm, content=b"{not json")
    assert r.status_code == 422


def test_dice_odds_checks_systems_and_calculators_need_no_campaign(api: InProcess) -> None:
    r = api.get("/api/roll", params={"expr": "3d6", "seed": 4})
    assert r.status_code == 200 and r.json() == api.get("/api/roll", params={"expr": "3d6", "seed": 4}).json()
    r = api.get("/api/odds", params={"expr": "3d6", "at_least": 10})
    assert r.json()["at_least"]["p"] == "5/8"
    r = api.get("/api/check/gurps", params={"target": 10})
    assert r.json()["probability_exact"] == "1/2"
    systems = {s["name"]: s for s in api.get("/api/systems").json()}
    assert set(systems) == {"gurps", "gods-and-monsters", "wrath-and-glory", "vi-viii-x"}
    r = api.post("/api/systems/gurps/calculators/jump", json={"basic_move": 6})
    assert r.status_code == 200, r.text
    assert r.json()["values"]


def test_export_and_import_round_trip(table: Table6810) -> None:
    table.act(table.gm, "damage", "ranger", amount=2)
    document = table.api.get(table.url("/export"), headers=table.gm).json()
    copy_name = f"{table.name}-copy"
    r = table.api.post("/api/campaigns/import", json={"document": document, "name": copy_name})
    assert r.status_code == 201, r.text
    copy = bearer(r.json()["gm_token"])
    again = table.api.get(f"/api/campaigns/{copy_name}/export", headers=copy).json()
    assert again["events"] == document["events"]
    # The original's GM token is not the copy's.
    assert table.api.get(f"/api/campaigns/{copy_name}", headers=table.gm).status_code == 403


def test_a_players_refusals_name_no_unknown_stat(table: Table6810) -> None:
    """A player may act for their own character, but a refusal must not answer with the unknown
    stats' names (the GM's secret, seed 001 VIII.1): not in the message, not in the expected form."""
    before = table.version()
    for params in ({"amount": 1, "ks": "in"}, {"amount": 1, "ks": "bu", "kind": "mental"}):
        r = table.act(table.ana, "damage", "ranger", **params)
        assert r.status_code in (400, 409), (params, r.text)
        assert r.headers["content-type"].startswith(PROBLEM)
        assert "vig" not in r.text.lower() and "qzx" not in r.text.lower(), (params, r.text)
        assert r.json()["detail"], r.text  # still says that it was refused
    # Naming an unknown stat at all is the GM's: a right guess and a wrong one get the same answer.
    guesses = [
        table.act(table.ana, action, "ranger", **params)
        for action, params in (
            ("damage", {"amount": 1, "us": "NOPE"}),
            ("damage", {"amount": 1, "us": "VIG"}),
            ("arc", {"ks": "bu", "us": "VIG"}),
        )
    ]
    assert {(r.status_code, r.json()["detail"]) for r in guesses} == {
        (403, "only the GM may set us; it names what only the GM knows")
    }
    assert table.version() == before
    # The GM's copy of the same refusal names the stat, so the check above can fail.
    r = table.act(table.gm, "damage", "ranger", amount=1, us="NOPE")
    assert r.status_code == 400 and "VIG" in r.text, r.text


def test_a_players_stale_version_lists_no_gm_command(table: Table6810) -> None:
    """412 tells a player what changed as their log does, never in the GM's command words."""
    version = table.version()
    assert table.act(table.gm, "damage", "ranger", amount=1, us="VIG").status_code == 200
    assert table.act(table.gm, "damage", "adept", amount=1, us="QZX", ks="in", kind="mental").status_code == 200
    body = {"params": {"amount": 1}, "actor": "ranger"}
    headers = {**table.ana, "If-Match": f'"{version}"'}
    r = table.api.post(table.url("/vi-viii-x/actions/damage"), headers=headers, json=body)
    assert r.status_code == 412, r.text
    assert "vig" not in r.text.lower() and "qzx" not in r.text.lower(), r.text
    assert [c["seq"] for c in r.json()["changes"]] == [version + 1, version + 2]
    gm = table.api.post(
        table.url("/vi-viii-x/actions/damage"), headers={**table.gm, "If-Match": f'"{version}"'}, json=body
    )
    assert gm.status_code == 412 and "VIG" in gm.text, gm.text


def test_only_this_machine_creates_campaigns_unless_the_server_is_open(db_file: str, table: Table6810) -> None:
    """A server on the table's Wi-Fi takes commands from phones, not new campaigns from anyone
    there; ``serve --open-creation`` (a bot on another host) lets them."""
    from rulekeeper.web import create_app

    phone = ("192.168.1.20", 50123)
    closed = InProcess(create_app(db_file), client=phone)
    try:
        r = closed.post("/api/campaigns", json={"name": "from-a-phone", "system": "gurps"})
        assert r.status_code == 403 and r.headers["content-type"].startswith(PROBLEM), r.text
        assert "--open-creation" in r.json()["detail"]
        exported = table.api.get(table.url("/export"), headers=table.gm).json()
        r = closed.post("/api/campaigns/import", json={"document": exported, "name": "imported-by-a-phone"})
        assert r.status_code == 403, r.text
        # The phone still plays the campaigns it holds a token for.
        assert closed.get(table.url("/characters/ranger"), headers=table.ana).status_code == 200
    finally:
        closed.close()
    store = open_store(db_file)
    names = {c.name for c in store.list_campaigns()}
    store.close()
    assert not names & {"from-a-phone", "imported-by-a-phone"}

    open_ = InProcess(create_app(db_file, open_creation=True), client=phone)
    try:
        assert open_.post("/api/campaigns", json={"name": "from-a-bot", "system": "gurps"}).status_code == 201
    finally:
        open_.close()
    local = InProcess(create_app(db_file), client=("::1", 50124))
    try:
        assert local.post("/api/campaigns", json={"name": "from-here", "system": "gurps"}).status_code == 201
    finally:
        local.close()


def test_a_players_typed_dice_never_reach_the_gms_secret_roll(api: InProcess) -> None:
    """GURPS Danger Sense is the GM's secret roll (seed 004, "Sense Roll"). A player typing their
    own Vision dice can't choose it with surplus dice, nor tell from the answer that it came."""
    r = api.post("/api/campaigns", json={"name": "secret-dice", "system": "gurps", "seed": 5})
    gm = bearer(r.json()["gm_token"])
    url = "/api/campaigns/secret-dice"
    api.post(f"{url}/characters", headers=gm, json={"actor": "hero", "sheet": {"per": 3}, "player": "ana"})
    ana = bearer(api.post(f"{url}/members", headers=gm, json={"name": "ana", "role": "player"}).json()["token"])
    api.patch(f"{url}/settings", headers=gm, json={"automation": {"gurps.sense.vision": "prompt"}})
    answers = {}
    for dangerous in (False, True):
        params = {"dangerous": dangerous, "danger_sense": True}
        assert api.post(f"{url}/gurps/actions/sense", headers=gm, json={"actor": "hero", "params": params}).is_success
        vision = api.get(f"{url}/pending", headers=ana).json()[-1]["id"]
        surplus = api.post(f"{url}/pending/{vision}/resolve", headers=ana, json={"dice": [4, 4, 3, 1, 1, 1]})
        answers[dangerous] = (surplus.status_code, surplus.json()["detail"])
        assert api.post(f"{url}/pending/{vision}/resolve", headers=ana, json={"dice": [4, 4, 3]}).is_success
    assert answers[False] == answers[True] and answers[True][0] == 400, answers
    assert "danger" not in answers[True][1].lower()
    # The secret roll waits for the GM, unseen by the player.
    assert [p["kind"] for p in api.get(f"{url}/pending", headers=gm).json()] == ["gurps.sense.danger"]
    assert api.get(f"{url}/pending", headers=ana).json() == []


def test_a_players_idempotency_keys_are_their_own(table: Table6810) -> None:
    """A key is kept per player: the GM's or another player's use of it neither answers a
    player's command with theirs (the GM's command and result) nor refuses it, so no one learns
    whether a key was used, nor spends one a bot of the table will use."""
    key = {"Idempotency-Key": "k-shared"}
    secret = {"actor": "ranger", "params": {"amount": 1, "us": "VIG"}}
    r = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.gm, **key}, json=secret)
    assert r.status_code == 200, r.text
    plain = {"actor": "ranger", "params": {"amount": 1}}
    r = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.gm, **key}, json=plain)
    assert r.status_code == 400 and "VIG" in r.text, r.text  # the GM reads the clash as raised
    before = table.version()
    mine = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.ana, **key}, json=plain)
    assert mine.status_code == 200 and mine.json()["retried"] is False, mine.text
    assert table.version() == before + 1  # applied: not the GM's answer
    again = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.ana, **key}, json=plain)
    assert again.status_code == 200 and again.json()["retried"] is True, again.text
    assert again.json()["seq"] == mine.json()["seq"] and table.version() == before + 1
    bea = table.api.post(
        table.url("/vi-viii-x/actions/damage"),
        headers={**table.bea, **key},
        json={"actor": "adept", "params": {"amount": 1}},
    )
    assert bea.status_code == 200 and bea.json()["retried"] is False, bea.text
    assert table.version() == before + 2
    other = table.api.post(
        table.url("/vi-viii-x/actions/damage"), headers={**table.ana, **key}, json={**plain, "params": {"amount": 2}}
    )
    assert other.status_code == 400 and "already used" in other.json()["detail"], other.text
    assert "'k-shared'" in other.json()["detail"] and f"#{mine.json()['seq']}" in other.json()["detail"]
    assert (
        "vig" not in other.text.lower() and "\\u001f" not in other.text.lower() and "ana" not in other.json()["detail"]
    )
    keys = [e["key"] for e in table.api.get(table.url("/log"), headers=table.gm).json()]
    assert keys.count("k-shared") == 3, keys  # the GM reads each key as its sender wrote it
    long_key = {"Idempotency-Key": "x" * 200}  # kept as a digest, still once
    first = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.ana, **long_key}, json=plain)
    retry = table.api.post(table.url("/vi-viii-x/actions/damage"), headers={**table.ana, **long_key}, json=plain)
    assert first.status_code == retry.status_code == 200, (first.text, retry.text)
    assert (first.json()["retried"], retry.json()["retried"]) == (False, True)
    assert table.version() == before + 3


def test_a_request_the_gm_amended_shows_its_player_none_of_the_gms_parameters(table: Table6810) -> None:
    """Approved with the GM's threshold, modifier and an unknown stat, a player's request lists
    for the player only what a player may set; the GM's copy lists what was applied."""
    r = table.api.post(
        table.url("/vi-viii-x/actions/reaction"), headers=table.ana, json={"actor": "ranger", "params": {}}
    )
    assert r.status_code == 200, r.text
    number = r.json()["request"]["id"]
    amended = {"threshold": "9", "us": "VIG", "ks": "bu", "gm_modifier": -2}
    r = table.api.post(table.url(f"/requests/{number}/approve"), headers=table.gm, json={"set": amended})
    assert r.status_code == 200, r.text
    gms = table.api.get(table.url("/requests"), headers=table.gm).json()[0]
    assert gms["status"] == "approved" and gms["params"]["us"] == "VIG" and gms["params"]["gm_modifier"] == -2
    mine = table.api.get(table.url("/requests"), headers=table.ana).json()[0]
    assert mine["status"] == "approved", mine
    assert not {"threshold", "us", "gm_modifier"} & set(mine["params"]), mine
    assert "VIG" not in json.dumps(mine)


def test_the_log_is_read_with_the_campaigns_lock_free_and_as_the_viewer_counted_it(
    table: Table6810, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long history read over and over must not hold the campaign's commands back (an
    independent review: one player's loop of log reads slowed the GM's actions to 10 s)."""
    from rulekeeper.campaign import Campaign

    table.act(table.gm, "damage", "ranger", amount=1)
    server = table.api.app.state.rulekeeper
    record = server.store.find_campaign(table.name)
    lock = server.pool._lock(record.id)
    reads: list[tuple[bool, int | None]] = []
    original = Campaign.log

    def log(self: Campaign, **kw: Any) -> Any:
        reads.append((lock.locked(), kw.get("upto")))
        return original(self, **kw)

    monkeypatch.setattr(Campaign, "log", log)
    for who in (table.gm, table.ana):
        r = table.api.get(table.url("/log"), headers=who)
        assert r.status_code == 200 and r.json(), r.text
    assert reads == [(False, table.version())] * 2
