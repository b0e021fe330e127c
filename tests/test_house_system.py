"""A fifth system, defined only in the tests, plays in the CLI, the API, the pages and a simulation.

Hearth (``tests/support/house_rules.py``) reaches every front end the way a user's own system
would: through ``RULEKEEPER_SYSTEMS`` (core/plugins.py). No adapter names it, so whatever they
show of it -- a status line, a card, odds, a simulation report -- they asked its ruleset for.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.core.plugins import ENV_VAR
from rulekeeper.core.ruleset import unregister_system
from support.cli_table import Table
from support.house_rules import LOCATION, NAME

TESTS = Path(__file__).resolve().parent
PLUGIN = f"{NAME}={LOCATION}"


@pytest.fixture
def hearth(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Hearth known to this process by the environment variable, and forgotten afterwards."""
    monkeypatch.setenv(ENV_VAR, PLUGIN)
    try:
        yield
    finally:
        unregister_system(NAME)


def _table(tmp_path: Path) -> Table:
    t = Table(tmp_path)
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    t.env = {**t.env, ENV_VAR: PLUGIN, "PYTHONPATH": path}
    return t


def test_a_house_system_plays_at_the_terminal(tmp_path: Path) -> None:
    t = _table(tmp_path)
    t.run("campaign", "new", "hall", "--system", "hearth-rules", "--seed", "3")  # an alias the class declares
    t.run("char", "add", "ash", "--set", "name=Ash", "--set", "grit=6", "--set", "skill=20")
    t.run("char", "add", "bram", "--set", "name=Bram", "--set", "grit=3", "--set", "skill=5")
    assert t.json("campaign", "show")["system"] == NAME
    # A strike left for the dice: the pending check, resolved by dice typed at the table.
    t.run("campaign", "settings", "-a", f"{NAME}=prompt")
    t.json("strike", "ash", "--target", "bram")
    (pending,) = t.json("pending")["pending"]
    assert pending["check"] == "Ash strikes bram: Roll 20 or less on d20" or "strikes bram" in pending["check"]
    t.json("resolve", str(pending["id"]), "--dice", "4,6")  # hit, then 6 Grit on the 1d6
    bram = t.json("char", "show", "bram")["view"]
    assert bram["grit"] == -3 and "down" in bram["conditions"]
    # Its timer: Bram bleeds a Grit a round, and at minus his Grit he is dead.
    t.run("round")
    assert t.json("char", "show", "bram")["view"]["grit"] == -4
    t.run("campaign", "settings", "-a", f"{NAME}=auto")
    status = t.json("status")
    lines = {c["id"]: c["vitals"] for c in status["characters"]}
    assert lines == {"ash": "Grit 6/6  Skill 20", "bram": "Grit -4/3  Skill 5"}
    board = t.run("status").stdout
    assert "Grit -4/3" in board and "down" in board
    # What the rules offer without a campaign: odds and calculators, from the ruleset.
    odds = t.json("check", NAME, "15", "-m", "-2")
    assert odds["probability_exact"] == "13/20" and len(odds["distribution"]) == 20
    t.run("check", NAME, "15", "--pool", "3", code=2)
    bleed = t.json("feat", NAME, "bleed_out", "--grit", "-4", "--max-grit", "3")
    assert bleed["values"] == {"rounds": -1}
    t.run("undo")
    assert t.json("char", "show", "bram")["view"]["grit"] == -4


def test_a_house_system_plays_over_the_api_and_on_the_pages(tmp_path: Path, hearth: None) -> None:
    from rulekeeper.web import create_app
    from rulekeeper.web.auth import cookie_name
    from web.web_support import InProcess, bearer

    api = InProcess(create_app(str(tmp_path / "api.db")))
    try:
        systems = {s["name"]: s for s in api.get("/api/systems").json()}
        assert [c["name"] for c in systems[NAME]["calculators"]] == ["bleed_out"]
        assert {p["name"] for p in systems[NAME]["odds_params"]} == {"target", "modifier"}
        strike = next(a for a in systems[NAME]["actions"] if a["name"] == "strike")
        assert {p["name"]: (p["names_character"], p["overrides_rules"]) for p in strike["params"]} == {
            "target": (True, False),
            "modifier": (False, True),
        }
        r = api.post("/api/campaigns", json={"name": "hall", "system": NAME, "seed": 3})
        assert r.status_code == 201, r.text
        token = r.json()["gm_token"]
        gm = bearer(token)
        for actor, sheet in (("ash", {"name": "Ash", "grit": 6, "skill": 20}), ("bram", {"name": "Bram", "grit": 3})):
            r = api.post("/api/campaigns/hall/characters", headers=gm, json={"actor": actor, "sheet": sheet})
            assert r.status_code == 200, r.text
        r = api.post(
            f"/api/campaigns/hall/{NAME}/actions/damage", headers=gm, json={"actor": "bram", "params": {"amount": 5}}
        )
        assert r.status_code == 200, r.text
        r = api.post("/api/campaigns/hall/round", headers=gm, json={"count": 2})
        assert r.status_code == 200, r.text
        # One command for both rounds; the first bleed takes Bram to minus his Grit: dead.
        assert len(r.json()) == 1
        bram = api.get("/api/campaigns/hall/characters/bram", headers=gm).json()["view"]
        assert bram["grit"] == -3 and "dead" in bram["conditions"]
        odds = api.get(f"/api/check/{NAME}", params={"target": 10}).json()
        assert odds["probability_exact"] == "1/2"
        bad = api.get(f"/api/check/{NAME}", params={"target": 10, "pool": 3})
        assert bad.status_code == 400 and "pool" in bad.text
        page = api.get("/campaigns/hall", headers={"Cookie": f"{cookie_name('hall')}={token}"})
        assert page.status_code == 200, page.text
        assert "Grit" in page.text and "Skill" in page.text
        # The card of the dead (the ruleset's standing) is drawn grave; the living one is not.
        assert page.text.count(" grave") == 1
    finally:
        api.close()


def test_a_house_system_fights_in_a_simulation(hearth: None) -> None:
    from rulekeeper.sim import build_encounter, simulate

    encounter = build_encounter(
        {
            "format": 1,
            "system": NAME,
            "title": "Ash against Bram",
            "characters": {"ash": {"grit": 6, "skill": 15}, "bram": {"grit": 6, "skill": 8}},
            "sides": {
                "left": {"ash": {"character": "ash", "name": "Ash"}},
                "right": {"bram": {"character": "bram", "name": "Bram"}},
            },
            "tactics": {"left": {"damage": "1d6", "hit": {"score": 15}}, "right": {"damage": "1d6"}},
            "stop": {"until": "side-out", "rounds": 40},
        }
    )
    result = simulate(encounter, runs=200, seed=5, workers=0)
    data = result.to_json()
    assert json.dumps(data)  # a report any front end can print
    assert result.runs == 200 and 0.0 < result.win_probability("left") < 1.0
    # Bram always hits (no roll to hit), Ash only on 15 or less: a fight with two outcomes.
    assert result.win_probability("left") + result.win_probability("right") <= 1.0
    assert result.tally.status_of(1, "unconscious").value + result.tally.status_of(1, "dead").value > 0
    assert "Grit" in json.dumps(data)


def test_an_unreadable_plugin_setting_is_refused_in_our_words(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekeeper.core import get_ruleset
    from rulekeeper.errors import InputError

    monkeypatch.setenv(ENV_VAR, "hearth=no colon here")
    with pytest.raises(InputError, match=ENV_VAR):
        get_ruleset("no-such-system")
