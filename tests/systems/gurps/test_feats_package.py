"""The feats package's public surface: what the GURPS ruleset merges in and delegates to."""

from __future__ import annotations

import re

import pytest

import rulekeeper.systems.gurps.feats as feats
from rulekeeper.core import PendingCheck, SuccessRoll, Timer, get_ruleset
from rulekeeper.errors import UnknownNameError
from rulekeeper.systems.gurps.feats import (
    _CHECK_HANDLERS,
    _TIMER_HANDLERS,
    FEAT_ACTIONS,
    FEAT_CALCULATORS,
    FEAT_CHECK_KINDS,
)

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")


def test_every_name_in_all_exists() -> None:
    for name in feats.__all__:
        assert hasattr(feats, name), name


def test_actions_and_calculators_offered() -> None:
    assert set(FEAT_ACTIONS) == {
        "climb",
        "hike",
        "jump",
        "lift",
        "carry",
        "run",
        "swim",
        "throw",
        "stop_feat",
        "sense",
        "influence",
        "will_roll",
        "fright_check",
        "attribute_roll",  # issue #25: a DX or IQ roll that carries shock
        "skill_roll",  # issue #25: a roll against a skill on the sheet (shock on DX and IQ ones; #27's taps)
    }
    assert set(FEAT_CALCULATORS) == {"climb", "hike", "jump", "lift", "run", "swim", "throw", "reaction"}


@pytest.mark.parametrize("spec", [*FEAT_ACTIONS.values(), *FEAT_CALCULATORS.values()], ids=lambda s: s.name)
def test_params_are_snake_case_and_explained(spec: object) -> None:
    for param in spec.params:  # type: ignore[attr-defined]
        assert SNAKE.match(param.name), param.name
        assert param.help, param.name
        if param.kind == "choice":
            assert param.choices and (param.default is None or param.default in param.choices)
    assert spec.help  # type: ignore[attr-defined]


def test_purposes_and_timer_kinds_are_namespaced() -> None:
    assert all(p.startswith("feat.") for p in _CHECK_HANDLERS)
    assert all(k.startswith("gurps.feat.") for k in _TIMER_HANDLERS)


def test_check_kinds_are_gurps_kinds_with_descriptions() -> None:
    assert {
        "gurps.climbing",
        "gurps.hiking",
        "gurps.ht.running",
        "gurps.swimming",
        "gurps.ht.swimming",
        "gurps.throwing",
        "gurps.throwing.damage",
        "gurps.sense.vision",
        "gurps.sense.hearing",
        "gurps.sense.taste-smell",
        "gurps.sense.comprehension",
        "gurps.sense.danger",
        "gurps.influence",
        "gurps.will",
        "gurps.fright",
        "gurps.fright.stun",
        "gurps.fright.faint",
        "gurps.attribute",
        "gurps.skill",
        "gurps.reaction",
    } == set(FEAT_CHECK_KINDS)
    assert all(k.startswith("gurps.") and v for k, v in FEAT_CHECK_KINDS.items())


def test_unknown_purpose_or_timer_is_reported_by_name() -> None:
    pending = PendingCheck(1, SuccessRoll("gurps.will", "x", 10), "feat.nothing", None, 0)
    # The ruleset's sections dispatch (the feats' section is loaded for a ``feat.`` purpose).
    ruleset = get_ruleset("gurps")
    with pytest.raises(UnknownNameError, match=r"feat\.nothing"):
        ruleset.on_check(None, pending, None)  # type: ignore[arg-type]
    with pytest.raises(UnknownNameError, match=r"gurps\.feat\.nothing"):
        ruleset.on_timer(None, Timer(1, 0, "gurps.feat.nothing", "x"))  # type: ignore[arg-type]


def test_every_calculator_cites_seed_004() -> None:
    for spec in FEAT_CALCULATORS.values():
        assert spec.rule is not None and spec.rule.seed == "004"


def test_the_ruleset_offers_core_and_feat_actions_loading_feats_only_when_asked() -> None:
    from rulekeeper.systems.gurps.actions import CORE_ACTIONS
    from rulekeeper.systems.gurps.ruleset import GurpsRuleset

    actions = GurpsRuleset().actions()
    assert not set(CORE_ACTIONS) & set(FEAT_ACTIONS)  # a core name never hides a feat's
    assert dict(actions) == {**CORE_ACTIONS, **FEAT_ACTIONS}
    assert actions["damage"] is CORE_ACTIONS["damage"] and actions["jump"] is FEAT_ACTIONS["jump"]
    assert actions.get("fly") is None and "fly" not in actions
