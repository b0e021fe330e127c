"""Mental feats (seed 004, "Mental Feats"): reaction table, influence outcomes, fright durations."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, Reaction, influence_reaction, reaction_for
from rulekeeper.systems.gurps.feats.influence_table import INFLUENCE_SKILLS
from rulekeeper.systems.gurps.feats.will import faint_minutes, stun_seconds


@pytest.mark.parametrize(
    ("total", "reaction"),
    [
        (-3, Reaction.DISASTROUS),
        (0, Reaction.DISASTROUS),
        (1, Reaction.VERY_BAD),
        (3, Reaction.VERY_BAD),
        (4, Reaction.BAD),
        (6, Reaction.BAD),
        (7, Reaction.POOR),
        (9, Reaction.POOR),
        (10, Reaction.NEUTRAL),
        (12, Reaction.NEUTRAL),
        (13, Reaction.GOOD),
        (15, Reaction.GOOD),
        (16, Reaction.VERY_GOOD),
        (18, Reaction.VERY_GOOD),
        (19, Reaction.EXCELLENT),
        (25, Reaction.EXCELLENT),
    ],
)
def test_reaction_table_boundaries(total: int, reaction: Reaction) -> None:
    assert reaction_for(total) is reaction


def test_influence_outcomes_per_skill() -> None:
    wins = {k: influence_reaction(k, True) for k in INFLUENCE_SKILLS}
    losses = {k: influence_reaction(k, False) for k in INFLUENCE_SKILLS}
    assert wins == {
        "diplomacy": Reaction.GOOD,
        "fast-talk": Reaction.GOOD,
        "intimidation": Reaction.GOOD,
        "savoir-faire": Reaction.GOOD,
        "sex-appeal": Reaction.VERY_GOOD,
        "streetwise": Reaction.GOOD,
    }
    assert losses["intimidation"] is Reaction.VERY_BAD
    assert {v for k, v in losses.items() if k != "intimidation"} == {Reaction.BAD}


def test_diplomacy_takes_the_better_of_two_and_only_diplomacy() -> None:
    assert influence_reaction("diplomacy", False, 17) is Reaction.VERY_GOOD
    assert influence_reaction("diplomacy", True, 2) is Reaction.GOOD
    assert influence_reaction("fast-talk", False, 17) is Reaction.BAD


def test_unknown_influence_skill() -> None:
    with pytest.raises(InputError):
        influence_reaction("charm", True)


def test_fright_durations() -> None:
    assert stun_seconds(3, 7) == 10
    assert faint_minutes(10, 2) == 12
    assert stun_seconds(-1, 5) == 5  # a 17 against Will 18 fails with no margin below the target


def test_reaction_calculator() -> None:
    out = FEAT_CALCULATORS["reaction"].calculate({"roll": 11, "modifier": 2})
    assert out.values == {"total": 13, "reaction": "good"}
