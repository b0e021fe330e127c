"""Review findings on the prompt flow (issue #13): stakes for a player's own pending list, typed
totals, floored totals."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.support.table import new_game

from rulekeeper.core import Action, AutomationLevel, apply_action, get_ruleset
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.stakes import describe_pending, pending_entry
from rulekeeper.dice.source import ScriptedSource


def test_a_floored_roll_reports_the_floored_total_in_both_styles() -> None:
    for style in ("tree", "sum"):
        roll = DiceRoll(kind="damage", label="cut", notation="1d6-3", floor=0, style=style)
        result = roll.resolve(ScriptedSource([1]))
        assert result.total == 0
        assert result.text == "cut: 0"
        assert "-2" not in result.text


def _gurps_damage_pending() -> tuple[Any, Any]:
    ruleset = get_ruleset("gurps")
    state = new_game(ruleset, {"knight": {"st": 12, "ht": 11}})
    state = state.with_settings(replace(state.settings, automation={"*": AutomationLevel.PROMPT}))
    out = apply_action(ruleset, state, Action("damage", "knight", {"dice": "3d-2"}), ScriptedSource([]))
    [pending] = [p for p in out.state.pending if p.check.type == "dice-roll"]
    return ruleset, (out.state, pending)


def test_a_players_own_pending_roll_carries_its_stakes_and_no_success_odds_for_a_plain_roll() -> None:
    ruleset, (state, pending) = _gurps_damage_pending()
    mine = ruleset.player_pending(state, pending)
    assert mine["probability"] is None  # a damage roll cannot fail: no "100.00% to succeed"
    assert mine["stakes"]["for"] and mine["stakes"]["for"] != pending.purpose
    assert mine["stakes"] == describe_pending(pending)
    assert mine == pending_entry(pending)  # one builder for the player's list and the GM's


def test_gurps_stakes_never_show_an_unfilled_template() -> None:
    from rulekeeper.systems.gurps.stakes import gurps_stakes

    stakes = gurps_stakes("attack", "knight", {})  # asked without a target
    assert stakes is not None
    assert "{" not in stakes.purpose + stakes.on_success + stakes.on_failure
    assert stakes.purpose == "knight's attack roll on the target"


def test_every_vi_viii_x_check_purpose_has_stakes_that_name_no_stat() -> None:

    from rulekeeper.systems.vi_viii_x.injury_actions import POTION_PURPOSE, RECOVERY_PURPOSE
    from rulekeeper.systems.vi_viii_x.stakes import STAKES, vi_stakes

    # Every purpose the sections handle has stakes (the dice rolls of a potion or of recovery
    # carry their own, given when asked).
    handled = set(get_ruleset("6810").tables.checks) - {POTION_PURPOSE, RECOVERY_PURPOSE}
    assert handled == set(STAKES)
    data = {"what": "ranger's ARC on BU+VIG", "stats_label": "BU+VIG", "task": "reading", "threshold": 6}
    for purpose in STAKES:
        stakes = vi_stakes(purpose, "ranger", data)
        assert stakes is not None and stakes.purpose != purpose
        words = stakes.purpose + stakes.on_success + stakes.on_failure
        assert "VIG" not in words and "BU" not in words and "{" not in words


def test_a_vi_viii_x_players_pending_check_says_what_it_is_for_and_no_secret() -> None:
    import json

    ruleset = get_ruleset("6810")
    stats = {"BU": 4, "CO": 5, "IN": 4, "EM": 5}
    state = new_game(ruleset, {"ranger": {**stats, "us": {"VIG": {"ks": "BU", "value": 9}}}})
    state = state.with_settings(replace(state.settings, automation={"*": AutomationLevel.PROMPT}))
    params = {"ks": "bu", "us": "VIG", "threshold": "easy"}
    out = apply_action(ruleset, state, Action("arc", "ranger", params), ScriptedSource([]))
    (pending,) = out.state.pending
    mine = ruleset.player_pending(out.state, pending)
    assert mine["stakes"]["for"] == "ranger's action resolution check"
    assert mine["stakes"]["on_success"] == "the action succeeds"
    text = json.dumps(mine)
    assert "VIG" not in text and "probability" not in text and "odds" not in text


def test_determination_leads_with_the_wounds_it_saves_in_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from rulekeeper.cli import render
    from rulekeeper.core.stakes import pending_entry as entry

    ruleset = get_ruleset("wg")
    state = new_game(ruleset, {"ari": {"tier": 1, "toughness": 3, "willpower": 3}})
    state = state.with_settings(replace(state.settings, automation={"*": AutomationLevel.PROMPT}))
    out = apply_action(ruleset, state, Action("damage", "ari", {"amount": 6}), ScriptedSource([]))
    (determination,) = out.state.pending
    assert entry(determination)["stakes"]["odds"] is None
    render.print_pending([determination])
    text = " ".join(capsys.readouterr().out.split())
    assert "to succeed" not in text
    assert "— Wounds turned into Shock: 0:" in text
