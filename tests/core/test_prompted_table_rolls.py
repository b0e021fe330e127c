"""The last rolls the engine made behind the table's back are check kinds too (issue #13).

GURPS Fright Check durations and Diplomacy's reaction roll; Gods & Monsters NPC survival dice (asked
in the middle of damage), the rounds a semi-conscious character takes to answer, the d4 of breath
of someone caught without air, and the amounts an ailment rolls. For each kind: with everything on
``prompt`` the roll becomes a pending check of that kind with its stakes, and typing its dice as
it appears (or giving them all up front) reaches the same game as ``auto`` with the same dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from tests.core.test_prompt_flow import Fight, Step, _levels, _perform, _play_three_ways
from tests.support.table import new_game

from rulekeeper.core import get_ruleset
from rulekeeper.core.engine import resolve_check
from rulekeeper.core.state import PendingCheck
from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import RuleRefusal

GM_SHEET = {"survival": 30, "max_survival": 30, "mojo": 1, "fortitude": 20, "endurance": 3}
ORC_NPC = {"is_npc": True, "level": 2, "archetype": "warrior"}
GURPS_TALKER = {"iq": 10, "skills": {"diplomacy": 12}}

CASES: dict[str, tuple[str, Mapping[str, Mapping[str, Any]], tuple[Step, ...]]] = {
    "gurps.fright.stun": ("gurps", {"a": {"iq": 10}}, (("fright_check", "a", {"modifier": -6}),)),
    "gurps.fright.faint": ("gurps", {"a": {"iq": 10}}, (("fright_check", "a", {"modifier": -12}),)),
    "gurps.reaction": (
        "gurps",
        {"t": GURPS_TALKER, "s": {"iq": 10}},
        (("influence", "t", {"skill": "diplomacy", "subject": "s", "reaction_modifier": 1}),),
    ),
    "gm.npc-survival": (
        "gods-and-monsters",
        {"orc": ORC_NPC},
        (
            ("damage", "orc", {"amount": 4, "in_combat": True}),
            ("damage", "orc", {"amount": 9, "in_combat": True}),  # arrives while the survival dice wait
            ("advance", 10),
        ),
    ),
    "gm.semi-conscious.delay": (
        "gods-and-monsters",
        {"a": {**GM_SHEET, "willpower": 6}},
        (("fall_unconscious", "a", {"minutes": 1}), ("semi_conscious", "a", {}), ("respond", "a", {})),
    ),
    "gm.suffocation.breath": (
        "gods-and-monsters",
        {"a": GM_SHEET},
        (("suffocate", "a", {"prepared": False}), ("advance", 60)),
    ),
    "gm.ailment.sleep": (
        "gods-and-monsters",
        {"a": GM_SHEET},
        (("expose", "a", {"name": "sleep gas"}), ("advance", 10), ("advance", 10)),
    ),
    "gm.ailment.paralysis": (
        "gods-and-monsters",
        {"a": GM_SHEET},
        (("ailment", "a", {"name": "giant spider", "contracted": True}), ("advance", 10)),
    ),
    "gm.ailment.injuries": (
        "gods-and-monsters",
        {"a": GM_SHEET},
        (("ailment", "a", {"name": "huge spider", "contracted": True}), ("advance", 10)),
    ),
    "gm.ailment.linger": (
        "gods-and-monsters",
        {"a": GM_SHEET},
        (
            (
                "ailment",
                "a",
                {
                    "name": "marsh ague",
                    "strength": 2,
                    "action_time": 60,
                    "penalties": "agility=-1",
                    "penalty_hours": "1d4",
                    "contracted": True,
                },
            ),
            ("advance", 60),
            ("advance", 3600),
        ),
    ),
}


def _prompted_pending(system: str, sheets: Mapping[str, Any], steps: Sequence[Step], seed: int) -> list[PendingCheck]:
    """Every check left for the table, everything on ``prompt``, dice typed as each appears."""
    ruleset = get_ruleset(system)
    state = new_game(ruleset, sheets, _levels(ruleset, sorted(ruleset.check_kinds)))
    stream = SeededSource(seed)
    seen: list[PendingCheck] = []
    for step in steps:
        try:
            state = _perform(ruleset, state, step, stream).state
        except RuleRefusal:
            continue
        for _ in range(50):
            seen += [p for p in state.pending if p not in seen]
            ready = [p for p in state.pending if p.after is None]
            if not ready:
                break
            first = min(ready, key=lambda p: p.id)
            typed = [stream.roll(s) for s in first.check.dice_sides]
            state = resolve_check(ruleset, state, first.id, stream, typed).state
    return seen


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_roll_is_the_tables_with_its_stakes_and_ends_as_on_auto(kind: str) -> None:
    system, sheets, steps = CASES[kind]
    ruleset = get_ruleset(system)
    assert kind in ruleset.check_kinds
    reached = 0
    for seed in range(12):
        auto, typed_live, up_front = _play_three_ways(
            Fight(system, sheets, steps), steps, sorted(ruleset.check_kinds), seed
        )
        assert typed_live == auto, seed
        assert up_front == auto, seed
        asked = [p for p in _prompted_pending(system, sheets, steps, seed) if p.check.kind == kind]
        for pending in asked:
            assert pending.stakes is not None and pending.stakes.purpose, pending
            assert pending.stakes.on_success
        reached += bool(asked)
    assert reached, f"no seed reached a pending {kind}"


def test_damage_arriving_while_the_survival_dice_wait_lands_after_them_in_order() -> None:
    """Two hits on an NPC whose survival is unknown: one survival roll, then both hits in order."""
    system, sheets, steps = CASES["gm.npc-survival"]
    ruleset = get_ruleset(system)
    state = new_game(ruleset, sheets, _levels(ruleset, ["gm.npc-survival"]))
    for step in steps[:2]:
        state = _perform(ruleset, state, step, SeededSource(0)).state
    (waiting,) = state.pending
    assert waiting.check.kind == "gm.npc-survival" and len(waiting.data["then"]) == 2
    assert "survival" in str(waiting.stakes)
    out = resolve_check(ruleset, state, waiting.id, SeededSource(0), [10, 10])
    orc = out.state.characters["orc"]
    assert orc.max_survival == 20 and orc.survival == 20 - 13
    assert "orc takes 4 damage" in out.render() and "orc takes 9 damage" in out.render()
    assert out.render().index("takes 4 damage") < out.render().index("takes 9 damage")


def test_air_before_the_unprepared_breath_is_typed_withdraws_the_roll() -> None:
    system, sheets, steps = CASES["gm.suffocation.breath"]
    ruleset = get_ruleset(system)
    state = new_game(ruleset, sheets, _levels(ruleset, ["gm"]))
    state = _perform(ruleset, state, steps[0], SeededSource(0)).state
    assert [p.check.kind for p in state.pending] == ["gm.suffocation.breath"]
    state = _perform(ruleset, state, ("breathe", "a", {}), SeededSource(0)).state
    assert state.pending == () and not state.has_condition("a", "suffocating")
    with pytest.raises(RuleRefusal, match="not suffocating"):
        _perform(ruleset, state, ("breathe", "a", {}), SeededSource(0))
