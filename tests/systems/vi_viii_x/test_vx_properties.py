"""Hypothesis properties: recovery never passes an original value, floors come with their states,
and a replay with the same dice rebuilds the same state."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core import GameState
from rulekeeper.core.serial import state_to_json
from rulekeeper.dice.source import RecordingSource, ScriptedSource, SeededSource
from rulekeeper.systems.vi_viii_x import Character
from rulekeeper.systems.vi_viii_x.damage import take_damage
from rulekeeper.systems.vi_viii_x.recovery import restore

from .helpers import RULESET
from .strategies import histories, play_history, sheets, step
from .test_vx_visibility import _table

HISTORY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_bounds(state: GameState[Character]) -> None:
    for actor, c in state.characters.items():
        for name, ks in c.ks.items():
            assert ks.current <= ks.original, (actor, name)
            # A KS at 0 or below always has its state and countdown on record.
            assert ks.current > 0 or name in c.fatalities, (actor, name)
        for name, us in c.us.items():
            assert 0 <= us.current <= us.original, (actor, name)


@HISTORY
@given(a=sheets(), b=sheets(), ops=histories, seed=st.integers(0, 10_000), prompt=st.booleans())
def test_recovery_never_lifts_a_stat_above_its_original(
    a: dict[str, Any], b: dict[str, Any], ops: list[tuple[str, str, dict[str, Any]]], seed: int, prompt: bool
) -> None:
    for state in play_history(_table(a, b, prompt), ops, seed):
        _check_bounds(state)


@settings(max_examples=200, deadline=None)
@given(sheet=sheets(), damage=st.integers(0, 30), points=st.integers(0, 40))
def test_restore_fills_ks_first_and_stops_at_originals(sheet: dict[str, Any], damage: int, points: int) -> None:
    character = RULESET.new_character(sheet)
    us = character.us_of("BU")
    hurt, _ = take_damage(character, "BU", us[0] if us else None, damage)
    healed, changes = restore(hurt, points)
    assert sum(c.after - c.before for c in changes) <= points
    for stat in (*healed.ks, *healed.us):
        assert hurt.current(stat) <= healed.current(stat) <= healed.original(stat)
    # No US gains a point while any KS is still below its original value.
    if any(c.secret for c in changes):
        assert all(s.current == s.original for s in healed.ks.values())


@HISTORY
@given(a=sheets(), b=sheets(), ops=histories, seed=st.integers(0, 10_000), prompt=st.booleans())
def test_replay_with_the_same_dice_gives_the_same_state(
    a: dict[str, Any], b: dict[str, Any], ops: list[tuple[str, str, dict[str, Any]]], seed: int, prompt: bool
) -> None:
    start = _table(a, b, prompt)
    first = play_history(start, ops, seed)[-1]
    again = play_history(start, ops, seed)[-1]
    assert state_to_json(RULESET, first) == state_to_json(RULESET, again)

    # Record the dice actually rolled, then replay them as a table would have typed them in.
    recorded: list[tuple[int, ...]] = []
    state = start
    for i, op in enumerate(ops):
        source = RecordingSource(SeededSource(f"{seed}:{i}"))
        state = step(state, op, source)
        recorded.append(source.values)
    assert state == first
    replayed = start
    for op, values in zip(ops, recorded, strict=True):
        scripted = ScriptedSource(values)
        replayed = step(replayed, op, scripted)
        assert not scripted.remaining
    assert state_to_json(RULESET, replayed) == state_to_json(RULESET, first)
