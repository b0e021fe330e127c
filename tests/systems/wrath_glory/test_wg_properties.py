"""Hypothesis properties: Determination's cap, Dying exactly above Max Wounds, exact replays, floors."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from wg_helpers import RULESET, act, condition_names, state_with, view

from rulekeeper.core import GameState, advance
from rulekeeper.core.serial import state_to_json
from rulekeeper.dice import ScriptedSource
from rulekeeper.dice.source import FallbackSource, RecordingSource, SeededSource
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.wrath_glory import WrathGloryCharacter

faces = st.integers(min_value=1, max_value=6)


@given(
    toughness=st.integers(1, 8),
    wounds=st.integers(1, 25),
    dice=st.lists(faces, min_size=8, max_size=8),
    tier=st.integers(1, 5),
)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_determination_never_converts_more_than_suffered(
    toughness: int, wounds: int, dice: list[int], tier: int
) -> None:
    state = state_with({"ari": {"tier": tier, "toughness": toughness, "willpower": 2, "resilience": 0}})
    source = FallbackSource(ScriptedSource(dice[:toughness]), SeededSource(sum(dice)))
    out = act(state, "damage", rolls=source, amount=wounds)
    icons = sum({4: 1, 5: 1, 6: 2}.get(d, 0) for d in dice[:toughness])
    converted = out.result["wounds_converted"]
    assert converted <= wounds
    assert converted == min(icons, wounds)
    assert out.result["wounds_suffered"] == wounds - converted
    assert view(out.state)["shock"] == converted


Op = tuple[str, str, dict[str, Any]]

ops = st.one_of(
    st.tuples(
        st.just("damage"), st.sampled_from(["ari", "bex"]), st.fixed_dictionaries({"amount": st.integers(0, 30)})
    ),
    st.tuples(
        st.just("damage"),
        st.sampled_from(["ari", "bex"]),
        st.fixed_dictionaries({"amount": st.integers(0, 12), "mortal": st.just(True)}),
    ),
    st.tuples(st.just("heal"), st.sampled_from(["ari", "bex"]), st.fixed_dictionaries({"wounds": st.integers(1, 8)})),
    st.tuples(st.just("shock"), st.sampled_from(["ari", "bex"]), st.fixed_dictionaries({"amount": st.integers(0, 4)})),
    st.tuples(
        st.just("test"),
        st.sampled_from(["ari", "bex"]),
        st.fixed_dictionaries({"pool": st.integers(1, 6), "dn": st.integers(0, 6)}),
    ),
    st.tuples(st.just("restore_shock"), st.sampled_from(["ari", "bex"]), st.just({})),
    st.tuples(
        st.just("rest"),
        st.sampled_from(["ari", "bex"]),
        st.fixed_dictionaries({"kind": st.sampled_from(["regroup", "respite"])}),
    ),
    st.tuples(
        st.just("rest"), st.just("ari"), st.fixed_dictionaries({"kind": st.just("regroup"), "healer": st.just("bex")})
    ),
    st.tuples(
        st.just("roll_injury"),
        st.sampled_from(["ari", "bex"]),
        st.fixed_dictionaries({"table": st.sampled_from(["memorable", "traumatic"])}),
    ),
    st.tuples(st.just("strenuous"), st.sampled_from(["ari", "bex"]), st.just({})),
    st.tuples(
        st.just("advance"), st.just(""), st.fixed_dictionaries({"seconds": st.sampled_from([6, 3600, 7 * 3600])})
    ),
)

SHEETS = {
    "ari": {"tier": 2, "rank": 2, "toughness": 3, "willpower": 3, "armour": 1},
    "bex": {"tier": 1, "toughness": 4, "willpower": 2, "intellect": 3, "medicae": 1},
}


def run(
    steps: list[Op], dice_for: list[Any]
) -> tuple[list[GameState[WrathGloryCharacter]], list[tuple[int, ...] | None]]:
    """Apply ``steps``; ``dice_for[i]`` is a seed (record the dice) or recorded dice (replay them)."""
    state = state_with(SHEETS)
    states = []
    recorded: list[tuple[int, ...] | None] = []
    for (name, actor, params), dice in zip(steps, dice_for, strict=True):
        source = RecordingSource(SeededSource(dice) if isinstance(dice, int) else ScriptedSource(dice))
        try:
            if name == "advance":
                state = advance(RULESET, state, params["seconds"], source).state
            else:
                state = act(state, name, actor=actor, rolls=source, **params).state
            recorded.append(source.values)
        except RuleRefusal:
            recorded.append(source.values)
        states.append(state)
    return states, recorded


def check_invariants(state: GameState[WrathGloryCharacter]) -> None:
    for actor, c in state.characters.items():
        assert c.wounds >= 0 and c.shock >= 0 and c.wrath >= 0
        names = condition_names(state, actor)
        if c.dead:
            assert names & {"dying", "wounded", "exhausted"} == set() and "dead" in names
            continue
        # Dying holds exactly when Wounds exceed Max Wounds, unless a heal since then ended it.
        assert ("dying" in names) == (c.wounds > c.max_wounds and not c.dying_ended) == view(state, actor)["dying"]
        assert not c.dying_ended or c.wounds > c.max_wounds
        assert ("wounded" in names) == (c.wounds > 0)
        assert ("exhausted" in names) == (c.shock > c.max_shock)
        assert c.traumatic_count() <= c.tier + 1
        if "dying" in names:
            assert "prone" in names and c.memorable_injuries  # no standing up while Dying


@given(steps=st.lists(ops, min_size=1, max_size=25), seed=st.integers(0, 10_000))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_dying_follows_wounds_and_heals_and_replays_are_exact(steps: list[Op], seed: int) -> None:
    states, recorded = run(steps, [seed + i for i in range(len(steps))])
    for state in states:
        check_invariants(state)
    dying = any(c.dying for s in states for c in s.characters.values())
    dead = any(c.dead for s in states for c in s.characters.values())
    event(f"reached Dying: {dying}, death: {dead}")
    replayed, _ = run(steps, list(recorded))
    assert [state_to_json(RULESET, s) for s in replayed] == [state_to_json(RULESET, s) for s in states]
