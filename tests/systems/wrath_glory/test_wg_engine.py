"""Actions through the engine: prompt and note automation, refusals, bad parameters, the ruleset's declarations."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from wg_helpers import BASIC, RULESET, act, condition_names, state_with, view

from rulekeeper.core import Action, AutomationLevel, Settings, advance, apply_action, resolve_check
from rulekeeper.core.ruleset import get_ruleset
from rulekeeper.dice import ScriptedSource
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError
from rulekeeper.systems import wrath_glory

PROMPT = Settings(automation={"wg": AutomationLevel.PROMPT})


def test_registry_and_declarations() -> None:
    assert get_ruleset("wrath-and-glory") is get_ruleset("wg") is RULESET
    assert RULESET.name == "wrath-and-glory" and RULESET.round_seconds == 6
    assert set(RULESET.rest_kinds) == {"regroup", "respite"}
    assert set(RULESET.check_kinds) == {
        "wg.determination",
        "wg.test",
        "wg.medicae",
        "wg.damage",
        "wg.memorable-injury",
        "wg.traumatic-injury",
    }
    actions = RULESET.actions()
    assert actions["damage"].kind == "damage" and actions["heal"].kind == "heal" and actions["rest"].kind == "rest"
    assert actions["rest"].param("kind").choices == ("regroup", "respite")
    for spec in actions.values():
        for param in spec.params:
            assert param.help and param.name.isidentifier() and param.name.islower()
    options = {o.name: o.default for o in RULESET.rule_options}
    assert options["annihilation_order"] == "after_determination" and options["round_seconds"] == 6


def test_public_names() -> None:
    for name in wrath_glory.__all__:
        assert hasattr(wrath_glory, name)
    assert "WrathGloryRuleset" in wrath_glory.__all__


def test_determination_waits_for_typed_dice() -> None:
    state = state_with(settings=PROMPT)
    out = act(state, "damage", amount=10)  # 6 Wounds against Resilience 4
    assert len(out.pending) == 1 and out.pending[0].check.kind == "wg.determination"
    assert view(out.state)["wounds"] == 0  # nothing happens until the dice are in
    assert out.pending[0].check.probability() == Fraction(1, 216)  # all 6 Wounds converted only on 6, 6, 6
    resolved = resolve_check(RULESET, out.state, out.pending[0].id, ScriptedSource([]), typed=[4, 1, 1])
    assert view(resolved.state)["wounds"] == 5 and view(resolved.state)["shock"] == 1
    assert not view(resolved.state)["dying"]
    assert resolved.result["icons"] == 1 and resolved.result["wounds_converted"] == 1
    assert resolved.state.pending == ()


def test_determination_typed_dice_then_consequence_dice() -> None:
    state = state_with(settings=PROMPT)
    out = act(state, "damage", amount=11)
    resolved = resolve_check(RULESET, out.state, out.pending[0].id, ScriptedSource([]), typed=[1, 1, 1])
    # falling Dying asks for the Memorable Injury die as its own check; Prone does not wait for it
    assert {"dying", "prone"} <= condition_names(resolved.state)
    assert [p.check.kind for p in resolved.pending] == ["wg.memorable-injury"]
    assert view(resolved.state)["memorable_injuries"] == []
    table_roll = resolve_check(RULESET, resolved.state, resolved.pending[0].id, ScriptedSource([]), typed=[4])
    assert view(table_roll.state)["memorable_injuries"] == ["Broken Jaw"]


def test_noted_determination_changes_nothing() -> None:
    state = state_with(settings=Settings(automation={"wg.determination": AutomationLevel.NOTE}))
    out = act(state, "damage", amount=10)
    assert out.pending == () and view(out.state)["wounds"] == 0
    assert "noted" in out.render()


def test_prompted_dying_test_maims_on_complication() -> None:
    state = state_with({"ari": {**BASIC, "tier": 3}}, settings=Settings(automation={"wg.test": AutomationLevel.PROMPT}))
    state = act(state, "damage", amount=16, rolls=[1, 1, 1, 1]).state  # 12 Wounds > 9: Dying
    out = act(state, "test", pool=3, dn=2)
    assert out.result["wrath_dice"] == 1 and out.result["dn"] == 3
    # the pool's own dice only: the Traumatic Injury's side is the engine's roll (a surplus die
    # typed here is refused, issue #25)
    resolved = resolve_check(RULESET, out.state, out.pending[0].id, ScriptedSource([5]), typed=[1, 6, 6])
    assert resolved.result["complications"] == 1
    assert view(resolved.state)["traumatic_injuries"] == ["torso"]


def test_damage_parameter_errors() -> None:
    state = state_with({"ari": BASIC, "bex": BASIC})
    with pytest.raises(InputError, match="amount"):
        act(state, "damage", amount=-1)
    with pytest.raises(InputError, match="either"):
        act(state, "damage")
    with pytest.raises(InputError, match="either"):
        act(state, "damage", amount=3, dice="1d6")
    with pytest.raises(InputError, match="twice"):
        act(state, "damage", actor=None, amount=3, targets="ari,ari")
    with pytest.raises(UnknownNameError):
        act(state, "damage", actor=None, amount=3, targets="ari,zed")
    with pytest.raises(InputError, match="no one"):
        apply_action(RULESET, state, Action("damage", None, {"amount": 3}), ScriptedSource([]))


def test_attacker_is_not_hit_when_targets_are_given() -> None:
    state = state_with({"ari": BASIC, "bex": BASIC})
    out = act(state, "damage", actor="ari", amount=4, targets="bex")
    assert view(out.state, "ari")["shock"] == 0 and view(out.state, "bex")["shock"] == 1


def test_dead_targets_are_skipped_and_the_dead_do_nothing() -> None:
    state = state_with({"ari": BASIC, "bex": BASIC})
    state = act(state, "damage", amount=20, mortal=True).state
    assert view(state)["dead"]
    out = act(state, "damage", actor=None, amount=4, targets="ari,bex")
    assert out.result["targets"]["ari"] == {"skipped": "dead"}
    with pytest.raises(RuleRefusal, match="already dead"):
        act(out.state, "damage", amount=4)
    attempts: list[tuple[str, dict[str, Any]]] = [
        ("heal", {"wounds": 1}),
        ("test", {"pool": 2}),
        ("rest", {"kind": "respite"}),
    ]
    for name, params in attempts:
        with pytest.raises(RuleRefusal, match="dead"):
            act(out.state, name, **params)


def test_heal_and_wrath_errors() -> None:
    state = state_with({"ari": {**BASIC, "wrath": 1}})
    with pytest.raises(InputError, match="nothing to heal"):
        act(state, "heal")
    with pytest.raises(RuleRefusal, match="only 1 Wrath"):
        act(state, "wrath", change=-2)
    with pytest.raises(InputError):
        act(state, "wrath", change=0)
    assert act(state, "wrath", change=-1).result["wrath"] == 0


def test_test_needs_a_pool_or_stored_attribute() -> None:
    state = state_with()
    with pytest.raises(InputError, match="pool"):
        act(state, "test", attribute="agility")
    out = act(state, "test", rolls=[4, 4, 4], attribute="willpower")
    assert out.result["pool"] == 3 and out.result["success"] is True


def test_rest_rules() -> None:
    state = state_with({"ari": BASIC, "doc": {**BASIC, "medicae": 1}, "bex": BASIC})
    with pytest.raises(RuleRefusal, match="Regroup, not a Respite"):
        act(state, "rest", kind="respite", healer="doc")
    with pytest.raises(UnknownNameError):
        act(state, "rest", kind="regroup", healer="zed")
    state = act(state, "rest", kind="respite").state
    with pytest.raises(RuleRefusal, match="already in a respite"):
        act(state, "rest", kind="regroup")
    out = act(state, "end_rest")
    assert view(out.state)["resting"] is None and out.state.timers == ()
    with pytest.raises(RuleRefusal, match="not resting"):
        act(out.state, "end_rest")
    # A Dying healer cannot treat anyone.
    dying_doc = act(state, "damage", actor="doc", amount=10, rolls=[1, 1, 1, 1]).state
    with pytest.raises(RuleRefusal, match="Dying"):
        act(dying_doc, "rest", actor="bex", kind="regroup", healer="doc")


def test_strenuous_and_light_activity_outside_a_respite_change_nothing() -> None:
    state = state_with()
    assert act(state, "strenuous", duration="2h").result["respite_restarted"] is False
    out = act(state, "light_activity", duration="1h")
    assert out.state.characters == state.characters and out.state.timers == ()


def test_stale_rest_timer_does_nothing() -> None:
    state = state_with({"ari": {**BASIC, "wounds": 2}})
    state = act(state, "rest", kind="respite").state
    state = advance(RULESET, state, 3600, ScriptedSource([])).state
    state = act(state, "strenuous", duration="1h").state
    after = advance(RULESET, state, 5 * 3600, ScriptedSource([])).state  # the first timer's old due time passed
    assert view(after)["wounds"] == 2 and view(after)["resting"] == "respite"


def test_replace_part_errors() -> None:
    state = state_with({"ari": {**BASIC, "traumatic_injuries": ["left hand"]}})
    with pytest.raises(InputError, match="which hand"):
        act(state, "replace_part", part="hand")
    with pytest.raises(RuleRefusal, match="no unreplaced"):
        act(state, "replace_part", part="hand", side="right")


def test_every_step_cites_wrath_and_glory() -> None:
    state = state_with({"ari": {**BASIC, "tier": 2}, "doc": {**BASIC, "medicae": 2}})
    outcomes = []
    out = act(state, "damage", amount=12, rolls=[1, 1, 1, 3])
    outcomes.append(out)
    out = act(out.state, "damage", amount=6, rolls=[1, 1, 1, 2, 5])
    outcomes.append(out)
    out = act(out.state, "test", pool=3, rolls=[1, 4, 4, 6, 1])
    outcomes.append(out)
    out = act(out.state, "rest", kind="regroup", healer="doc")
    outcomes.append(out)
    outcomes.append(advance(RULESET, out.state, 3600, ScriptedSource([])))
    steps = [s for o in outcomes for s in o.explanation if s.rule.system != "core"]
    assert steps
    for step in steps:
        assert step.rule.system == "wrath-and-glory"
        assert step.rule.seed == "003" or step.rule.section.startswith("Context"), step.render()


def test_round_length_is_a_table_setting() -> None:
    from rulekeeper.core import next_round

    assert next_round(RULESET, state_with(), ScriptedSource([])).state.clock == 6
    slow = state_with(settings=Settings(options={"round_seconds": 10}))
    assert next_round(RULESET, slow, ScriptedSource([])).state.clock == 10
