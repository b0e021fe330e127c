"""Each engine call of a simulated fight: the quiet path (``explain=False``) and the explained one
take the same dice, in the same order, and leave the same state, result, events and checks.

The fight is played on the quiet path; every ``apply_action`` and ``next_round`` it makes is
replayed on the explained path with exactly the dice the quiet call took, so a difference in
what either path rolls (one die more, or fewer, or on another die) fails here, not only a
difference in who won.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from rulekeeper.core.play import Outcome
from rulekeeper.dice.source import DiceSource, RecordingSource, ScriptedSource, SeededSource
from rulekeeper.sim import bundled, bundled_names, fight, load_document

# The package exports the function ``fight`` under the module's name.
fight_module = importlib.import_module("rulekeeper.sim.fight")


def _same(a: Outcome[Any], b: Outcome[Any]) -> None:
    assert a.state == b.state
    assert a.result == b.result
    assert a.events == b.events
    assert a.pending == b.pending
    assert a.checks == b.checks


def _twice(call: Callable[..., Outcome[Any]], calls: list[int]) -> Callable[..., Outcome[Any]]:
    def both(*args: Any, explain: bool = True) -> Outcome[Any]:
        *head, dice = args
        assert explain is False  # the simulation takes the quiet path
        quiet_dice = RecordingSource(dice)
        quiet = call(*head, quiet_dice, explain=False)
        loud_dice = RecordingSource(ScriptedSource(quiet_dice.values))
        loud = call(*head, loud_dice, explain=True)
        assert loud_dice.record == quiet_dice.record  # the same dice, on the same dice sides, in order
        _same(quiet, loud)
        assert not quiet.explanation
        calls[0] += 1
        return quiet

    return both


def _patched(monkeypatch: pytest.MonkeyPatch, calls: list[int]) -> None:
    monkeypatch.setattr(fight_module, "apply_action", _twice(fight_module.apply_action, calls))
    monkeypatch.setattr(fight_module, "next_round", _twice(fight_module.next_round, calls))


@pytest.mark.parametrize("name", bundled_names())
def test_every_engine_call_of_a_fight_is_the_same_on_both_paths(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    enc = load_document(bundled(name))
    calls = [0]
    _patched(monkeypatch, calls)
    dice: DiceSource = SeededSource(23)
    results = [fight(enc, dice) for _ in range(15)]
    assert calls[0] > 15 * 2 and results

