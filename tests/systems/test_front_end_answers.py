"""What each system tells the front ends: vitals, standing, odds, the roll to hit, parameter roles."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core import Settings, get_ruleset, system_names
from rulekeeper.core.combat import HitCheck
from rulekeeper.core.engine import add_character
from rulekeeper.core.play import Play
from rulekeeper.dice.source import ScriptedSource

SHEETS: dict[str, dict[str, Any]] = {
    "gurps": {"name": "Brakka", "st": 12, "dx": 12, "ht": 12},
    "gods-and-monsters": {"name": "Toromeen", "survival": 7, "verve": 17, "injuries": 2},
    "wrath-and-glory": {"name": "Ari", "toughness": 3, "willpower": 3},
    "vi-viii-x": {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}},
}


def _state(system: str, settings: Settings | None = None) -> Any:
    ruleset = get_ruleset(system)
    return ruleset, add_character(ruleset, ruleset.new_state(settings), "x", SHEETS[system])


def _labels(system: str, *, npc: bool = False) -> list[str]:
    ruleset, state = _state(system)
    shown = ruleset.vitals(ruleset.view(state, "x"), npc=npc)
    return [b.label for b in shown.bars] + [s.label for s in shown.stats]


def test_a_gurps_card_shows_attributes_and_active_defenses() -> None:
    labels = _labels("gurps")
    assert {"HP", "FP", "ST", "DX", "IQ", "HT", "Move", "Dodge", "DR"} <= set(labels)
    assert "Block" not in labels  # no shield on the sheet: nothing to show


def test_a_wrath_and_glory_npc_shows_no_wrath() -> None:
    assert {"Wounds", "Shock", "Wrath", "Resilience"} <= set(_labels("wrath-and-glory"))
    assert "Wrath" not in _labels("wrath-and-glory", npc=True)
    ruleset, state = _state("wrath-and-glory")
    assert "Wrath" not in ruleset.vitals(ruleset.view(state, "x"), npc=True).line


@pytest.mark.parametrize("system", list(SHEETS))
def test_every_system_says_how_a_character_stands_and_shows_a_status_line(system: str) -> None:
    ruleset, state = _state(system)
    standing = ruleset.standing(state, "x")
    assert standing.level in ("unhurt", "wounded") and not standing.out
    assert ruleset.vitals(ruleset.view(state, "x")).line
    assert ruleset.vitals({}).line == ""  # a view without the fields shows nothing, never fails


@pytest.mark.parametrize("system", list(SHEETS))
def test_every_system_states_the_odds_of_its_check(system: str) -> None:
    ruleset = get_ruleset(system)
    values = {"target": 10, "modifier": 0, "pool": 4, "dn": 3, "wrath_dice": 1, "threshold": 14}
    taken = {p.name: values[p.name] for p in ruleset.odds_params}
    if "pool" in taken:
        taken.pop("target")
    odds = ruleset.odds(taken)
    assert 0 < odds.check.probability() < 1
    assert abs(sum(p for _, p in odds.rows) - 1) < 1e-9


def test_a_simulated_gods_and_monsters_attack_is_rolled_as_the_table_rolls() -> None:
    """The injury penalty and the natural-extremes option apply to the roll to hit (issue 24: the
    simulation's hits bypassed gm_roll)."""
    settings = Settings(options={"natural_extremes": True})
    ruleset, state = _state("gods-and-monsters", settings)
    check = ruleset.combat().hit_check(Play(ruleset, state, ScriptedSource([1])), "x", HitCheck(score=5))
    assert check.natural_extremes and check.target == 5 - 2
    assert check.resolve(ScriptedSource([1])).success  # a natural 1, under the injured target


def test_parameters_that_name_a_character_or_override_the_rules_say_so() -> None:
    named = {"target", "targets", "subject", "other", "quarry", "healer", "characters", "surprised", "helpers"}
    seen_names, seen_overrides = set(), set()
    for system in system_names():
        for spec in get_ruleset(system).actions().values():
            for p in spec.params:
                if p.kind == "character" or p.name in named:
                    assert p.names_character, (system, spec.name, p.name)
                    seen_names.add(p.name)
                if p.overrides_rules:
                    seen_overrides.add(p.name)
    assert named <= seen_names
    assert {"damage", "skill", "dr", "injury", "unaware", "threshold", "roll_modifier"} <= seen_overrides


def test_a_gurps_fight_order_is_told_by_the_rules() -> None:
    from rulekeeper.core import Action, apply_action

    ruleset, state = _state("gurps")
    state = add_character(ruleset, state, "y", {"name": "Varl", "dx": 14})
    assert ruleset.turn_order(state, {a: ruleset.view(state, a) for a in state.characters}) == ([], None)
    state = apply_action(ruleset, state, Action("start_combat", None, {}), ScriptedSource([])).state
    views = {a: ruleset.view(state, a) for a in state.characters}
    order, current = ruleset.turn_order(state, views)
    assert order == ["y", "x"] and current == "y"  # the higher Basic Speed acts first
    assert {c.name for c in state.conditions} & ruleset.bookkeeping_conditions == {"in combat"}
