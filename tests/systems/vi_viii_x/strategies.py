"""Hypothesis strategies: VI·VIII·X sheets with distinctive unknown stats, and histories of play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from rulekeeper.core import Action, GameState, Outcome, advance, apply_action, resolve_check
from rulekeeper.core.clock import DAY
from rulekeeper.dice.source import DiceSource, SeededSource
from rulekeeper.errors import RulesError
from rulekeeper.systems.vi_viii_x import Character
from rulekeeper.systems.vi_viii_x.states import GM_STATES

from .helpers import RULESET

KS = ("BU", "CO", "IN", "EM")
SKILLS = ("stamina", "body-control", "education-medicine", "education-alchemy", "education-literature")
AILMENTS = ("pox", "nightshade")
ACTORS = ("a", "b")

# Unknown-stat names no public text contains: they start with Q and use letters no field name has.
us_names = st.text(alphabet="QXZJ", min_size=2, max_size=5).map(lambda s: "Q" + s)


@st.composite
def sheets(
    draw: st.DrawFn, *, ks_values: tuple[int, int] = (1, 10), us_values: tuple[int, int] = (1, 10)
) -> dict[str, Any]:
    """A sheet with 1-4 unknown stats under random KS (VIG under BU sometimes) and skills on them."""
    sheet: dict[str, Any] = {}
    for ks in KS:
        original = draw(st.integers(*ks_values))
        sheet[ks] = {"original": original, "current": draw(st.integers(1, original))}
    names = draw(st.lists(us_names, min_size=1, max_size=4, unique=True))
    us: dict[str, Any] = {}
    if draw(st.booleans()):
        us["VIG"] = {"value": draw(st.integers(*us_values))}
    for name in names:
        original = draw(st.integers(*us_values))
        # Lowered US values stay in the same range, so a test can keep every US value distinctive.
        current = draw(st.integers(0 if us_values[0] == 1 else us_values[0], original))
        us[name] = {"ks": draw(st.sampled_from(KS)), "value": original, "current": current}
    sheet["us"] = us
    sheet["es"] = {
        skill: {"us": draw(st.sampled_from(sorted(us))), "level": draw(st.integers(1, 10))}
        for skill in draw(st.lists(st.sampled_from(SKILLS), unique=True, max_size=3))
    }
    sheet["som"] = draw(st.integers(1, 10))
    sheet["agility"] = draw(st.one_of(st.none(), st.integers(0, 12)))
    return sheet


def _op(name: str, params: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[tuple[str, str, dict[str, Any]]]:
    return st.tuples(st.just(name), st.sampled_from(ACTORS), params)


_damage_target = st.sampled_from(
    [("physical", "bu"), ("physical", "co"), ("mental", "in"), ("mental", "em"), ("other", "em")]
)
OPS = st.one_of(
    _op(
        "damage",
        st.builds(lambda a, t: {"amount": a, "kind": t[0], "ks": t[1]}, st.integers(0, 9), _damage_target),
    ),
    _op("heal", st.fixed_dictionaries({"amount": st.integers(0, 9), "source": st.sampled_from(["magic", "other"])})),
    _op("potion", st.fixed_dictionaries({"days": st.integers(1, 3)})),
    _op("rest", st.fixed_dictionaries({"kind": st.sampled_from(["total", "basic", "active"])})),
    _op("fall", st.fixed_dictionaries({"metres": st.integers(0, 12)})),
    _op("deprive", st.fixed_dictionaries({"kind": st.sampled_from(["food", "water"]), "days": st.integers(0, 3)})),
    _op("nourish", st.fixed_dictionaries({"kind": st.sampled_from(["food", "water"])})),
    _op(
        "afflict",
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(AILMENTS),
                "kind": st.sampled_from(["disease", "poison"]),
                "amount": st.integers(0, 4),
                "ks": st.sampled_from(["bu", "co", "in", "em"]),
            }
        ),
    ),
    _op(
        "cure", st.fixed_dictionaries({"ailment": st.sampled_from(AILMENTS), "threshold": st.sampled_from(["3", "9"])})
    ),
    _op("exert", st.fixed_dictionaries({"turns": st.integers(1, 5)})),
    _op("stun", st.fixed_dictionaries({"threshold": st.sampled_from(["easy", "hard"])})),
    _op("state", st.fixed_dictionaries({"kind": st.sampled_from(GM_STATES), "modifier": st.integers(-2, 0)})),
    _op("som", st.fixed_dictionaries({"value": st.integers(1, 10)})),
    _op("burden", st.fixed_dictionaries({"kind": st.sampled_from(["none", "light", "full", "overloaded"])})),
    _op("arc", st.fixed_dictionaries({"skill": st.sampled_from(SKILLS), "threshold": st.sampled_from(["easy", "9"])})),
    _op("arc", st.fixed_dictionaries({"ks": st.sampled_from(["bu", "em"]), "opponent_stats": st.integers(0, 15)})),
    _op("climb", st.fixed_dictionaries({"threshold": st.just("easy")})),
    _op("jump", st.fixed_dictionaries({})),
    st.tuples(st.just("advance"), st.just(""), st.fixed_dictionaries({"seconds": st.sampled_from([6, 60, DAY])})),
    st.tuples(st.just("resolve"), st.just(""), st.fixed_dictionaries({})),
)
histories = st.lists(OPS, min_size=1, max_size=20)


def step(state: GameState[Character], op: tuple[str, str, dict[str, Any]], dice: DiceSource) -> GameState[Character]:
    """Apply one history step; a step the rules refuse (or that does not fit the sheet) changes nothing."""
    name, actor, params = op
    outcome: Outcome[Character]
    try:
        if name == "advance":
            outcome = advance(RULESET, state, params["seconds"], dice)
        elif name == "resolve":
            if not state.pending:
                return state
            outcome = resolve_check(RULESET, state, state.pending[-1].id, dice)
        else:
            outcome = apply_action(RULESET, state, Action(name, actor, params), dice)
    except RulesError:
        return state
    return outcome.state


def play_history(
    state: GameState[Character], ops: Sequence[tuple[str, str, dict[str, Any]]], seed: int
) -> list[GameState[Character]]:
    """Every state along a history, each step with dice seeded from ``seed`` and its index."""
    states = [state]
    for i, op in enumerate(ops):
        state = step(state, op, SeededSource(f"{seed}:{i}"))
        states.append(state)
    return states
