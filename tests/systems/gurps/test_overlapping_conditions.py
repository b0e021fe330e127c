"""Two reasons for one state at once, each ending its own way (roll_rules 8).

Seed 004, "Fright Checks": a failed check stuns for a set time (margin of failure + 2d seconds).
"Stunning": a physical stun ends on an HT roll at the end of a turn. So a character stunned
both ways stays stunned until the fear's time is up, whatever the HT roll shows, and the roll
stays HT. "Recovering from Unconsciousness": at 0 HP or below an unconscious character wakes
only on an hourly HT roll (a single roll after 12 hours at -HP or below), so one who was out for
another reason (a faint, fatigue) and is hurt to 0 HP or below does not wake when that reason
ends. Campaigns from before revision 8 replay as they were played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from rulekeeper.core import Action, AutomationLevel, GameState, Settings, get_ruleset
from rulekeeper.core.clock import HOUR, MINUTE
from rulekeeper.core.engine import add_character, advance, apply_action, resolve_check
from rulekeeper.core.frozen import evolve
from rulekeeper.core.play import Outcome
from rulekeeper.core.state import ROLL_RULES
from rulekeeper.dice import ScriptedSource

RULESET = get_ruleset("gurps")
BOB = {"name": "Bob", "st": 10, "dx": 10, "iq": 10, "ht": 10}
FAILS_BY_2 = [4, 4, 4]  # 12 against 10
SUCCEEDS = [1, 2, 2]


def _state(roll_rules: int = ROLL_RULES) -> GameState[Any]:
    state: GameState[Any] = RULESET.new_state(Settings())
    state = evolve(state, settings=evolve(state.settings, roll_rules=roll_rules))
    return add_character(RULESET, state, "bob", BOB)


def _act(state: GameState[Any], name: str, dice: Sequence[int] = (), **params: Any) -> GameState[Any]:
    source = ScriptedSource(dice)
    outcome: Outcome[Any] = apply_action(RULESET, state, Action(name, "bob", params), source)
    assert not source.remaining, "every scripted die should be used"
    return outcome.state


def _advance(state: GameState[Any], seconds: int, dice: Sequence[int] = ()) -> Outcome[Any]:
    source = ScriptedSource(dice)
    outcome = advance(RULESET, state, seconds, source)
    assert not source.remaining, "every scripted die should be used"
    return outcome


def _names(state: GameState[Any]) -> set[str]:
    return {c.name for c in state.conditions_of("bob")}


def _asked(outcome: Outcome[Any]) -> list[str]:
    return [step.text for step in outcome.explanation if "to recover from stun" in step.text]


def _fright_stun_16s(state: GameState[Any]) -> GameState[Any]:
    return _act(state, "fright_check", [4, 5, 5, 6, 6])  # 14 against Will 10: 4 + 12 seconds


def test_a_physical_stun_then_fear_stays_an_ht_roll_and_lasts_the_fears_time() -> None:
    state = _act(_state(), "damage", FAILS_BY_2, injury=6)  # a major wound, HT failed by 2
    assert _names(state) >= {"stunned"}
    state = _fright_stun_16s(state)
    assert _names(state) >= {"stunned", "stunned by fear"}
    out = _advance(state, 1, SUCCEEDS)
    assert any("HT to recover" in text for text in _asked(out)), _asked(out)
    assert "stunned" not in _names(out.state) and "stunned by fear" in _names(out.state)
    assert "stunned by fear" in _names(_advance(out.state, 14).state)  # 15 s on the clock
    assert "stunned by fear" not in _names(_advance(out.state, 15).state)  # 16 s: its time is up


def test_fear_then_a_physical_stun_keeps_the_fears_time() -> None:
    state = _fright_stun_16s(_state())
    state = _act(state, "damage", FAILS_BY_2, injury=6)
    assert _names(state) >= {"stunned", "stunned by fear"}
    out = _advance(state, 1, SUCCEEDS)  # the HT roll ends the physical stun only
    assert "stunned" not in _names(out.state) and "stunned by fear" in _names(out.state)
    later = _advance(out.state, 14).state  # 15 s on the clock
    assert "stunned by fear" in _names(later)
    assert "stunned by fear" not in _names(_advance(later, 1).state)  # 16 s: its time is up


def test_a_stun_by_fear_defends_at_minus_4_and_must_do_nothing() -> None:
    from rulekeeper.errors import RuleRefusal

    state = _fright_stun_16s(_state())
    with pytest.raises(RuleRefusal, match="stunned"):
        _act(state, "maneuver", choice="attack")


def test_before_revision_8_one_stun_replaced_the_other() -> None:
    state = _act(_state(7), "damage", FAILS_BY_2, injury=6)
    state = _fright_stun_16s(state)
    assert "stunned by fear" not in _names(state)
    out = _advance(state, 1, SUCCEEDS)
    assert any("IQ to recover" in text for text in _asked(out)), _asked(out)  # as it was played
    assert "stunned" not in _names(out.state)


def test_a_faint_then_injury_to_below_zero_wakes_by_the_hourly_roll() -> None:
    state = _act(_state(), "fright_check", [6, 6, 6, 1])  # critical failure: faint 8 + 1 minutes
    assert "unconscious" in _names(state)
    state = _act(state, "damage", injury=13)  # 10 -> -3 HP while out
    cond = state.condition("bob", "unconscious")
    assert cond is not None and "injury" in cond.data["causes"]
    assert [t.data.get("band") for t in state.timers_of("bob", "gurps.wake")] == ["hourly"]
    out = _advance(state, 10 * MINUTE)  # the faint's minutes are over
    assert "unconscious" in _names(out.state)
    woke = _advance(out.state, HOUR - 10 * MINUTE, SUCCEEDS)  # the hourly HT roll
    assert "unconscious" not in _names(woke.state)


def test_a_faint_then_injury_to_minus_hp_waits_for_the_12_hour_roll() -> None:
    state = _act(_state(), "fright_check", [6, 6, 6, 1])
    state = _act(state, "damage", SUCCEEDS, injury=21)  # -11 HP: a death check at -1 x HP, made
    assert [t.data.get("band") for t in state.timers_of("bob", "gurps.wake")] == ["12 hours"]
    assert "unconscious" in _names(_advance(state, 11 * HOUR).state)


def test_fatigue_that_costs_hp_below_zero_leaves_the_injury_to_wake_from() -> None:
    state = _act(_state(), "lose_fp", amount=22)  # FP -10 (-FP: out), and 12 HP: -2 HP
    char = state.characters["bob"]
    assert (char.current_fp, char.current_hp) == (-10, -2)
    cond = state.condition("bob", "unconscious")
    assert cond is not None and set(cond.data["causes"]) == {"fatigue", "injury"}
    out = _advance(state, 2 * HOUR, [6, 6, 5, 6, 6, 5])  # FP back above 0; both hourly rolls fail
    assert out.state.characters["bob"].current_fp > 0
    assert "unconscious" in _names(out.state)


def test_before_revision_8_the_faint_ending_woke_them_at_any_hp() -> None:
    state = _act(_state(7), "fright_check", [6, 6, 6, 1])
    state = _act(state, "damage", injury=13)
    assert "unconscious" not in _names(_advance(state, 10 * MINUTE).state)


def test_a_faint_whose_dice_come_after_an_injury_knocked_them_out_changes_nothing() -> None:
    """On prompt, the faint's 1d waits for the table; an injury to -3 HP meanwhile knocks the
    character out. The typed 1d must not replace that unconsciousness with one that ends by itself."""
    state: GameState[Any] = RULESET.new_state(Settings(automation={"gurps.fright.faint": AutomationLevel.PROMPT}))
    state = add_character(RULESET, state, "bob", BOB)
    state = _act(state, "fright_check", [6, 6, 6])  # a critical failure: the faint's 1d is the table's
    (faint,) = state.pending
    state = _act(state, "damage", [6, 6, 6], injury=13)  # -3 HP; the consciousness roll fails
    assert "injury" in state.condition("bob", "unconscious").data["causes"]  # type: ignore[union-attr]
    state = resolve_check(RULESET, state, faint.id, ScriptedSource([]), typed=[1]).state
    cond = state.condition("bob", "unconscious")
    assert cond is not None and "injury" in cond.data["causes"] and cond.until is None
    assert "unconscious" in _names(_advance(state, 30 * MINUTE).state)


def test_a_stun_by_fear_defends_at_minus_4() -> None:
    orc = {"dx": 11, "skills": {"brawling": 12}, "weapons": [{"name": "fist", "skill": "brawling", "damage": "thr-1"}]}
    state = add_character(RULESET, _fright_stun_16s(_state()), "orc", orc)
    out = apply_action(
        RULESET,
        state,
        Action("attack", "orc", {"target": "bob", "defense": "dodge"}),
        ScriptedSource([3, 3, 4, 2, 2, 1, 1]),
    )
    assert "-4 stunned" in out.render()
