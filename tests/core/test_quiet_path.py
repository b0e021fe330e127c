"""``explain=False`` (the simulation's engine path) runs the same rules on the same dice, unexplained."""

from __future__ import annotations

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.core.action import Action
from rulekeeper.core.engine import add_character, apply_action, next_round
from rulekeeper.dice.source import SeededSource

CASES = [
    ("gurps", {"hp": 10, "ht": 10}, Action("damage", "x", {"dice": "3d+2", "damage_type": "cut"})),
    ("gm", {"archetype": "warrior", "level": 1, "survival": 2, "verve": 0}, Action("damage", "x", {"amount": 9})),
    ("wg", {"tier": 1, "toughness": 2, "willpower": 2}, Action("damage", "x", {"dice": "2d6+6"})),
    ("6810", {"name": "X", "BU": 3, "CO": 4, "IN": 4, "EM": 4}, Action("damage", "x", {"amount": 4})),
]


@pytest.mark.parametrize(("system", "sheet", "action"), CASES)
def test_same_state_and_result_without_the_explanation(system: str, sheet: dict[str, object], action: Action) -> None:
    ruleset = get_ruleset(system)
    start = add_character(ruleset, ruleset.new_state(), "x", sheet)
    for seed in range(12):
        loud = apply_action(ruleset, start, action, SeededSource(seed))
        quiet = apply_action(ruleset, start, action, SeededSource(seed), explain=False)
        assert quiet.state == loud.state and quiet.result == loud.result and quiet.events == loud.events
        assert loud.explanation and not quiet.explanation
        loud_end = next_round(ruleset, loud.state, SeededSource(seed))
        quiet_end = next_round(ruleset, quiet.state, SeededSource(seed), explain=False)
        assert quiet_end.state == loud_end.state and not quiet_end.explanation
