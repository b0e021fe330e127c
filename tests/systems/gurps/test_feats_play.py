"""Feats played through the engine: prompt/note automation, long chains of timed rolls, state round-trips."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.core import Action, AutomationLevel, GameState, Settings, get_ruleset
from rulekeeper.core.engine import add_character, advance, apply_action, resolve_check
from rulekeeper.core.play import Outcome
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.dice import ScriptedSource, SeededSource
from rulekeeper.dice.source import DiceSource
from rulekeeper.errors import InputError, RuleRefusal

RULESET = get_ruleset("gurps")


def _state(automation: Mapping[str, str] | None = None, **sheets: Mapping[str, Any]) -> GameState[Any]:
    levels = {k: AutomationLevel(v) for k, v in (automation or {}).items()}
    state: GameState[Any] = RULESET.new_state(Settings(automation=levels))
    for actor, sheet in sheets.items():
        state = add_character(RULESET, state, actor, sheet)
    return state


def _act(state: GameState[Any], name: str, actor: str, dice: Sequence[int] = (), **params: Any) -> Outcome[Any]:
    source = ScriptedSource(dice)
    outcome = apply_action(RULESET, state, Action(name, actor, params), source)
    assert not source.remaining, "every scripted die should be used"
    return outcome


def _advance(state: GameState[Any], seconds: int, dice: Sequence[int] | DiceSource = ()) -> Outcome[Any]:
    source = ScriptedSource(dice) if isinstance(dice, Sequence) else dice
    return advance(RULESET, state, seconds, source)


def _names(state: GameState[Any], actor: str) -> set[str]:
    return {c.name for c in state.conditions_of(actor)}


CLIMBER = {"name": "Climber", "dx": 12, "ht": 12, "skills": {"climbing": 12}}
SWIMMER = {"name": "Swimmer", "ht": 10, "fp": 2, "skills": {"swimming": 8}}


def test_prompted_climbing_roll_waits_and_resolves_with_typed_dice() -> None:
    state = _state({"gurps.climbing": "prompt"}, c=CLIMBER)
    out = _act(state, "climb", "c", climb="wall", distance=40)
    assert len(out.state.pending) == 1
    assert out.state.pending[0].purpose == "feat.climb"
    assert "climbing" not in _names(out.state, "c")
    done = resolve_check(RULESET, out.state, out.state.pending[0].id, ScriptedSource([]), typed=[2, 2, 2])
    assert "climbing" in _names(done.state, "c")
    assert [t.kind for t in done.state.timers_of("c")] == ["gurps.feat.climb"]


def test_noted_climbing_rolls_keep_the_climb_going_without_consequences() -> None:
    state = _state({"gurps.climbing": "note"}, c=CLIMBER)
    out = _act(state, "climb", "c", climb="wall", distance=40)
    assert not out.state.pending
    # the table applies the start roll by hand; the five-minute roll is still scheduled
    assert [t.kind for t in out.state.timers_of("c")] == ["gurps.feat.climb"]
    assert "climbing" in _names(out.state, "c")
    later = _advance(out.state, 600)
    assert "noted, not rolled" in later.render()  # the five-minute roll
    assert later.result["finished"] is True
    assert not later.state.timers_of("c", "gurps.feat.climb")


def test_every_swimming_roll_can_be_prompted() -> None:
    state = _state({"gurps": "prompt"}, s=SWIMMER)
    out = _act(state, "swim", "s")
    assert len(out.state.pending) == 1
    failed = resolve_check(RULESET, out.state, out.state.pending[0].id, ScriptedSource([]), typed=[6, 6, 4])
    assert failed.state.characters["s"].current_fp == 1
    due = _advance(failed.state, 5)
    assert len(due.state.pending) == 1 and due.state.pending[0].purpose == "feat.swim"


def test_swimming_until_drowned() -> None:
    # HT 10 with 10 HP: failures every 5 s take FP, then HP; death by -5 x HP at the latest
    state = _state(s={"name": "Swimmer", "ht": 10, "fp": 2, "skills": {"swimming": 3}})
    out = _act(state, "swim", "s", dice=[6, 6, 6])
    after = _advance(out.state, 30 * 60, SeededSource(4))
    char = after.state.characters["s"]
    assert char.dead
    assert char.current_fp >= -char.fp
    assert not after.state.timers_of("s")
    assert "swimming" not in _names(after.state, "s")


def test_unconscious_swimmer_fails_without_a_roll() -> None:
    state = _state(s={"name": "Swimmer", "ht": 10, "fp": 1, "skills": {"swimming": 8}})
    out = _act(state, "swim", "s", dice=[6, 6, 6])  # FP 0
    out = _advance(out.state, 5, [6, 6, 6])  # FP -1 = -FP: unconscious
    assert "unconscious" in _names(out.state, "s")
    hp = out.state.characters["s"].current_hp
    nxt = _advance(out.state, 5)  # no dice: the roll is an automatic failure
    assert nxt.state.characters["s"].current_hp == hp - 1
    assert nxt.state.characters["s"].current_fp == -1


def test_carrying_stops_costing_fp_once_unconscious() -> None:
    state = _state(p={"name": "Porter", "st": 10, "ht": 10, "fp": 2})
    out = _act(state, "carry", "p", weight=250)
    later = _advance(out.state, 60, SeededSource(1))
    char = later.state.characters["p"]
    assert "unconscious" in _names(later.state, "p")
    assert char.current_fp == -2
    assert "overloaded" not in _names(later.state, "p")
    assert not later.state.timers_of("p", "gurps.feat.carry")


def test_running_needs_a_character_who_can_move() -> None:
    state = _state(r={"name": "R", "st": 10, "carried": 250})  # over 10 x BL: Move 0
    with pytest.raises(RuleRefusal, match="cannot move"):
        _act(state, "run", "r")


def test_stop_feat_refuses_a_feat_not_under_way() -> None:
    state = _state(c=CLIMBER)
    with pytest.raises(RuleRefusal, match="not climbing"):
        _act(state, "stop_feat", "c", feat="climbing")


def test_swim_without_swimming_skill_needs_a_level() -> None:
    state = _state(s={"name": "Landlubber"})
    with pytest.raises(InputError, match="skill_level"):
        _act(state, "swim", "s")
    ok = _act(state, "swim", "s", dice=[1, 1, 1], skill_level=6)
    assert "swimming" in _names(ok.state, "s")


def test_influence_needs_a_subject() -> None:
    state = _state(t={"name": "T", "skills": {"diplomacy": 12}})
    with pytest.raises(InputError, match="subject"):
        _act(state, "influence", "t", skill="diplomacy")


def test_fright_on_an_unconscious_character_adds_nothing() -> None:
    state = _state(a={"name": "A"})
    fainted = _act(state, "fright_check", "a", dice=[6, 6, 6, 1])
    assert "unconscious" in _names(fainted.state, "a")
    again = _act(fainted.state, "fright_check", "a", dice=[6, 5, 2])
    assert not {"stunned", "stunned by fear"} & _names(again.state, "a")


def test_states_mid_feat_round_trip_through_json() -> None:
    state = _state({"gurps.swimming": "prompt"}, c=CLIMBER, s=SWIMMER)
    state = _act(state, "climb", "c", dice=[2, 2, 2], climb="wall", distance=40, roped=True).state
    state = _act(state, "swim", "s").state
    state = _act(state, "run", "c", pace="paced").state
    data = state_to_json(RULESET, state)
    assert state_from_json(RULESET, data) == state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), minutes=st.integers(1, 40))
def test_swimming_never_takes_fp_below_minus_fp_and_replays_exactly(seed: int, minutes: int) -> None:
    state = _state(s={"name": "Swimmer", "ht": 10, "fp": 3, "skills": {"swimming": 9}})
    start = _act(state, "swim", "s", dice=[6, 6, 5]).state
    first = _advance(start, minutes * 60, SeededSource(seed)).state
    second = _advance(start, minutes * 60, SeededSource(seed)).state
    assert first == second
    char = first.characters["s"]
    assert char.current_fp >= -char.fp
    assert char.dead or char.current_hp > -5 * char.hp
