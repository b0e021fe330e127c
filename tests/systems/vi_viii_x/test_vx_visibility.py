"""The player projection holds no unknown-stat value and nothing computed from one.

Three kinds of test: the seed's ranger by hand; the projection types themselves (a new field
must be added here on purpose); and Hypothesis over generated sheets and histories, searching
the serialised projection for the unknown stats' names and values and checking it does not
move when only the GM's secrets do.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core import AutomationLevel, GameState, Settings, add_character
from rulekeeper.core.arc import ArcOpposed, ArcThreshold
from rulekeeper.core.state import AnyCheck
from rulekeeper.systems.vi_viii_x import Character, PlayerCharacterView
from rulekeeper.systems.vi_viii_x.visibility import PublicSheet

from .helpers import ADEPT, RANGER, RULESET, Table
from .strategies import histories, play_history, sheets


def players_table(state: GameState[Character]) -> dict[str, Any]:
    """Everything the players are given of the table, through the ruleset's real projections
    (the ones every front end asks: ``player_view`` and ``player_pending``); players get no timers."""
    return {
        "clock": state.clock,
        "characters": {actor: RULESET.player_view(state, actor) for actor in state.characters},
        "pending": [
            RULESET.player_pending(state, p) for p in state.pending if not RULESET.is_secret(p, state.settings)
        ],
    }


def _numbers(value: Any) -> set[float]:
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_numbers(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_numbers(v) for v in value)) if value else set()
    return set()


def test_the_ranger_shows_bu_and_never_vig() -> None:
    table = Table({"ranger": {**RANGER, "EM": 7}})
    gm = table.view("ranger")
    assert gm["vig"] == 3 and gm["bu"] == 6
    player = RULESET.player_view(table.state, "ranger")
    assert player["bu"] == 6 and player["bu_original"] == 6
    text = json.dumps(player)
    assert "vig" not in text.lower()
    assert 3 not in _numbers(player)  # no other public value of this sheet is 3


def test_projection_types_hold_only_public_fields() -> None:
    assert {f.name for f in fields(PlayerCharacterView)} == {"actor", "sheet", "numbers", "conditions"}
    assert {f.name for f in fields(PublicSheet)} == {
        "name",
        "known_stats",
        "skills",
        "literacy",
        "som",
        "burden",
        "agility",
        "age",
        "mov",
        "actions",
        "regimen",
        "fatigue",
        "days_without_food",
        "days_without_water",
        "ailments",
        "permanent_states",
        "known_stats_lowered",
    }


def test_pending_checks_show_dice_and_threshold_never_stats_or_odds() -> None:
    table = Table({"adept": ADEPT}, automation={"*": "prompt"})
    table.act("climb", "adept", threshold="easy")  # Stamina: BU 6 + VIG 3 = 9
    gm_pending = table.state.pending[0]
    assert gm_pending.check.describe().startswith("adept: climb, ARCT on stamina")
    assert "9" in gm_pending.check.describe()
    view = players_table(table.state)
    (pending,) = view["pending"]
    pending = {k: v for k, v in pending.items() if k != "stakes"}  # what the roll is for: stakes tests
    assert pending == {
        "id": gm_pending.id,
        "actor": "adept",
        "purpose": "climb",
        "label": "adept: climb, ARCT on stamina against easy (6)",
        "dice": ["d14"],
        "threshold": 6,
    }


def test_countdown_length_and_magical_aging_stay_with_the_gm() -> None:
    table = Table({"ranger": RANGER})
    table.act("damage", "ranger", amount=10)
    table.turns(1)
    table.act("heal", "ranger", amount=1)  # BU 0: still dead, aged a week
    gm = table.view("ranger")
    assert gm["fatalities"]["BU"]["turns"] == 9 and gm["magic_weeks"] == 1
    view = players_table(table.state)
    player = view["characters"]["ranger"]
    assert "death" in player["conditions"]
    assert "magic_weeks" not in player and "fatalities" not in player
    assert any("permanent" in t.label for t in table.state.timers)


def test_a_wound_to_a_us_alone_is_not_shown_as_injured() -> None:
    table = Table({"ranger": RANGER})
    out = table.act("damage", "ranger", amount=2)
    assert table.has("ranger", "injured")
    assert "injured" not in RULESET.player_view(table.state, "ranger")["conditions"]
    lines = RULESET.player_lines(out.explanation)
    assert lines == ["ranger takes physical damage"]  # no amount: beside the KS it says what the US took
    out = table.act("damage", "ranger", amount=2)
    assert "injured" in RULESET.player_view(table.state, "ranger")["conditions"]
    assert RULESET.player_lines(out.explanation) == ["ranger takes physical damage: BU 6 → 5"]
    assert "VIG" in out.render()


def test_agility_can_be_secret() -> None:
    table = Table({"adept": ADEPT}, options={"agility_secret": True})
    player = RULESET.player_view(table.state, "adept")
    assert player["agility"] is None and player["jump_running"] is None
    assert RULESET.view(table.state, "adept")["jump_running"] == 5.0


# -- properties ---------------------------------------------------------------------------
def _perturb_check(check: AnyCheck) -> AnyCheck:
    if isinstance(check, ArcThreshold):
        return replace(check, stats=check.stats + 13)
    if isinstance(check, ArcOpposed):
        return replace(check, stats=check.stats + 13, opponent_stats=check.opponent_stats + 21)
    return check


def perturb_secrets(state: GameState[Character]) -> GameState[Character]:
    """The same table with every GM-only number changed: US values, countdowns, aging, stats in checks, timers."""
    characters = {
        actor: replace(
            c,
            us={n: replace(u, original=u.original + 11, current=u.current + 17) for n, u in c.us.items()},
            fatalities={
                k: replace(f, turns=f.turns + 5, permanent_at=f.permanent_at + 1234) for k, f in c.fatalities.items()
            },
            magic_weeks=c.magic_weeks + 7,
        )
        for actor, c in state.characters.items()
    }
    return replace(
        state,
        characters=characters,
        pending=tuple(replace(p, check=_perturb_check(p.check), data={**p.data, "x": 99}) for p in state.pending),
        # Players are given no timers at all, so every timer may change.
        timers=tuple(replace(t, due=t.due + 999, label="secret") for t in state.timers),
    )


def _table(sheet_a: dict[str, Any], sheet_b: dict[str, Any], prompt: bool) -> GameState[Character]:
    level = AutomationLevel.PROMPT if prompt else AutomationLevel.AUTO
    state: GameState[Character] = RULESET.new_state(Settings(automation={"*": level}))
    state = add_character(RULESET, state, "a", sheet_a)
    return add_character(RULESET, state, "b", sheet_b)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet=sheets(ks_values=(1, 4), us_values=(7, 10)))
def test_generated_sheets_show_no_us_value(sheet: dict[str, Any]) -> None:
    """KS 1-4 and US 7-10: no public number of a fresh sheet can be 7 or more, so any is a leak."""
    sheet = {**sheet, "som": 3, "agility": None}
    for entry in sheet["es"].values():
        entry["level"] = 1
    state = _table(sheet, sheet, prompt=False)
    view = players_table(state)
    secret_values = {u["value"] for u in sheet["us"].values()} | {u.get("current", 0) for u in sheet["us"].values()}
    secret_values -= {0}
    assert not (_numbers(view) & secret_values), json.dumps(view)
    text = json.dumps(view)
    for name in sheet["us"]:
        assert name not in text and name.lower() not in text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=sheets(), b=sheets(), ops=histories, seed=st.integers(0, 10_000), prompt=st.booleans())
def test_histories_never_show_a_us(
    a: dict[str, Any], b: dict[str, Any], ops: list[tuple[str, str, dict[str, Any]]], seed: int, prompt: bool
) -> None:
    for state in play_history(_table(a, b, prompt), ops, seed):
        view = players_table(state)
        text = json.dumps(view)
        for name in {*a["us"], *b["us"]}:
            assert name not in text and name.lower() not in text
        assert players_table(perturb_secrets(state)) == view
        for actor in state.characters:
            assert RULESET.player_view(state, actor) == view["characters"][actor]
