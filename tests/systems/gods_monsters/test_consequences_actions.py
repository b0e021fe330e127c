"""Seed 002 actions through the engine: illusions, chases, concentration, and the package's
contract with the survival rules (prefixes, check kinds, parameters)."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core import ActionSpec, CalculatorSpec, resolve_check
from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters.consequences.semi_conscious import semi_conscious_limits
from rulekeeper.systems.gods_monsters.ruleset import SEED_002_SECTIONS

from .helpers import RULESET, Table

# What seed 002's sections contribute (the package no longer gathers them: the ruleset lists them).
CONSEQUENCE_ACTIONS = {name: spec for s in SEED_002_SECTIONS for name, spec in s.actions.items()}
CONSEQUENCE_CALCULATORS = {name: spec for s in SEED_002_SECTIONS for name, spec in s.calculators.items()}
CONSEQUENCE_CHECK_KINDS = {k.kind: k.help for s in SEED_002_SECTIONS for k in s.check_kinds}


# -- illusions ------------------------------------------------------------------------------------
def test_willpower_disbelief_halves_the_penalty_and_helps_others() -> None:
    table = Table({"d": {"survival": 20, "max_survival": 20, "willpower": 12}})
    table.act("phantasmal_damage", "d", amount=8)
    out = table.act("disbelieve", "d", dice=[10], method="willpower", penalty=5)
    assert "willpower 12 (-2 illusion's strength (halved)) = 10 or less" in out.render()
    assert out.result["disbelief"] == {"success": True, "method": "willpower", "others_bonus": 2}
    assert out.result["phantasm"] == {"total": 8, "kept": 1, "regained": 7, "injuries": 0, "survival": 7, "verve": 0}
    table.wait(10)
    assert table.char("d").survival == 19


def test_failed_disbelief_keeps_the_phantasm() -> None:
    table = Table({"d": {"survival": 20, "perception": 10}})
    table.act("phantasmal_damage", "d", amount=4)
    table.act("disbelieve", "d", dice=[11], penalty=0)
    assert table.has("d", "phantasm")
    assert not table.state.timers_of("d", "gm.c.phantasm")


def test_regain_returns_injuries_first_and_cancels_dying_at_zero() -> None:
    table = Table(
        {"d": {"survival": 3, "max_survival": 10, "perception": 12, "fortitude": 19, "endurance": 15}},
        automation={"gm.death": "note"},
    )
    table.act("phantasmal_damage", "d", dice=[2], amount=10)
    assert (table.char("d").survival, table.char("d").injuries) == (0, 7)
    table.act("illusion_ends", "d", reason="dispelled")
    table.wait(10)
    # 10 phantasmal: 9 back (7 injuries first, then 2 survival); 1 stays lost.
    assert (table.char("d").survival, table.char("d").injuries) == (2, 0)


def test_falling_unconscious_lets_the_phantasm_go() -> None:
    table = Table({"d": {"survival": 20, "max_survival": 20, "mojo": 1}})
    table.act("phantasmal_damage", "d", amount=12)
    out = table.act("fall_unconscious", "d", minutes=5)
    assert not table.has("d", "phantasm")
    assert out.result["phantasm"]["regained"] == 10
    table.wait(10)
    assert table.char("d").survival == 18
    assert table.has("d", "unconscious")  # a healing sleep: not woken by the regained points


def test_illusion_ends_without_phantasm_is_refused() -> None:
    table = Table({"d": {"survival": 20}})
    with pytest.raises(RuleRefusal, match="no phantasmal damage"):
        table.act("illusion_ends", "d")


# -- chases -------------------------------------------------------------------------------------
def test_prompted_chase_waits_for_both_dice() -> None:
    table = Table(
        {"a": {"survival": 5, "agility": 10, "movement": 10}, "b": {"survival": 5, "agility": 10, "movement": 19}},
        automation={"gm.chase": "prompt"},
    )
    out = table.act("chase", "a", other="b", role="quarry")
    assert out.result["chase"] == {"bonus": 0, "other_bonus": 3}
    assert len(table.state.pending) == 1
    resolved = table.resolve([3, 14])
    assert resolved.result["chase"]["outcome"] == "escaped"


def test_group_chase_uses_the_group_effort_bonus() -> None:
    table = Table({"a": {"survival": 5, "agility": 10}, "b": {"survival": 5, "agility": 10}})
    out = table.act("chase", "a", dice=[12, 12], other="b", group_size=4)
    assert "+2 group of 4" in out.render()
    assert out.result["chase"]["outcome"] == "caught"


def test_chasing_oneself_or_nobody_is_rejected() -> None:
    table = Table({"a": {"survival": 5}})
    with pytest.raises(InputError):
        table.act("chase", "a", other="a")
    with pytest.raises(InputError):
        table.act("chase", "a", other="nobody")


# -- items --------------------------------------------------------------------------------------
def test_item_reaction_needs_no_character_and_takes_a_modifier_override() -> None:
    table = Table({})
    out = table.act("item_reaction", None, dice=[9], material="stone", attack="fire", thickness="1", modifier=3)
    assert out.result["item"]["target"] == 4 + 3 + 1
    assert out.result["item"]["damaged"] is True
    with pytest.raises(InputError):
        table.act("item_reaction", None, material="stone", attack="fire", thickness="none")


# -- who may act ----------------------------------------------------------------------------------
def test_semi_conscious_characters_only_move_slowly() -> None:
    table = Table({"s": {"survival": 5, "mojo": 1}})
    table.act("fall_unconscious", "s", minutes=5)
    with pytest.raises(RuleRefusal, match="is unconscious and cannot search"):
        table.act("search", "s")
    table.act("semi_conscious", "s")
    with pytest.raises(RuleRefusal, match="may start no action but movement"):
        table.act("search", "s")
    with pytest.raises(RuleRefusal, match="half movement"):
        table.act("move", "s", speed="walk")
    out = table.act("move", "s", speed="semi-conscious")
    assert out.result["speed"]["feet_per_round"] == 5


def test_concentrating_characters_start_nothing_else() -> None:
    table = Table({"m": {"survival": 5}})
    table.act("concentrate", "m")
    attempts: list[tuple[str, dict[str, Any]]] = [
        ("jump", {"distance": 1}),
        ("disbelieve", {}),
        ("track", {}),
        ("concentrate", {}),
    ]
    for name, params in attempts:
        with pytest.raises(RuleRefusal, match="concentrating"):
            table.act(name, "m", **params)
    table.act("stop_concentrating", "m")
    table.act("jump", "m", dice=[1], distance=1)


def test_an_unconscious_quarry_cannot_flee() -> None:
    table = Table({"a": {"survival": 5}, "b": {"survival": 5}})
    table.act("fall_unconscious", "b", minutes=5)
    with pytest.raises(RuleRefusal, match="b is unconscious"):
        table.act("chase", "a", other="b")


# -- the package's contract ------------------------------------------------------------------------
def test_every_action_and_calculator_is_merged_and_documented() -> None:
    assert set(CONSEQUENCE_ACTIONS) <= set(RULESET.actions())
    assert set(CONSEQUENCE_CALCULATORS) <= set(RULESET.calculators())
    assert set(CONSEQUENCE_CHECK_KINDS) <= set(RULESET.check_kinds)
    specs: list[ActionSpec | CalculatorSpec] = [*CONSEQUENCE_ACTIONS.values(), *CONSEQUENCE_CALCULATORS.values()]
    for spec in specs:
        assert spec.help
        for param in spec.params:
            assert param.help, f"{spec.name}.{param.name} has no help"
            assert param.name == param.name.lower() and "-" not in param.name
    assert all(kind.startswith("gm.") for kind in CONSEQUENCE_CHECK_KINDS)


def test_every_check_asked_is_declared_and_every_purpose_and_timer_is_prefixed() -> None:
    everything = {"gm": "prompt"}
    table = Table(
        {
            "a": {"survival": 30, "max_survival": 30, "mojo": 1, "fortitude": 20, "endurance": 3},
            "b": {"survival": 30},
        },
        automation=everything,
    )
    steps: list[tuple[str, dict[str, Any]]] = [
        ("ailment", {"name": "huge spider"}),
        ("expose", {"name": "sleep gas"}),
        ("chase", {"other": "b"}),
        ("fall", {"feet": 5}),
        ("fall", {"feet": 25, "evasion": False}),  # straight to the damage dice, a check of their own
        ("jump", {"distance": 2}),
        ("force_march", {}),
        ("search", {}),
        ("track", {}),
        ("cover_tracks", {}),
        ("disbelieve", {}),
        ("item_reaction", {"material": "wood", "attack": "fire"}),
        ("suffocate", {}),
        ("ailment", {"name": "food poisoning", "contracted": True}),
        ("concentrate", {"rounds": 3}),
        ("concentration_hit", {}),
        ("stop_concentrating", {}),
    ]
    for name, params in steps:
        table.act(name, "a", **params)
    table.act("fall_unconscious", "a", minutes=1)
    table.act("semi_conscious", "a")
    table.act("respond", "a")
    seen = list(table.state.pending)
    # Rolls asked as time passes: each holds up the timers after it, so they are rolled as they come,
    # one story at a time (the sleep gas alone asks every round).
    for name, params, seconds in (
        ("ailment", {"name": "food poisoning", "contracted": True}, 2 * 3600),
        ("suffocate", {}, 60),
    ):
        sheet = {"survival": 30, "max_survival": 30, "mojo": 1, "fortitude": 20, "endurance": 3}
        timeline = Table({"a": sheet}, automation=everything)
        timeline.act(name, "a", **params)
        timeline.wait(seconds)
        for _ in range(20):
            seen += timeline.state.pending
            blocking = [p for p in timeline.state.pending if p.blocks_time]
            if not blocking:
                break
            first = min(blocking, key=lambda p: (p.created, p.id))
            typed = [1] * len(first.check.dice_sides)
            timeline.state = resolve_check(RULESET, timeline.state, first.id, SeededSource(first.id), typed).state
    # Rolls asked once a check before them failed: the amounts an ailment's effect rolls (sleep,
    # paralysis, injuries, hours its penalties linger), the rounds a semi-conscious character takes
    # to answer, the breath of one caught unprepared. The highest face fails every d20 roll-under.
    ague = {"name": "marsh ague", "strength": 2, "action_time": 60, "penalties": "agility=-1", "penalty_hours": "1d4"}
    stories: list[tuple[tuple[str, dict[str, Any]], ...]] = [
        (("ailment", {"name": "giant spider", "contracted": True}),),
        (("ailment", {"name": "huge spider", "contracted": True}),),
        (("expose", {"name": "sleep gas"}),),
        (("ailment", {**ague, "contracted": True}),),
        (("suffocate", {"prepared": False}),),
        (("fall_unconscious", {"minutes": 1}), ("semi_conscious", {}), ("respond", {})),
    ]
    for story in stories:
        sheet = {"survival": 30, "max_survival": 30, "mojo": 1, "fortitude": 20, "endurance": 3}
        failing = Table({"a": sheet}, automation=everything)
        for name, params in story:
            failing.act(name, "a", **params)
        for _ in range(20):
            failing.wait(60)
            seen += failing.state.pending
            ready = [p for p in failing.state.pending if p.after is None]
            if not ready:
                break
            first = min(ready, key=lambda p: (p.created, p.id))
            typed = list(first.check.dice_sides)
            failing.state = resolve_check(RULESET, failing.state, first.id, SeededSource(first.id), typed).state
    kinds = {p.check.kind for p in seen}
    purposes = {p.purpose for p in seen}
    assert kinds <= set(CONSEQUENCE_CHECK_KINDS) | {"gm.consciousness", "gm.death", "gm.awaken"}
    assert set(CONSEQUENCE_CHECK_KINDS) <= kinds
    ours = {p for p in purposes if not p.startswith(("consciousness", "death", "awaken"))}
    assert all(p.startswith("c.") for p in ours), ours
    timers = {t.kind for t in table.state.timers if not t.kind.startswith(("core.", "gm.round", "gm.death"))}
    assert all(k.startswith("gm.c.") for k in timers), timers


def test_seed_002_purposes_and_timers_are_its_sections_own() -> None:
    purposes = {c.purpose for s in SEED_002_SECTIONS for c in s.checks}
    timers = {t.kind for s in SEED_002_SECTIONS for t in s.timers}
    assert purposes and all(p.startswith("c.") for p in purposes), purposes
    assert timers and all(k.startswith("gm.c.") for k in timers), timers
    assert semi_conscious_limits().may_start == ("movement",)
