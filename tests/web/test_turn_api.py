"""A character's turn for its player's phone (issue 27, item 1): ``GET .../characters/{actor}/turn``
lists the actions, the sheet's weapons, the one-tap rolls with their odds and, when an attack
waits, the legal defences with theirs; every tap it offers is a command the player's seat accepts."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.core.success_roll import SuccessRoll

from .seat_support import SYSTEMS, SeatTable, make_seat_table
from .web_support import GURPS_FIGHTER, InProcess


def _turn(table: SeatTable, who: dict[str, str], actor: str = "mine") -> dict[str, Any]:
    r = table.api.get(table.url(f"/characters/{actor}/turn"), headers=who)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.2f}%"


@pytest.mark.parametrize("system", SYSTEMS)
def test_only_the_player_and_the_gm_get_a_characters_turn(api: InProcess, system: str) -> None:
    table = make_seat_table(api, system)
    mine = _turn(table, table.ana)
    assert _turn(table, table.gm) == mine
    r = api.get(table.url("/characters/mine/turn"), headers=table.bea)
    assert r.status_code == 403 and "mine" in r.json()["detail"]
    assert api.get(table.url("/characters/nobody/turn"), headers=table.ana).status_code == 404
    specs = get_ruleset(system).actions()
    assert mine["actions"] and mine["taps"]
    for action in mine["actions"]:
        spec = specs[action["action"]]
        for p in action["params"]:  # never a field the seat refuses from a player
            declared = spec.param(p["name"])
            assert not (declared.gm_only or declared.overrides_rules), (action["action"], p["name"])


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_tap_a_player_is_offered_is_accepted_from_their_seat(api: InProcess, system: str) -> None:
    table = make_seat_table(api, system)
    for tap in _turn(table, table.ana)["taps"]:
        assert tap["actor"] == "mine"
        r = table.act(table.ana, tap["action"], "mine", tap["params"])
        assert r.status_code == 200, (tap, r.text)


def test_gurps_weapons_come_from_the_sheet_with_skill_damage_and_range(api: InProcess) -> None:
    table = make_seat_table(api, "gurps", {"mine": GURPS_FIGHTER})
    attack = next(a for a in _turn(table, table.ana)["actions"] if a["action"] == "attack")
    weapon = next(p for p in attack["params"] if p["name"] == "weapon")
    labels = {c["value"]: c["label"] for c in weapon["choices"]}
    assert list(labels) == ["Punch", "sword", "bow"]
    assert labels["sword"] == "sword: broadsword 13, sw+1 cut (1d+2), melee"
    assert labels["bow"] == "bow: bow 12, 1d+2 imp, range 150/200"
    target = next(p for p in attack["params"] if p["name"] == "target")
    assert {c["value"] for c in target["choices"]} == {"theirs", "npc"}


def test_a_gurps_defence_waits_on_the_defenders_turn_with_its_odds_and_one_tap_rolls_it(api: InProcess) -> None:
    table = make_seat_table(api, "gurps", {"mine": GURPS_FIGHTER})
    assert not [t for t in _turn(table, table.ana)["taps"] if t["group"] == "defend"]
    r = table.act(table.gm, "attack", "npc", {"target": "mine"}, rolled=[3, 3, 4])
    assert r.status_code == 200, r.text
    turn = _turn(table, table.ana)
    assert turn["waiting"] and "npc" in turn["waiting"][0]
    defences = {t["label"]: t for t in turn["taps"] if t["group"] == "defend"}
    # Dodge = Basic Speed 5 + 3 = 8; Parry = 3 + half the skill: sword 3 + 6 = 9, Punch 3 + 6 = 9.
    assert set(defences) == {"Dodge 8", "Parry (Punch) 9", "Parry (sword) 9", "No defence"}
    assert defences["Dodge 8"]["odds"] == _percent(SuccessRoll("x", "x", 8).probability())
    assert defences["Parry (sword) 9"]["params"] == {"defense": "parry", "attack": 1, "weapon": "sword"}
    tap = defences["Parry (sword) 9"]
    r = table.act(table.ana, tap["action"], "mine", tap["params"], rolled=[1, 2, 3])
    assert r.status_code == 200, r.text
    assert any("parries" in s["text"] for s in r.json()["entry"]["explanation"])
    assert not [t for t in _turn(table, table.ana)["taps"] if t["group"] == "defend"]


def test_an_all_out_attacker_is_offered_no_defence(api: InProcess) -> None:
    table = make_seat_table(api, "gurps", {"mine": GURPS_FIGHTER})
    aoa = {"choice": "all-out-attack", "option": "determined"}
    assert table.act(table.ana, "maneuver", "mine", aoa).status_code == 200
    r = table.act(table.gm, "attack", "npc", {"target": "mine"}, rolled=[3, 3, 4, 1])
    assert r.status_code == 200, r.text
    assert "no active defense" in " ".join(s["text"] for s in r.json()["entry"]["explanation"])
    turn = _turn(table, table.ana)
    assert turn["waiting"] == [] and [t for t in turn["taps"] if t["group"] == "defend"] == []


def test_a_parry_with_no_weapon_named_uses_the_best_ready_parry_not_the_sheets_first(api: InProcess) -> None:
    sheet = {**GURPS_FIGHTER, "skills": {"broadsword": 15, "brawling": 10}}
    table = make_seat_table(api, "gurps", {"mine": sheet})
    r = table.act(table.gm, "attack", "npc", {"target": "mine", "defense": "parry"}, rolled=[3, 3, 4, 2, 2, 2])
    assert r.status_code == 200, r.text
    text = " ".join(s["text"] for s in r.json()["entry"]["explanation"])
    assert "Parry (sword)" in text and "Punch" not in text


def test_the_gms_attack_form_picks_weapons_from_the_sheets(api: InProcess) -> None:
    from rulekeeper.web.auth import cookie_name

    table = make_seat_table(api, "gurps", {"mine": GURPS_FIGHTER})
    token = table.gm["Authorization"].removeprefix("Bearer ")
    page = api.get(f"/campaigns/{table.name}", headers={"Cookie": f"{cookie_name(table.name)}={token}"}).text
    for field in ("act-attack-weapon", "act-attack-parry_weapon", "act-defend-weapon", "act-maneuver-weapon"):
        start = page.index(f'<select id="{field}"')
        options = page[start : page.index("</select>", start)]
        # Every weapon on the table's sheets, once each (the other sheets hold the sword too).
        assert [o for o in ("Punch", "sword", "bow") if f'value="{o}"' in options] == ["Punch", "sword", "bow"], field
        assert options.count('value="sword"') == 1


def test_a_gurps_skill_rolls_from_the_sheet_with_a_tap_carrying_shock(api: InProcess) -> None:
    table = make_seat_table(api, "gurps", {"mine": GURPS_FIGHTER})
    taps = {t["label"]: t for t in _turn(table, table.ana)["taps"]}
    tap = taps["broadsword 13"]
    assert tap["params"] == {"skill": "broadsword"}
    assert tap["odds"] == _percent(SuccessRoll("x", "x", 13).probability())
    r = table.act(table.ana, tap["action"], "mine", tap["params"], rolled=[4, 4, 5])
    assert r.status_code == 200, r.text
    assert "mine succeeds" in " ".join(s["text"] for s in r.json()["entry"]["explanation"])
    # Hurt (3 HP of shock, at most -3 here): the same 13 on the dice now fails.
    assert table.act(table.gm, "damage", "mine", {"amount": 3}).status_code == 200
    r = table.act(table.ana, "skill_roll", "mine", {"skill": "broadsword"}, rolled=[4, 4, 5])
    text = " ".join(s["text"] for s in r.json()["entry"]["explanation"])
    assert "shock" in text and "mine fails" in text, text
    r = table.act(table.ana, "skill_roll", "mine", {"skill": "lockpicking"})
    assert r.status_code == 400 and "broadsword" in r.json()["expected"]
