"""The simulation agrees with exact odds the engine itself computes.

Each exact distribution is worked out by brute force *through the engine*: every distinct die
result is fed to the ordinary, explained action with scripted dice, weighted by how often it
comes up, or taken from a check's own exact probability. The simulation (quiet engine path,
seeded dice, whole fights) must land within its intervals: 95% for the headline probability and
99.9% for each cell of a distribution (many cells are compared at once, so 95% each would fail
by chance now and then). The seeds are fixed, so these tests are deterministic.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

from rulekeeper.core import get_ruleset
from rulekeeper.core.action import Action
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.engine import add_character, apply_action, next_round
from rulekeeper.core.state import AutomationLevel, Settings
from rulekeeper.dice.source import ScriptedSource, SeededSource
from rulekeeper.sim import simulate
from rulekeeper.sim.stats import wilson

Z999 = 3.2905


def _agrees(result: Any, index: int, exact: dict[int, Fraction]) -> None:
    """Every health value's simulated frequency is within its 99.9% interval of the exact odds."""
    t = result.tally
    seen = t.health_counts[index]
    assert set(seen) <= set(exact), f"values the rules cannot produce: {set(seen) - set(exact)}"
    for hp, p in exact.items():
        est = wilson(seen.get(hp, 0), t.runs, Z999)
        assert est.low <= float(p) <= est.high, (hp, float(p), est)


# -- GURPS: one broadsword attack against a dodge, and the injury it does ---------------------------------

KNIGHT = {
    "st": 12,
    "dx": 12,
    "ht": 12,
    "skills": {"broadsword": 14},
    "weapons": [{"name": "broadsword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
}
DUMMY = {"dx": 10, "ht": 10, "hp": 30}  # Dodge 8; 30 HP so no hit is a major wound


def _gurps_exact() -> dict[int, Fraction]:
    ruleset = get_ruleset("gurps")
    state = ruleset.new_state()
    state = add_character(ruleset, state, "knight", KNIGHT)
    state = add_character(ruleset, state, "dummy", DUMMY)
    one = {s: next(f for f in itertools.product(range(1, 7), repeat=3) if sum(f) == s) for s in range(3, 19)}
    three = Counter(sum(f) for f in itertools.product(range(1, 7), repeat=3))
    out: Counter[int] = Counter()
    attack = Action("attack", "knight", {"target": "dummy", "defense": "dodge"})
    for a_sum, a_ways in three.items():
        for d_sum, d_ways in three.items():
            for dmg in range(1, 7):
                dice = ScriptedSource([*one[a_sum], *one[d_sum], dmg])
                after = apply_action(ruleset, state, attack, dice).state
                out[after.characters["dummy"].current_hp] += a_ways * d_ways
    total = 216 * 216 * 6
    return {hp: Fraction(n, total) for hp, n in out.items()}


def test_gurps_attack_against_dodge_matches_the_exact_injury_distribution() -> None:
    doc = {
        "format": 1,
        "system": "gurps",
        "sides": {"attackers": {"knight": KNIGHT}, "defenders": {"dummy": DUMMY}},
        "tactics": {"defenders": {"maneuver": "do-nothing", "defense": "dodge"}},
        "stop": {"until": "rounds", "rounds": 1},
    }
    exact = _gurps_exact()
    result = simulate(doc, 4000, seed=11, workers=0)
    unhurt = result.tally.status_of(1, "unhurt")
    assert unhurt.low <= float(exact[30]) <= unhurt.high
    _agrees(result, 1, exact)


# -- Wrath & Glory: a pool to hit, then damage against Resilience and Determination ---------------------------

ARI = {"tier": 1, "toughness": 3, "willpower": 3}  # Resilience 4: 7 damage is 3 Wounds
GUNNER = {"tier": 1, "toughness": 2, "willpower": 2}


def _wg_exact() -> dict[int, Fraction]:
    ruleset = get_ruleset("wg")
    state = add_character(ruleset, ruleset.new_state(), "ari", ARI)
    hit = PoolTest(kind="wg.attack", label="hit", pool=4, dn=3).probability()
    unhurt = state.characters["ari"].max_wounds
    out: Counter[int] = Counter({unhurt: 0})
    for faces in itertools.product(range(1, 7), repeat=3):  # Toughness 3: three Determination dice
        after = apply_action(ruleset, state, Action("damage", "ari", {"dice": "7"}), ScriptedSource(faces)).state
        c = after.characters["ari"]
        out[c.max_wounds - c.wounds] += 1
    exact = {hp: hit * Fraction(n, 216) for hp, n in out.items()}
    exact[unhurt] += 1 - hit
    return exact


def test_wrath_and_glory_hit_against_determination_matches_exact_odds() -> None:
    doc = {
        "format": 1,
        "system": "wg",
        "sides": {"defenders": {"ari": ARI}, "attackers": {"gunner": GUNNER}},
        "tactics": {"defenders": {"maneuver": "do-nothing"}, "attackers": {"hit": {"pool": 4, "dn": 3}, "damage": "7"}},
        "stop": {"until": "rounds", "rounds": 1},
    }
    exact = _wg_exact()
    result = simulate(doc, 3000, seed=5, workers=0)
    assert len(exact) >= 3  # the hit can miss, and Determination can save some Wounds or none
    unhurt = result.tally.status_of(0, "unhurt")
    top = max(exact)
    assert unhurt.low <= float(exact[top]) <= unhurt.high
    _agrees(result, 0, exact)


# -- Gods & Monsters: the death contest at the end of the round ---------------------------------------------

TOROMEEN = {
    "archetype": "warrior",
    "level": 2,
    "survival": 4,
    "max_survival": 7,
    "verve": 0,
    "max_verve": 17,
    "fortitude": 11,
    "endurance": 15,
}
BANDIT = {"archetype": "warrior", "level": 1, "survival": 4, "verve": 4}


def _gm_exact_dying() -> Fraction:
    """6 damage in combat: 2 injuries, a consciousness roll (d20), then the death contest's exact odds."""
    ruleset = get_ruleset("gm")
    settings = Settings(automation={"gm.death": AutomationLevel.PROMPT})
    state = add_character(ruleset, ruleset.new_state(settings), "toromeen", TOROMEEN)
    total = Fraction(0)
    hit = Action("damage", "toromeen", {"amount": 6, "in_combat": True})
    for v in range(1, 21):
        after = apply_action(ruleset, state, hit, ScriptedSource([v])).state
        end = next_round(ruleset, after, SeededSource(0)).state
        (death,) = [p for p in end.pending if p.check.kind == "gm.death"]
        total += death.check.probability() / 20
    return total


def test_gods_and_monsters_death_contest_matches_exact_odds() -> None:
    doc = {
        "format": 1,
        "system": "gm",
        "sides": {"heroes": {"toromeen": TOROMEEN}, "bandits": {"bandit": BANDIT}},
        "tactics": {"heroes": {"maneuver": "do-nothing"}, "bandits": {"damage": "6"}},
        "stop": {"until": "rounds", "rounds": 1},
    }
    exact = _gm_exact_dying()
    assert 0 < exact < 1
    result = simulate(doc, 4000, seed=3, workers=0)
    dying = result.tally.status_of(0, "dying")
    assert dying.low <= float(exact) <= dying.high, (float(exact), dying)
    assert result.tally.status_of(0, "dead").value == 0.0
