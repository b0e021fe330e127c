"""The engine's own machinery, exercised through a small ruleset written for these tests.

The ruleset is real code behind the real protocol (not a mock): one HP track, a damage action
that asks for a consciousness check, and a timer that wakes the character.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from rulekeeper.core import (
    Action,
    ActionSpec,
    AutomationLevel,
    CheckResult,
    GameState,
    ParamSpec,
    PendingCheck,
    Play,
    Rule,
    Ruleset,
    Settings,
    SuccessRoll,
    Timer,
    add_character,
    advance,
    apply_action,
    resolve_check,
)
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.dice import ScriptedSource
from rulekeeper.errors import InputError, UnknownNameError

RULE = Rule(system="test", section="Testing")


@dataclass(frozen=True)
class Body:
    hp: int
    ht: int = 10


def _damage(play: Play[Body], action: Action) -> None:
    assert action.actor is not None
    body = play.char(action.actor)
    play.put(action.actor, replace(body, hp=body.hp - action.params["amount"]))
    play.result["hp"] = body.hp - action.params["amount"]
    if body.hp - action.params["amount"] <= 0:
        check = SuccessRoll(kind="test.consciousness", label="HT", base=body.ht)
        play.check(check, purpose="consciousness", rule=RULE, actor=action.actor)


def _on_consciousness(play: Play[Body], pending: PendingCheck, result: CheckResult) -> None:
    assert pending.actor is not None
    if not result.success:
        play.add_condition(pending.actor, "unconscious", RULE, duration=60)
        play.schedule(30, "test.groan", "groans", actor=pending.actor)


def _on_groan(play: Play[Body], timer: Timer) -> None:
    play.result.setdefault("fired", []).append(timer.label)


TINY_SECTION = Section(
    "tiny",
    check_kinds=(CheckKind("test.consciousness", "stay awake"),),
    checks=(CheckSpec("consciousness", _on_consciousness),),
    timers=(TimerSpec("test.groan", _on_groan),),
)


class TinyRuleset(Ruleset[Body]):
    name = "tiny"
    title = "Tiny"
    character_type = Body
    sections = (TINY_SECTION,)

    def actions(self) -> Mapping[str, ActionSpec]:
        return {
            "damage": ActionSpec("damage", "hurt", _damage, (ParamSpec("amount", "int", required=True, minimum=0),))
        }

    def new_character(self, sheet: Mapping[str, Any]) -> Body:
        if not isinstance(sheet.get("hp"), int):
            raise InputError("hp missing", expected="hp: whole number", where="hp")
        return Body(hp=sheet["hp"])

    def view(self, state: GameState[Body], actor: str) -> dict[str, Any]:
        return {"hp": state.characters[actor].hp}


def _state(level: AutomationLevel) -> GameState[Body]:
    ruleset = TinyRuleset()
    state = ruleset.new_state(Settings(automation={"test": level}))
    return add_character(ruleset, state, "ana", {"hp": 3})


def test_auto_rolls_now_and_applies_consequence() -> None:
    out = apply_action(
        TinyRuleset(), _state(AutomationLevel.AUTO), Action("damage", "ana", {"amount": 5}), ScriptedSource([6, 6, 5])
    )
    assert out.state.has_condition("ana", "unconscious")
    assert out.checks and not out.checks[0].success
    assert out.state.pending == ()


def test_prompt_leaves_pending_then_typed_dice_resolve_it() -> None:
    ruleset = TinyRuleset()
    out = apply_action(
        ruleset, _state(AutomationLevel.PROMPT), Action("damage", "ana", {"amount": 5}), ScriptedSource([])
    )
    assert len(out.state.pending) == 1 and not out.state.has_condition("ana", "unconscious")
    pending_id = out.state.pending[0].id
    with pytest.raises(InputError, match="cannot be rolled on a d6"):
        resolve_check(ruleset, out.state, pending_id, ScriptedSource([]), typed=[7, 1, 1])
    done = resolve_check(ruleset, out.state, pending_id, ScriptedSource([]), typed=[6, 6, 6])
    assert done.state.pending == () and done.state.has_condition("ana", "unconscious")


def test_note_only_records() -> None:
    out = apply_action(
        TinyRuleset(), _state(AutomationLevel.NOTE), Action("damage", "ana", {"amount": 5}), ScriptedSource([])
    )
    assert out.state.pending == () and not out.state.has_condition("ana", "unconscious")
    assert "noted" in out.render()


def test_advance_fires_timers_in_order_and_ends_conditions() -> None:
    ruleset = TinyRuleset()
    hurt = apply_action(
        ruleset, _state(AutomationLevel.AUTO), Action("damage", "ana", {"amount": 5}), ScriptedSource([6, 6, 5])
    ).state
    later = advance(ruleset, hurt, 45, ScriptedSource([]))
    assert later.result["fired"] == ["groans"]
    assert later.state.has_condition("ana", "unconscious")
    woken = advance(ruleset, later.state, 15, ScriptedSource([]))
    assert not woken.state.has_condition("ana", "unconscious")
    assert woken.state.clock == 60


def test_unknown_names_and_bad_params_are_input_errors() -> None:
    ruleset = TinyRuleset()
    state = _state(AutomationLevel.AUTO)
    with pytest.raises(UnknownNameError, match="unknown character 'bob'"):
        apply_action(ruleset, state, Action("damage", "bob", {"amount": 1}), ScriptedSource([]))
    with pytest.raises(UnknownNameError, match="unknown tiny action"):
        apply_action(ruleset, state, Action("heal", "ana", {}), ScriptedSource([]))
    with pytest.raises(InputError, match="out of range"):
        apply_action(ruleset, state, Action("damage", "ana", {"amount": -2}), ScriptedSource([]))


def test_state_round_trips_through_json() -> None:
    ruleset = TinyRuleset()
    out = apply_action(
        ruleset, _state(AutomationLevel.PROMPT), Action("damage", "ana", {"amount": 5}), ScriptedSource([])
    )
    data = state_to_json(ruleset, out.state)
    assert state_from_json(ruleset, data) == out.state


def test_advancing_past_waiting_checks_says_so_and_withdrawn_checks_are_explained() -> None:
    ruleset = TinyRuleset()
    out = apply_action(
        ruleset, _state(AutomationLevel.PROMPT), Action("damage", "ana", {"amount": 5}), ScriptedSource([])
    )
    pending = out.state.pending[0]
    assert pending.rule == RULE
    later = advance(ruleset, out.state, 10, ScriptedSource([]))
    assert f"still waiting for dice: pending check(s) #{pending.id}" in later.render()
    play = Play(ruleset, later.state, ScriptedSource([]))
    play.drop_pending(actor="ana")
    assert play.state.pending == ()
    assert f"pending check #{pending.id} withdrawn" in play.outcome().render()


def test_a_sheet_without_a_name_is_named_by_its_id() -> None:
    from rulekeeper.core import get_ruleset

    gurps = get_ruleset("gurps")
    state = add_character(gurps, gurps.new_state(), "hero", {"ht": 12})
    assert state.characters["hero"].name == "hero"
    named = add_character(gurps, gurps.new_state(), "hero", {"name": "Sir Hugh"})
    assert named.characters["hero"].name == "Sir Hugh"


def test_npcs_are_marked_on_sheets_that_know_them() -> None:
    from rulekeeper.core import get_ruleset

    gurps, gm = get_ruleset("gurps"), get_ruleset("gm")
    orc = add_character(gurps, gurps.new_state(), "orc", {"st": 12}, npc=True).characters["orc"]
    assert orc.is_pc is False
    hero = add_character(gurps, gurps.new_state(), "hero", {"st": 12}).characters["hero"]
    assert hero.is_pc is True
    goblin = add_character(gm, gm.new_state(), "gob", {"level": 1, "survival": 4}, npc=True).characters["gob"]
    assert goblin.is_npc is True
