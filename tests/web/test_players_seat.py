"""The player's seat (issue 26, items 1, 2 and 4): the findings reproduced as a player would, with
their own token, then what the GM does about requests, refusals and consequences set aside."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from rulekeeper.web import create_app
from rulekeeper.web.auth import cookie_name

from .seat_support import SeatTable, make_seat_table
from .web_support import EventStream, InProcess, bearer, cli, cli_json, serving, sheets_6810

_OVERRIDES = {"damage": "30d6", "skill": 20, "unaware": True, "location": "skull"}


@pytest.fixture(scope="module")
def api(api_on_each_store: InProcess) -> InProcess:
    """Every test here on SQLite and on PostgreSQL (``conftest.api_on_each_store``)."""
    return api_on_each_store


@pytest.fixture
def gurps(api: InProcess) -> SeatTable:
    return make_seat_table(api, "gurps")


def test_a_players_attack_with_the_gms_overrides_is_refused_and_shown_to_the_gm(gurps: SeatTable) -> None:
    before, version = gurps.character("theirs"), gurps.version()
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", **_OVERRIDES})
    assert r.status_code == 403, r.text
    detail = r.json()["detail"]
    assert "only the GM may set" in detail
    for name in _OVERRIDES:
        assert name in detail
    assert gurps.character("theirs") == before
    assert gurps.version() == version
    refusals = gurps.api.get(gurps.url("/refusals"), headers=gurps.gm).json()
    assert refusals[-1]["by"] == "ana"
    assert "attack" in refusals[-1]["what"] and "theirs" in refusals[-1]["what"]
    assert gurps.api.get(gurps.url("/refusals"), headers=gurps.ana).status_code == 403


def test_one_override_at_its_default_value_is_no_override(gurps: SeatTable) -> None:
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", "location": "torso", "unaware": False})
    assert r.status_code == 200, r.text
    assert r.json()["request"]["status"] == "waiting"


@pytest.mark.parametrize(
    ("action", "params"),
    [
        ("attribute_roll", {"attribute": "dx", "modifier": 15}),
        ("skill_roll", {"skill": "broadsword", "modifier": 15}),
        ("fright_check", {"modifier": 20}),
    ],
)
def test_a_player_may_not_give_their_own_roll_the_gms_modifier(
    gurps: SeatTable, action: str, params: dict[str, object]
) -> None:
    """The GM's modifier on a player's own roll would let the player succeed at will (found by
    an independent review: DX 12 + 15); it is the GM's to give, as for a Will roll."""
    before = gurps.version()
    r = gurps.act(gurps.ana, action, "mine", params)
    assert r.status_code == 403 and "modifier" in r.json()["detail"], r.text
    assert gurps.version() == before
    plain = {k: v for k, v in params.items() if k != "modifier"}
    assert gurps.act(gurps.ana, action, "mine", plain).status_code == 200
    assert gurps.act(gurps.gm, action, "mine", params).status_code == 200


def test_an_attack_on_another_players_character_waits_for_the_gm(gurps: SeatTable) -> None:
    before = gurps.character("theirs")
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs"})
    assert r.status_code == 200, r.text
    request = r.json()["request"]
    assert request["status"] == "waiting" and request["others"] == ["theirs"]
    assert gurps.character("theirs") == before  # nothing applies before the GM says so
    # The GM sees it; ana sees her own; bea sees none of ana's.
    listed = gurps.api.get(gurps.url("/requests"), headers=gurps.gm).json()
    assert [q["id"] for q in listed] == [request["id"]]
    assert gurps.api.get(gurps.url("/requests"), headers=gurps.ana).json()[0]["status"] == "waiting"
    assert gurps.api.get(gurps.url("/requests"), headers=gurps.bea).json() == []
    # A player cannot approve.
    r = gurps.api.post(gurps.url(f"/requests/{request['id']}/approve"), headers=gurps.ana, json={})
    assert r.status_code == 403
    # The GM approves it amended (the target does not defend): it applies with the dice of now.
    r = gurps.api.post(
        gurps.url(f"/requests/{request['id']}/approve"), headers=gurps.gm, json={"set": {"defense": "none"}}
    )
    assert r.status_code == 200, r.text
    assert r.json()["result"]["request"] == request["id"]
    mine = gurps.api.get(gurps.url("/requests"), headers=gurps.ana).json()[0]
    assert mine["status"] == "approved" and mine["params"]["defense"] == "none"
    assert gurps.character("theirs") != before
    # Approving twice is refused; undo puts the request back to waiting and the target as it was.
    assert gurps.api.post(gurps.url(f"/requests/{request['id']}/approve"), headers=gurps.gm, json={}).status_code == 409
    r = gurps.api.post(gurps.url("/undo"), headers=gurps.gm, json={})
    assert r.status_code == 200, r.text
    assert gurps.api.get(gurps.url("/requests"), headers=gurps.gm).json()[0]["status"] == "waiting"
    assert gurps.character("theirs") == before


def test_a_declined_request_changes_nothing_and_says_why(gurps: SeatTable) -> None:
    before = gurps.character("theirs")
    number = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs"}).json()["request"]["id"]
    r = gurps.api.post(gurps.url(f"/requests/{number}/decline"), headers=gurps.gm, json={"note": "bea is out of reach"})
    assert r.status_code == 200, r.text
    mine = gurps.api.get(gurps.url("/requests"), headers=gurps.ana).json()[0]
    assert mine == {**mine, "status": "declined", "note": "bea is out of reach"}
    assert gurps.character("theirs") == before
    lines = [
        line["text"] for e in gurps.api.get(gurps.url("/log"), headers=gurps.ana).json() for line in e["explanation"]
    ]
    assert any("declines ana's request" in line for line in lines)


def test_a_player_acting_directly_on_another_may_not_choose_its_defence(gurps: SeatTable) -> None:
    """With the table letting players act on everyone, an attack applies at once: the target's
    defence (and its weapon, its modifier) stays the target's choice, not the attacker's -- a
    hostile player must not attack with ``defense: none``. Asked as a request, the GM reads it."""
    gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"options": {"actions_on_others": "everyone"}})
    before, version = gurps.character("theirs"), gurps.version()
    for choice in ({"defense": "none"}, {"defense_modifier": -20}, {"parry_weapon": "fist"}):
        r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", **choice})
        assert r.status_code == 403, r.text
        assert f"{next(iter(choice))} is for theirs to choose" in r.json()["detail"], r.text
    assert gurps.character("theirs") == before and gurps.version() == version
    # Left out, the attack applies and the target defends for itself.
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", "defense_modifier": 0})
    assert r.status_code == 200 and "request" not in r.json(), r.text


def test_the_table_may_allow_actions_on_npcs_or_on_everyone(gurps: SeatTable) -> None:
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "npc"})
    assert r.json()["request"]["status"] == "waiting"
    r = gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"options": {"actions_on_others": "npcs"}})
    assert r.status_code == 200, r.text
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "npc"})
    assert r.status_code == 200, r.text
    assert "request" not in r.json()
    assert gurps.act(gurps.ana, "attack", "mine", {"target": "theirs"}).json()["request"]["status"] == "waiting"
    gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"options": {"actions_on_others": "everyone"}})
    assert "request" not in gurps.act(gurps.ana, "attack", "mine", {"target": "theirs"}).json()
    r = gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"options": {"actions_on_others": "all"}})
    assert r.status_code == 400 and "ask, npcs, everyone" in r.json()["detail"] + str(r.json().get("expected"))


def test_wrath_and_glory_damage_naming_another_players_character_is_not_applied(api: InProcess) -> None:
    table = make_seat_table(api, "wrath-and-glory")
    before = table.character("theirs")
    r = table.act(table.ana, "damage", "mine", {"amount": 30, "targets": "mine,theirs", "mortal": True})
    assert r.status_code == 200, r.text
    assert r.json()["request"]["others"] == ["theirs"]
    assert table.character("theirs") == before
    # With dice typed, it is refused outright: typed dice feed only the player's own checks.
    r = table.act(table.ana, "damage", "mine", {"dice": "1d6", "targets": "theirs"}, rolled=[6])
    assert r.status_code == 403 and "dice typed" in r.json()["detail"]


def test_a_player_cannot_type_the_dice_of_another_characters_check(gurps: SeatTable) -> None:
    r = gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"automation": {"*": "prompt"}})
    assert r.status_code == 200, r.text
    r = gurps.act(gurps.gm, "will_roll", "theirs", {})
    assert r.status_code == 200, r.text
    (check,) = [p for p in r.json()["pending"] if p["actor"] == "theirs"]
    before = gurps.version()
    r = gurps.api.post(gurps.url(f"/pending/{check['id']}/resolve"), headers=gurps.ana, json={"dice": [1, 1, 1]})
    assert r.status_code == 403, r.text
    assert gurps.version() == before
    r = gurps.api.post(gurps.url(f"/pending/{check['id']}/resolve"), headers=gurps.bea, json={"dice": [1, 1, 1]})
    assert r.status_code == 200, r.text


def test_surplus_dice_on_a_players_own_roll_cannot_reach_another_characters_check(gurps: SeatTable) -> None:
    """The typed-dice rule judged from the checks a command raises, not from its parameters: ana
    attacks bea's character (the GM approves, letting the defence be a dodge rolled at once), and
    resolves her own attack roll -- hers to type -- with three more dice, which the rules feed to
    the next roll the hit asks for: the defence bea's character rolls. 6,6,6 would be a critical
    failure ana chose for bea."""
    r = gurps.api.patch(gurps.url("/settings"), headers=gurps.gm, json={"automation": {"gurps.attack": "prompt"}})
    assert r.status_code == 200, r.text
    r = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", "defense": "dodge"})
    request = r.json()["request"]
    r = gurps.api.post(gurps.url(f"/requests/{request['id']}/approve"), headers=gurps.gm, json={})
    assert r.status_code == 200, r.text
    (attack,) = gurps.api.get(gurps.url("/pending"), headers=gurps.ana).json()
    before, version = gurps.character("theirs"), gurps.version()
    url = gurps.url(f"/pending/{attack['id']}/resolve")
    r = gurps.api.post(url, headers=gurps.ana, json={"dice": [4, 4, 4, 6, 6, 6]})
    assert r.status_code == 403, r.text
    assert "theirs" in r.json()["detail"] and "dice typed" in r.json()["detail"], r.text
    assert gurps.version() == version and gurps.character("theirs") == before  # nothing applied
    refusals = gurps.api.get(gurps.url("/refusals"), headers=gurps.gm).json()
    assert refusals[-1]["by"] == "ana" and "theirs" in refusals[-1]["why"], refusals
    # Her own three dice alone are hers to type: the campaign rolls the defence.
    r = gurps.api.post(url, headers=gurps.ana, json={"dice": [4, 4, 4]})
    assert r.status_code == 200, r.text
    assert gurps.version() == version + 1


def test_a_players_bad_skill_is_refused_at_once_and_the_clock_keeps_going(api: InProcess) -> None:
    """The issue's jam: a player's exert with skill nonsense was accepted, then every GM round
    answered 400 and undo did not clear it."""
    table = make_seat_table(api, "vi-viii-x")
    r = table.act(table.ana, "exert", "mine", {"skill": "nonsense"})
    assert r.status_code == 400, r.text
    assert "nonsense" in r.json()["detail"]
    assert table.api.post(table.url("/round"), headers=table.gm, json={}).status_code == 200
    assert table.api.post(table.url("/advance"), headers=table.gm, json={"duration": "1m"}).status_code == 200


def test_a_consequence_that_fails_when_due_is_set_aside_for_the_gm(api: InProcess) -> None:
    ranger = {**sheets_6810()["ranger"], "es": {"rope-work": {"us": "VIG", "level": 2}}}
    table = make_seat_table(api, "vi-viii-x", {"mine": ranger})
    r = table.act(table.ana, "exert", "mine", {"skill": "rope-work"})
    assert r.status_code == 200, r.text
    # The sheet changes under the effort: its next ARCT has no skill to read.
    r = table.api.patch(table.url("/characters/mine"), headers=table.gm, json={"changes": {"es": None}})
    assert r.status_code == 200, r.text
    for _ in range(2):  # the clock never stops for it
        r = table.api.post(table.url("/round"), headers=table.gm, json={})
        assert r.status_code == 200, r.text
    aside = table.api.get(table.url("/set-aside"), headers=table.gm).json()
    assert len(aside) == 1 and aside[0]["actor"] == "mine"
    assert "rope-work" in aside[0]["reason"]
    assert table.api.get(table.url("/set-aside"), headers=table.ana).status_code == 403
    # The note reaches the GM's log, not the player's.
    gm_lines = [line["text"] for e in table.log() for line in e["explanation"]]
    assert any("set aside for the GM" in line for line in gm_lines)
    ana_log = table.api.get(table.url("/log"), headers=table.ana).json()
    assert not any("set aside" in line["text"] for e in ana_log for line in e["explanation"])
    # The GM fixes it (another skill) and it plays at the next round.
    timer = aside[0]["id"]
    r = table.api.post(
        table.url(f"/set-aside/{timer}"), headers=table.gm, json={"do": "retry", "changes": {"skill": "stamina"}}
    )
    assert r.status_code == 200, r.text
    assert table.api.get(table.url("/set-aside"), headers=table.gm).json() == []
    r = table.api.post(table.url("/round"), headers=table.gm, json={})
    assert r.status_code == 200, r.text
    assert "Stamina ARCT" in " ".join(line["text"] for line in r.json()[0]["entry"]["explanation"])
    # Dropping an unknown one names those there are.
    r = table.api.post(table.url(f"/set-aside/{timer}"), headers=table.gm, json={"do": "drop"})
    assert r.status_code == 404 and "none" in str(r.json())


def test_requests_survive_a_restart(db_file: str, tmp_path: Path) -> None:
    first = InProcess(create_app(db_file))
    try:
        table = make_seat_table(first, "gurps")
        number = table.act(table.ana, "attack", "mine", {"target": "theirs"}).json()["request"]["id"]
    finally:
        first.close()
    again = InProcess(create_app(db_file))
    try:
        listed = again.get(table.url("/requests"), headers=table.gm).json()
        assert [(q["id"], q["status"]) for q in listed] == [(number, "waiting")]
        r = again.post(table.url(f"/requests/{number}/approve"), headers=table.gm, json={})
        assert r.status_code == 200, r.text
    finally:
        again.close()


def test_the_gm_answers_requests_from_the_cli_while_a_real_server_serves_the_player(tmp_path: Path) -> None:
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm = cli_json("campaign", "new", "sat", "--system", "gurps", "--seed", "3", env=env)["gm_token"]
    sheet = ("--set", "st=11", "--set", "ht=11", "--set", "skills.broadsword=13")
    weapon = ("--set", "weapons=[{name: sword, skill: broadsword, damage: sw+1, damage_type: cut}]")
    cli("char", "add", "mine", *sheet, *weapon, "--player", "ana", env=env)
    cli("char", "add", "theirs", *sheet, *weapon, "--player", "bea", env=env)
    ana = cli_json("campaign", "invite", "sat", "--player", "ana", env=env)["token"]
    with serving(None, tmp_path, env=env) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        stream = EventStream(f"{server.url}/api/campaigns/sat/events", ana)
        try:
            assert [e.id for e in stream.until(2)] == [1, 2]  # the two characters added
            attack = {"actor": "mine", "params": {"target": "theirs"}}
            r = client.post("/api/campaigns/sat/gurps/actions/attack", headers=bearer(ana), json=attack)
            assert r.status_code == 200, r.text
            number = r.json()["request"]["id"]
            (asked,) = stream.until(r.json()["version"])[-1:]
            assert "asks the GM" in " ".join(s["text"] for s in asked.data["explanation"])
            listed = cli_json("requests", env=env)["requests"]
            assert [(q["id"], q["status"]) for q in listed] == [(number, "waiting")]
            cli("approve", str(number), "--set", "defense=none", env=env)
            mine = client.get("/api/campaigns/sat/requests", headers=bearer(ana)).json()
            assert mine[0]["status"] == "approved" and mine[0]["params"]["defense"] == "none"
            (answered,) = stream.until(r.json()["version"] + 1)[-1:]
            assert "approves ana's request" in " ".join(s["text"] for s in answered.data["explanation"])
            # A second request, declined from the CLI.
            r = client.post("/api/campaigns/sat/gurps/actions/attack", headers=bearer(ana), json=attack)
            second = r.json()["request"]["id"]
            cli("decline", str(second), "--note", "not now", env=env)
            assert client.get("/api/campaigns/sat/requests", headers=bearer(gm)).json()[1]["status"] == "declined"
        finally:
            stream.close()


def _page(table: SeatTable, who: dict[str, str], path: str = "") -> str:
    token = who["Authorization"].removeprefix("Bearer ")
    r = table.api.get(
        table.url("").replace("/api", "") + path, headers={"Cookie": f"{cookie_name(table.name)}={token}"}
    )
    assert r.status_code == 200, r.text
    return r.text


def test_the_pages_show_a_request_waiting_then_its_outcome(gurps: SeatTable) -> None:
    number = gurps.act(gurps.ana, "attack", "mine", {"target": "theirs"}).json()["request"]["id"]
    gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", "skill": 20})  # refused
    dashboard = _page(gurps, gurps.gm)
    assert f"/requests/{number}/approve" in dashboard and f"/requests/{number}/decline" in dashboard
    assert 'name="set:target" data-kind="str" value="theirs"' in dashboard
    assert 'ana: mine: attack target=theirs skill=20: <span class="muted">refused' in dashboard
    assert "<script>" not in dashboard  # no inline script: the forms go through table.js
    player = _page(gurps, gurps.ana)
    assert f'data-request="{number}" data-status="waiting"' in player and "waiting for the GM" in player
    assert "approve" not in player.lower().replace("approved", "")
    assert "requests/" not in _page(gurps, gurps.bea)
    gurps.api.post(gurps.url(f"/requests/{number}/approve"), headers=gurps.gm, json={})
    live = gurps.api.get(
        f"/campaigns/{gurps.name}/live",
        headers={"Cookie": f"{cookie_name(gurps.name)}={gurps.ana['Authorization'].removeprefix('Bearer ')}"},
    ).json()
    assert f'data-request="{number}" data-status="approved"' in live["sections"]["requests"]


def test_a_parry_weapon_or_skill_not_on_the_targets_sheet_is_refused_when_the_attack_is_made(gurps: SeatTable) -> None:
    for params in ({"parry_weapon": "nonsense"}, {"parry_skill": "nonsense"}):
        r = gurps.act(gurps.gm, "attack", "mine", {"target": "theirs", **params})
        assert r.status_code == 400, r.text
        assert "nonsense" in r.json()["detail"]
        # A player's request with it is refused at once too, not when the GM approves it.
        assert gurps.act(gurps.ana, "attack", "mine", {"target": "theirs", **params}).status_code == 400
    assert gurps.api.get(gurps.url("/requests"), headers=gurps.gm).json() == []
