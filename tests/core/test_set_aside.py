"""A consequence that fails when it falls due is set aside, not a wall in front of the clock
(issue 26, item 4): what it began is rolled back, the reason is kept for the GM, time goes on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from tests.support.table import new_game

from rulekeeper.core import Action, GameState, advance, apply_action, get_ruleset
from rulekeeper.core.engine import SET_ASIDE, set_aside
from rulekeeper.core.frozen import evolve
from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import InputError

RULES = get_ruleset("vi-viii-x")
RANGER = {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}}


def _effort_with(skill: str) -> GameState[Any]:
    """A state in which the ranger keeps up an effort whose next ARCT reads ``skill``, as a history
    recorded before the skill was checked on submission would hold it."""
    state = new_game(RULES, {"ranger": RANGER})
    state = apply_action(RULES, state, Action("exert", "ranger", {}), SeededSource("x")).state
    (timer,) = state.timers
    return evolve(state, timers=(replace(timer, data={**timer.data, "skill": skill}),))


def test_exert_refuses_a_skill_that_is_not_on_the_sheet_when_it_is_given() -> None:
    state = new_game(RULES, {"ranger": RANGER})
    with pytest.raises(InputError, match="nonsense"):
        apply_action(RULES, state, Action("exert", "ranger", {"skill": "nonsense"}), SeededSource("x"))


def test_a_failing_timer_is_set_aside_with_its_reason_and_the_clock_moves_on() -> None:
    state = _effort_with("nonsense")
    effort_before = state.characters["ranger"].effort
    outcome = advance(RULES, state, 60, SeededSource("y"))
    assert outcome.state.clock == state.clock + 60
    (aside,) = set_aside(outcome.state)
    assert "nonsense" in aside.data[SET_ASIDE]
    # What the failing consequence began (the effort's threshold rising) is rolled back.
    assert outcome.state.characters["ranger"].effort == effort_before
    note = [s for s in outcome.explanation if "set aside" in s.text]
    assert note and RULES.player_text(note[0]) is None  # the GM's note, not the player's
    # Set aside, it does not fire again: the next advance passes it by.
    again = advance(RULES, outcome.state, 60, SeededSource("z"))
    assert set_aside(again.state) == (aside,)
    assert not any("set aside" in s.text for s in again.explanation)
