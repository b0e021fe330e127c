"""Dice typed into the API (issue #27 item 4; the pages post what a person typed here too): the
same reader as the CLI's, so "4+4+4" is three fours and "5-3-2" is refused, never one die."""

from __future__ import annotations

from itertools import count

import pytest

from .web_support import InProcess, bearer

_NAMES = count(1)


def _campaign(api: InProcess, system: str) -> tuple[str, dict[str, str]]:
    name = f"typed-{next(_NAMES)}"
    r = api.post("/api/campaigns", json={"name": name, "system": system, "seed": 7})
    assert r.status_code == 201, r.text
    gm = bearer(r.json()["gm_token"])
    url = f"/api/campaigns/{name}"
    sheet = {"tier": 1, "toughness": 3, "willpower": 3} if system == "wrath-and-glory" else {}
    r = api.post(f"{url}/characters", headers=gm, json={"actor": "ana", "sheet": sheet})
    assert r.status_code == 200, r.text
    r = api.patch(f"{url}/settings", headers=gm, json={"automation": {"*": "prompt"}})
    assert r.status_code == 200, r.text
    return url, gm


def _will_roll(api: InProcess, url: str, gm: dict[str, str]) -> int:
    r = api.post(f"{url}/gurps/actions/will_roll", headers=gm, json={"actor": "ana", "params": {}})
    assert r.status_code == 200, r.text
    (pending,) = api.get(f"{url}/pending", headers=gm).json()
    return int(pending["id"])


def _lines(r: object) -> str:
    body = r.json()  # type: ignore[attr-defined]
    entries = body if isinstance(body, list) else [body]
    return " ".join(step["text"] for e in entries for step in e["entry"]["explanation"])


@pytest.mark.parametrize("text", ["4 4 4", "4,4,4", "4+4+4"])
def test_three_fours_typed_as_text(api: InProcess, text: str) -> None:
    url, gm = _campaign(api, "gurps")
    pending = _will_roll(api, url, gm)
    r = api.post(f"{url}/pending/{pending}/resolve", headers=gm, json={"dice": text})
    assert r.status_code == 200, r.text
    assert "rolled 12 (4, 4, 4)" in _lines(r)


def test_a_typed_total_and_a_list_of_numbers_still_work(api: InProcess) -> None:
    url, gm = _campaign(api, "gurps")
    r = api.post(f"{url}/pending/{_will_roll(api, url, gm)}/resolve", headers=gm, json={"dice": "12"})
    assert r.status_code == 200, r.text
    assert "total 12 typed at the table" in _lines(r)
    r = api.post(f"{url}/pending/{_will_roll(api, url, gm)}/resolve", headers=gm, json={"dice": [2, 2, 2]})
    assert r.status_code == 200, r.text
    assert "rolled 6 (2, 2, 2)" in _lines(r)


@pytest.mark.parametrize("text", ["5-3-2", "6.5.4", "four"])
def test_ambiguous_text_is_refused_with_the_form_and_count(api: InProcess, text: str) -> None:
    url, gm = _campaign(api, "gurps")
    pending = _will_roll(api, url, gm)
    before = api.get(url, headers=gm).json()["version"]
    r = api.post(f"{url}/pending/{pending}/resolve", headers=gm, json={"dice": text})
    assert r.status_code == 400, r.text
    problem = r.json()
    assert "cannot read dice" in problem["detail"]
    assert problem["expected"].startswith("3 die values separated by spaces, commas or +")
    assert api.get(url, headers=gm).json()["version"] == before


def test_an_action_s_rolled_text_is_read_the_same_way(api: InProcess) -> None:
    url, gm = _campaign(api, "gurps")
    api.patch(f"{url}/settings", headers=gm, json={"automation": {"*": "auto"}})
    body = {"actor": "ana", "params": {}, "rolled": "3+3+3"}
    r = api.post(f"{url}/gurps/actions/will_roll", headers=gm, json=body)
    assert r.status_code == 200, r.text
    assert "rolled 9 (3, 3, 3)" in _lines(r)
    r = api.post(f"{url}/gurps/actions/will_roll", headers=gm, json={**body, "rolled": "3.3.3"})
    assert r.status_code == 400 and "could mean more than one thing" in r.json()["detail"], r.text


def test_a_surplus_wrath_and_glory_die_is_refused_and_nothing_applied(api: InProcess) -> None:
    url, gm = _campaign(api, "wrath-and-glory")
    r = api.post(f"{url}/wrath-and-glory/actions/damage", headers=gm, json={"actor": "ana", "params": {"amount": 14}})
    assert r.status_code == 200, r.text
    (determination,) = api.get(f"{url}/pending", headers=gm).json()
    taken = len(determination["dice"])
    before = api.get(url, headers=gm).json()["version"]
    for dice in ("1 " * (taken + 1), "1 " * (taken - 1)):
        r = api.post(f"{url}/pending/{determination['id']}/resolve", headers=gm, json={"dice": dice})
        assert r.status_code == 400, r.text
        assert f"needs {taken} dice" in r.json()["detail"] or f"takes exactly {taken} dice" in r.json()["detail"]
        assert api.get(url, headers=gm).json()["version"] == before
    r = api.post(f"{url}/pending/{determination['id']}/resolve", headers=gm, json={"dice": "1 " * taken})
    assert r.status_code == 200, r.text


def test_pending_checks_carry_their_odds_in_words(api: InProcess) -> None:
    url, gm = _campaign(api, "wrath-and-glory")
    api.post(f"{url}/wrath-and-glory/actions/damage", headers=gm, json={"actor": "ana", "params": {"amount": 14}})
    (determination,) = api.get(f"{url}/pending", headers=gm).json()
    assert determination["odds_label"].startswith("ana shrugs off all")
    assert determination["stakes"]["label"] == determination["odds_label"]


def test_a_check_resolved_twice_names_the_entry_that_resolved_it(api: InProcess) -> None:
    # issue #27 item 5: the second tab hears which log entry resolved it, stale version or not
    url, gm = _campaign(api, "gurps")
    pending = _will_roll(api, url, gm)
    seen = api.get(url, headers=gm).json()["version"]
    stale = {**gm, "If-Match": f'"{seen}"'}
    first = api.post(f"{url}/pending/{pending}/resolve", headers=stale, json={"dice": "3 3 3"})
    assert first.status_code == 200, first.text
    seq = first.json()["entry"]["seq"]
    for headers in (stale, gm):
        again = api.post(f"{url}/pending/{pending}/resolve", headers=headers, json={"dice": "4 4 4"})
        assert again.status_code == 409, again.text
        assert f"check #{pending} was already resolved by #{seq}" in again.json()["detail"]
    assert api.get(url, headers=gm).json()["version"] == seq  # nothing applied twice


def test_a_player_hears_already_resolved_only_for_their_own_check(api: InProcess) -> None:
    # The GM rolled ana's check while she typed her dice: she hears which entry resolved it; bea,
    # whose check it never was, keeps the one answer that tells nothing about it.
    name = f"typed-{next(_NAMES)}"
    r = api.post("/api/campaigns", json={"name": name, "system": "gurps", "seed": 7})
    assert r.status_code == 201, r.text
    gm = bearer(r.json()["gm_token"])
    url = f"/api/campaigns/{name}"
    for actor, player in (("hero", "ana"), ("zed", "bea")):
        r = api.post(f"{url}/characters", headers=gm, json={"actor": actor, "sheet": {}, "player": player})
        assert r.status_code == 200, r.text
    players = {}
    for who, actor in (("ana", "hero"), ("bea", "zed")):
        r = api.post(f"{url}/members", headers=gm, json={"name": who, "role": "player", "characters": [actor]})
        assert r.status_code == 201, r.text
        players[who] = bearer(r.json()["token"])
    assert api.patch(f"{url}/settings", headers=gm, json={"automation": {"*": "prompt"}}).status_code == 200
    r = api.post(f"{url}/gurps/actions/will_roll", headers=gm, json={"actor": "hero", "params": {}})
    assert r.status_code == 200, r.text
    (pending,) = api.get(f"{url}/pending", headers=players["ana"]).json()
    first = api.post(f"{url}/pending/{pending['id']}/resolve", headers=gm, json={})
    assert first.status_code == 200, first.text
    seq = api.get(url, headers=players["ana"]).json()["version"]  # the resolve, as ana counts it
    again = api.post(f"{url}/pending/{pending['id']}/resolve", headers=players["ana"], json={"dice": "4 4 4"})
    assert again.status_code == 409, again.text
    assert f"check #{pending['id']} was already resolved by #{seq}" in again.json()["detail"]
    assert "dice" not in again.json()["detail"]  # not the GM's words for the command
    other = api.post(f"{url}/pending/{pending['id']}/resolve", headers=players["bea"], json={"dice": "4 4 4"})
    assert other.status_code == 403, other.text
    assert "already" not in other.json()["detail"]
