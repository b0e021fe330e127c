"""The ruleset behind the core protocol: names, actions and their parameters, check kinds, citations."""

from __future__ import annotations

import ast
from pathlib import Path

import rulekeeper.systems.vi_viii_x as package
from rulekeeper.core import Step, get_ruleset
from rulekeeper.systems.vi_viii_x import ViViiiXRuleset

from .helpers import ADEPT, RULESET, Table, face

SOURCE = Path(package.__file__).parent


def test_found_by_name_and_aliases() -> None:
    for name in ("vi-viii-x", "6810", "VI_VIII_X", "kup"):
        assert isinstance(get_ruleset(name), ViViiiXRuleset)
    assert RULESET.round_seconds == 6 and RULESET.title == "VI·VIII·X"
    assert set(package.__all__) == {"Character", "PlayerCharacterView", "ViViiiXRuleset"}


def test_every_action_explains_itself() -> None:
    specs = RULESET.actions()
    assert {"damage", "heal", "rest"} <= set(specs)
    assert specs["damage"].kind == "damage" and specs["heal"].kind == "heal" and specs["rest"].kind == "rest"
    assert specs["rest"].param("kind").choices == RULESET.rest_kinds
    for spec in specs.values():
        assert (spec.help and "VIII" in spec.help) or spec.name in {"arc", "player_view"}
        for p in spec.params:
            assert p.help, (spec.name, p.name)
            assert p.name == p.name.lower() and " " not in p.name
            assert p.name not in {"dice", "actor", "key"}
    assert specs["damage"].param("amount").minimum == 0


def test_every_check_kind_asked_for_is_declared() -> None:
    declared = set(RULESET.check_kinds)
    used: set[str] = set()
    for path in SOURCE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.keyword)
                and node.arg == "kind"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
                and node.value.value in {k.split(".")[1] for k in declared}
            ):
                used.add(f"vi-viii-x.{node.value.value}")
    assert used <= declared
    # And every declared kind really occurs in a check made in play.
    table = Table({"adept": ADEPT, "doc": ADEPT})
    made: set[str] = set()
    for name, params, dice in [
        ("arc", {"threshold": 3}, [face(0)]),
        ("reaction", {"threshold": 3}, [face(0)]),
        ("climb", {"threshold": 3}, [face(0)]),
        ("fall", {"metres": 4}, [face(0)]),
    ]:
        made.update(c.kind for c in table.act(name, "adept", dice=dice, **params).checks)
    table.act("afflict", "adept", name="pox", amount=1)
    made.update(c.kind for c in table.act("cure", "adept", dice=[face(0)], ailment="pox", threshold=3).checks)
    table.act("exert", "adept")
    made.update(c.kind for c in table.turns(1, dice=[face(0)]).checks)
    table.act("state", "adept", kind="blind")
    made.update(c.kind for c in table.act("sight", "adept", dice=[1]).checks)
    made.update(c.kind for c in table.act("stun", "adept", dice=[face(0)], threshold=3).checks)
    # plain rolls (a potion's 2d3) are checks too; left for the table they show their kind
    rolled_by_table = Table({"adept": ADEPT}, automation={"vi-viii-x.recovery": "prompt"})
    made.update(p.check.kind for p in rolled_by_table.act("potion", "adept").pending)
    assert made == declared


def test_rule_options_have_defaults_and_the_table_is_marked_a_placeholder() -> None:
    options = {p.name: p for p in RULESET.rule_options}
    assert options["roll_modifier_table"].default == tuple(range(-3, 11))
    assert "PLACEHOLDER" in options["roll_modifier_table"].help
    assert all(p.default is not None and p.help for p in RULESET.rule_options)


def test_every_explained_step_cites_seed_001_or_the_brief() -> None:
    table = Table({"adept": ADEPT})
    steps: list[Step] = []
    steps += table.act("fall", "adept", metres=7, dice=[face(0)]).explanation
    steps += table.act("damage", "adept", amount=12).explanation
    steps += table.turns(1).explanation
    steps += table.act("deprive", "adept", kind="water").explanation
    steps += table.wait(3 * 86400).explanation
    ours = [s for s in steps if s.rule.system == "vi-viii-x"]
    assert ours and len(ours) >= len(steps) - 6  # the rest are the core clock's own lines
    for s in ours:
        assert (s.rule.seed == "001" and s.rule.page and s.rule.page.startswith("VI·VIII·X core VIII.")) or (
            "rules brief" in s.rule.section
        ), s
