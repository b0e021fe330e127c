"""States of the character (VIII.4) and the ARC: modifiers, thresholds, opponents, typed-in modifiers."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError, RuleRefusal

from .helpers import ADEPT, RANGER, Table, face


def test_arc_against_a_named_threshold_is_strictly_greater() -> None:
    table = Table({"ranger": RANGER})
    out = table.act("arc", "ranger", dice=[face(0)], ks="bu", threshold="average")
    assert out.result["success"] is False and out.result["result"] == 9
    out = table.act("arc", "ranger", dice=[face(0)], ks="bu", threshold="average", gm_modifier=1)
    assert out.result["success"] is True and out.result["margin"] == 1


def test_arc_with_a_typed_in_roll_modifier() -> None:
    table = Table({"ranger": RANGER})
    out = table.act("arc", "ranger", ks="bu", threshold=12, roll_modifier=4)
    assert out.result["success"] is True and out.result["roll_modifier"] == 4
    with pytest.raises(InputError, match="no face"):
        table.act("arc", "ranger", threshold=12, roll_modifier=20)


def test_arco_tie_fails_and_needs_one_of_threshold_or_opponent() -> None:
    table = Table({"ranger": RANGER})
    out = table.act("arc", "ranger", dice=[face(2), face(1)], opponent_stats=10)
    assert (out.result["result"], out.result["target"], out.result["success"]) == (11, 11, False)
    out = table.act("arc", "ranger", roll_modifier=3, opponent_roll_modifier=1, opponent_stats=10)
    assert out.result["success"] is True
    with pytest.raises(InputError, match="threshold or an opponent"):
        table.act("arc", "ranger")
    with pytest.raises(InputError, match="threshold or an opponent"):
        table.act("arc", "ranger", threshold=3, opponent_stats=3)


def test_roll_modifier_table_is_a_campaign_option() -> None:
    table = Table({"ranger": RANGER}, options={"roll_modifier_table": [-1, 0, 1, 2, 3, 4]})
    out = table.act("arc", "ranger", dice=[6], threshold=12)
    assert out.result["result"] == 13 and out.result["roll_modifier"] == 4
    with pytest.raises(Exception, match="cannot be rolled on a d6"):
        table.act("arc", "ranger", dice=[7], threshold=12)


def test_skill_level_can_count_in_the_arc() -> None:
    plain = Table({"adept": ADEPT})
    assert plain.act("arc", "adept", dice=[face(0)], skill="stamina", threshold=3).result["result"] == 9
    level = Table({"adept": ADEPT}, options={"es_level_in_arc": True})
    assert level.act("arc", "adept", dice=[face(0)], skill="Stamina", threshold=3).result["result"] == 12
    with pytest.raises(InputError, match="no skill"):
        plain.act("arc", "adept", skill="sailing", threshold=3)


def test_state_modifiers_reach_every_check() -> None:
    table = Table({"adept": ADEPT})
    table.act("state", "adept", kind="prone", modifier=-2)
    table.act("som", "adept", value=10)
    assert table.has("adept", "exalted")
    out = table.act("arc", "adept", dice=[face(0)], skill="stamina", threshold=3)
    assert out.result["result"] == 9 - 2 + 1
    assert table.view("adept")["check_modifier"] == -1
    table.act("som", "adept", value=1)
    assert table.has("adept", "panicked") and not table.has("adept", "exalted")
    out = table.act("arc", "adept", dice=[face(0)], skill="stamina", threshold=3)
    assert out.result["result"] == 9 - 2 - 1


def test_reaction_checks() -> None:
    table = Table({"adept": ADEPT})
    table.act("state", "adept", kind="surprised")
    table.act("som", "adept", value=10)
    out = table.act("reaction", "adept", threshold="heroic")
    assert out.result == {"success": True, "automatic": True}
    assert not table.has("adept", "surprised")
    table.act("som", "adept", value=1)
    out = table.act("reaction", "adept", dice=[face(0)], skill="stamina", threshold="trivial")
    assert out.checks[0].total == 9 - 1 - 3


def test_blind_needs_a_one_on_a_d6() -> None:
    table = Table({"ranger": RANGER})
    assert table.act("sight", "ranger").result == {"possible": True, "rolled": False}
    table.act("state", "ranger", kind="blind")
    assert table.act("sight", "ranger", dice=[1], task="read the map").result["possible"] is True
    for die in (2, 6):
        assert table.act("sight", "ranger", dice=[die]).result["possible"] is False
    check = table.last.checks[0] if table.last else None
    assert check is not None and check.kind == "vi-viii-x.blind"


def test_deafened_cannot_cast() -> None:
    table = Table({"ranger": RANGER})
    assert table.act("cast", "ranger", spell="light").result == {"may_cast": True}
    table.act("state", "ranger", kind="deafened")
    assert table.view("ranger")["can_cast_spells"] is False
    with pytest.raises(RuleRefusal, match="deafened"):
        table.act("cast", "ranger")


def test_slowed_and_hasted() -> None:
    table = Table({"adept": ADEPT})
    table.act("state", "adept", kind="slowed", turns=2)
    v = table.view("adept")
    assert (v["effective_mov"], v["actions_per_turn"], v["timeframe_factor"]) == (5, 0.5, 2.0)
    table.act("state", "adept", kind="hasted")
    v = table.view("adept")
    assert (v["effective_mov"], v["actions_per_turn"], v["timeframe_factor"]) == (20, 2.0, 0.5)
    assert not table.has("adept", "slowed")
    table.act("state", "adept", kind="hasted", on=False)
    assert table.view("adept")["effective_mov"] == 10
    with pytest.raises(InputError, match="not hasted"):
        table.act("state", "adept", kind="hasted", on=False)


def test_gm_states_with_a_duration_end_by_themselves() -> None:
    table = Table({"adept": ADEPT})
    table.act("state", "adept", kind="entangled", turns=2, limbs="arms")
    with pytest.raises(RuleRefusal, match="entangled"):
        table.act("climb", "adept", threshold=3)
    table.turns(2)
    assert not table.has("adept", "entangled")
    with pytest.raises(InputError, match="limbs"):
        table.act("state", "adept", kind="prone", limbs="legs")


def test_burden_states() -> None:
    table = Table({"adept": ADEPT})
    table.act("burden", "adept", kind="heavy")
    assert table.has("adept", "burdened") and table.view("adept")["jump_running"] == 0.0
    table.act("burden", "adept", kind="overloaded")
    assert table.has("adept", "overloaded") and not table.has("adept", "burdened")
    assert table.view("adept")["can_run"] is False
    table.act("burden", "adept", kind="none")
    assert not table.has("adept", "overloaded") and not table.has("adept", "burdened")


def test_stun_wakes_the_turn_after_a_success() -> None:
    table = Table({"adept": ADEPT})
    out = table.act("stun", "adept", dice=[face(-3)], threshold="average")  # 6 against 9
    assert table.has("adept", "stunned") and out.result["woke"] is False
    with pytest.raises(RuleRefusal, match="stunned"):
        table.act("arc", "adept", threshold=3)
    table.turns(1, dice=[face(1)])  # re-roll after 1 turn: 10 > 9
    assert table.has("adept", "stunned")
    table.turns(1)
    assert not table.has("adept", "stunned")


def test_stun_periods_are_an_option() -> None:
    table = Table({"adept": ADEPT}, options={"stun_period_turns": [2, 3]})
    table.act("stun", "adept", dice=[face(-3)], threshold="average")
    out = table.turns(1)
    assert not out.checks  # the first wait is 2 turns
    table.turns(1, dice=[face(-3)])  # second try after 2 turns, fails
    table.turns(2)
    table.turns(1, dice=[face(5)])  # third try after 3 more turns, succeeds
    table.turns(1)
    assert not table.has("adept", "stunned")


def test_stunned_check_in_prompt_mode_waits() -> None:
    table = Table({"adept": ADEPT}, automation={"vi-viii-x.stun": "prompt"})
    table.act("stun", "adept", threshold="easy")
    assert len(table.state.pending) == 1
    table.resolve([face(0)])
    table.turns(1)
    assert not table.has("adept", "stunned")


def test_the_dead_and_unconscious_do_not_act() -> None:
    table = Table({"ranger": {**RANGER, "agility": 6}})
    table.act("damage", "ranger", amount=10, kind="mental", ks="in")
    table.turns(1)
    assert table.has("ranger", "coma")
    for name in ("jump", "sight"):
        with pytest.raises(RuleRefusal, match="coma"):
            table.act(name, "ranger")


def test_literacy_in_the_view() -> None:
    table = Table({"adept": ADEPT})
    literacy = table.view("adept")["literacy"]
    assert literacy["common"]["level"] == 5
