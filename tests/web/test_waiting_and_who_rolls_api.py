"""Over a real ``rulekeeper serve``: the campaign JSON's ``waiting`` list (issue #25), and who rolls
by whose character (issue #27 item 2).

``waiting`` is what the clock has run past, and what waits behind it. The GM sees every check; a
player sees only their own characters' checks that are not secret, numbered as they count checks --
never a blind check, its id or its count."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .web_support import ServeProcess, bearer, serving

HOUR = 3600


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("waiting")
    with serving(str(tmp / "campaigns.db"), tmp) as running:
        yield running


class _Table:
    """A W&G table rolling its own dice: ana plays ari; brute is the GM's NPC."""

    def __init__(self, server: ServeProcess, name: str) -> None:
        self.base = f"{server.url}/api/campaigns/{name}"
        r = httpx.post(f"{server.url}/api/campaigns", json={"name": name, "system": "wrath-and-glory"}, timeout=30)
        assert r.status_code == 201, r.text
        self.gm = r.json()["gm_token"]
        sheets = {
            "ari": {"tier": 1, "toughness": 3, "willpower": 3},
            "brute": {"tier": 1, "toughness": 4, "willpower": 2},
        }
        for actor, sheet in sheets.items():
            body: dict[str, Any] = {"actor": actor, "sheet": sheet}
            if actor == "ari":
                body["player"] = "ana"
            self.ok(self.call("POST", "/characters", self.gm, json=body))
        r = self.call("POST", "/members", self.gm, json={"name": "ana", "role": "player"})
        assert r.status_code == 201, r.text
        self.ana = r.json()["token"]
        self.ok(self.call("PATCH", "/settings", self.gm, json={"automation": {"*": "prompt"}}))

    def call(self, method: str, path: str, token: str, **kw: Any) -> httpx.Response:
        return httpx.request(method, self.base + path, headers=bearer(token), timeout=30, **kw)

    def ok(self, r: httpx.Response) -> dict[str, Any]:
        assert r.status_code in (200, 201), r.text
        out: dict[str, Any] = r.json()
        return out

    def damage(self, actor: str, amount: int) -> None:
        self.ok(
            self.call(
                "POST", "/wrath-and-glory/actions/damage", self.gm, json={"actor": actor, "params": {"amount": amount}}
            )
        )

    def waiting(self, token: str) -> list[dict[str, Any]]:
        waiting: list[dict[str, Any]] = self.ok(self.call("GET", "", token))["waiting"]
        return waiting


def test_the_gm_sees_every_waiting_check_and_a_player_only_their_own(server: ServeProcess) -> None:
    table = _Table(server, "waits-own")
    table.damage("brute", 14)  # the NPC's Determination first: its id would show in a player's count
    table.damage("ari", 14)
    assert table.waiting(table.gm) == [] and table.waiting(table.ana) == []  # the clock has not moved
    table.ok(table.call("POST", "/advance", table.gm, json={"duration": "1h"}))

    gm = table.waiting(table.gm)
    assert {w["actor"] for w in gm} == {"ari", "brute"}
    assert all(w["text"].startswith("waiting for ") and w["due"] == 0 for w in gm)

    [mine] = table.waiting(table.ana)
    assert mine["actor"] == "ari" and "ari" in mine["text"]
    pending = table.ok(table.call("GET", "/pending", table.ana))
    assert [p["id"] for p in pending] == [mine["id"]]  # numbered as the player counts checks
    assert f"(#{mine['id']})" in mine["text"]
    assert "brute" not in str(mine)

    # A command given after the clock ran past the checks waits behind the earliest, and says so.
    r = table.call("POST", "/wrath-and-glory/actions/damage", table.gm, json={"actor": "ari", "params": {"amount": 2}})
    answer = table.ok(r)
    assert "waits for that roll" in " ".join(s["text"] for s in answer["entry"]["explanation"])
    gm = table.waiting(table.gm)
    assert [w["commands"] for w in gm if w["actor"] == "brute"] == [1]  # behind the earliest: brute's
    # ari's player reads that the command waits its turn, never which roll of brute's it waits for.
    log = table.ok(table.call("GET", "/log", table.ana))
    lines = " ".join(step["text"] for entry in log for step in entry.get("explanation", []))
    assert "recorded; it is applied in its turn" in lines and "brute" not in lines
    # The player's list holds only ari's check, which this command does not wait for.
    assert [(w["actor"], w["commands"]) for w in table.waiting(table.ana)] == [("ari", 0)]


def test_a_blind_check_is_never_in_a_players_waiting_list(server: ServeProcess) -> None:
    table = _Table(server, "waits-blind")
    table.ok(table.call("PATCH", "/settings", table.gm, json={"roll_modes": {"wg.determination": "blind"}}))
    table.damage("ari", 14)
    table.ok(table.call("POST", "/advance", table.gm, json={"duration": "1h"}))
    [held] = table.waiting(table.gm)
    assert held["actor"] == "ari"
    assert table.waiting(table.ana) == []  # neither the check nor a count of it
    body = table.ok(table.call("GET", "", table.ana))
    assert "determination" not in str(body["waiting"]).lower() and body["pending"] == []

    # Back to the rules' own mode (private): the player's own check shows again.
    table.ok(table.call("PATCH", "/settings", table.gm, json={"roll_modes": {"wg.determination": None}}))
    [mine] = table.waiting(table.ana)
    assert mine["actor"] == "ari"


def test_pcs_prompt_npcs_auto_and_the_hint_only_where_true(server: ServeProcess) -> None:
    """Who rolls by whose character (issue #27 item 2): set through the API, shown in the settings,
    and the GM's pending checks say who may roll each; the page's hint follows it."""
    from rulekeeper.web.auth import cookie_name

    table = _Table(server, "who-rolls")
    r = table.call("PATCH", "/settings", table.gm, json={"options": {"npc_automation": "*=sometimes"}})
    assert r.status_code == 400 and "npc_automation" in r.text and "auto, prompt, note" in r.json()["expected"]
    table.ok(table.call("PATCH", "/settings", table.gm, json={"options": {"npc_automation": {"*": "auto"}}}))
    assert table.ok(table.call("GET", "/settings", table.gm))["options"]["npc_automation"] == "*=auto"
    table.damage("ari", 14)
    table.damage("brute", 14)
    pending = table.ok(table.call("GET", "/pending", table.gm))
    assert [(p["actor"], p["who_rolls"], p["player_may_roll"]) for p in pending] == [("ari", "player", True)]

    # A blind check of ari's is the GM's to roll: no hint, whoever plays ari.
    table.ok(table.call("PATCH", "/settings", table.gm, json={"options": {"npc_automation": None}}))
    table.damage("brute", 3)  # brute's next roll now waits for the table like everyone's
    table.ok(table.call("PATCH", "/settings", table.gm, json={"roll_modes": {"wg.determination": "blind"}}))
    pending = table.ok(table.call("GET", "/pending", table.gm))
    assert {p["actor"]: p["who_rolls"] for p in pending}.get("ari") == "gm"
    assert all(not p["player_may_roll"] for p in pending)
    page = httpx.get(
        f"{server.url}/campaigns/who-rolls", headers={"Cookie": f"{cookie_name('who-rolls')}={table.gm}"}, timeout=30
    ).text
    assert "its player can roll it" not in page
    table.ok(table.call("PATCH", "/settings", table.gm, json={"roll_modes": {"wg.determination": None}}))
    page = httpx.get(
        f"{server.url}/campaigns/who-rolls", headers={"Cookie": f"{cookie_name('who-rolls')}={table.gm}"}, timeout=30
    ).text
    assert page.count("its player can roll it") == 1  # ari's check only, not the NPC's
    assert "npc_automation" in page  # the dashboard's options form sets who rolls for NPCs too
    # The player's own copy carries no GM field.
    [mine] = table.ok(table.call("GET", "/pending", table.ana))
    assert "who_rolls" not in mine and "player_may_roll" not in mine
