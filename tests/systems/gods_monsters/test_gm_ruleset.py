"""The ruleset as a whole: registry, action specs, check kinds, view, calculators."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters import GodsMonstersRuleset
from rulekeeper.systems.gods_monsters.actions import SEED_000_ACTIONS
from rulekeeper.systems.gods_monsters.calculators import SEED_000_CALCULATORS
from rulekeeper.systems.gods_monsters.ruleset import SEED_000_SECTIONS

from .helpers import RULESET, TOROMEEN, Table

SEED_000_CHECK_KINDS = {k.kind for s in SEED_000_SECTIONS for k in s.check_kinds}


def test_found_by_name_and_aliases() -> None:
    for name in ("gods-and-monsters", "gm", "gods_monsters", "GM"):
        assert isinstance(get_ruleset(name), GodsMonstersRuleset)
    assert RULESET.round_seconds == 10
    assert RULESET.rest_kinds == ("night", "day")


def test_every_action_and_param_is_documented() -> None:
    actions = RULESET.actions()
    assert set(SEED_000_ACTIONS) <= set(actions)
    for spec in actions.values():
        assert spec.help and spec.name.replace("_", "").isalnum()
        for param in spec.params:
            assert param.help, f"{spec.name}.{param.name} has no help"
            assert param.name == param.name.lower()
    kinds = {spec.name: spec.kind for spec in SEED_000_ACTIONS.values()}
    assert kinds["damage"] == "damage" and kinds["heal"] == "heal" and kinds["rest"] == "rest"
    assert actions["damage"].param("amount").minimum == 0


def test_check_kinds_cover_seed_000() -> None:
    assert set(SEED_000_CHECK_KINDS) <= set(RULESET.check_kinds)
    assert all(kind.startswith("gm.") for kind in RULESET.check_kinds)


def test_every_check_asked_for_is_declared() -> None:
    table = Table({"t": {**TOROMEEN, "survival": 0, "verve": 0}}, automation={"*": "prompt"})
    table.act("damage", "t", amount=3)
    table.act("roll", "t", against="wisdom")
    table.wait(10)
    kinds = {p.check.kind for p in table.state.pending}
    # The end of the round waits for the rolls dated before it (roll_rules 5): the death check is
    # asked once they are in.
    assert kinds == {"gm.consciousness", "gm.roll"}
    for kind in ("gm.consciousness", "gm.roll"):
        [waiting] = [p for p in table.state.pending if p.check.kind == kind]
        table.resolve([20], waiting.id)
    kinds |= {p.check.kind for p in table.state.pending}
    assert kinds == {"gm.consciousness", "gm.roll", "gm.death"}
    assert kinds <= set(RULESET.check_kinds)


def test_view_lists_stored_and_derived_values() -> None:
    table = Table({"g": {"archetype": "sorceror", "level": 5, "survival": 9, "injuries": 2, "verve": 4}})
    view = table.view("g")
    for key in (
        "survival",
        "max_survival",
        "verve",
        "max_verve",
        "injuries",
        "injury_penalty",
        "mojo",
        "movement",
        "fields",
        "bonus_pool",
        "max_spell_level",
        "roll_targets",
        "conditions",
        "is_npc",
        "death_in",
        "dying_unit",
        "strength",
        "health",
    ):
        assert key in view
    assert view["max_spell_level"] == 3 and view["roll_targets"]["reason"] == 8
    assert Table({"t": TOROMEEN}).view("t")["max_spell_level"] is None


def test_unknown_action_and_bad_params() -> None:
    table = Table({"t": TOROMEEN})
    with pytest.raises(InputError, match="unknown"):
        table.act("fly_away", "t")
    with pytest.raises(InputError, match="one of night, day"):
        table.act("rest", "t", kind="week")
    with pytest.raises(InputError, match="contribution"):
        table.act("heroic_last_effort", "t", against="strength", contributions="gralen")


def _calc(name: str, **params: Any) -> dict[str, Any]:
    from rulekeeper.core import validate_params

    spec = RULESET.calculators()[name]
    result = spec.compute(validate_params(spec.params, params, name))
    assert result.steps
    return dict(result.values)


def test_calculators() -> None:
    assert set(SEED_000_CALCULATORS) <= set(RULESET.calculators())
    assert _calc("spell_cap", level=5, injuries=2)["max_spell_level"] == 3
    hit = _calc("damage", amount=7, survival=7, verve=6, archetypal=True)
    assert (hit["verve"], hit["survival"], hit["injuries"]) == (0, 6, 0)
    hit = _calc("damage", amount=6, survival=4)
    assert hit["injuries"] == 2 and hit["consciousness_roll"] is True
    npc = _calc("npc", level=4, archetype="warrior")
    assert npc == {"endurance": 12, "survival_dice": "4d10", "average_survival": 22.0, "verve": 0}
    death = _calc("death", injuries=2, endurance=15)
    # injuries roll 1-2 (2/20) and endurance fails above 13 (7/20)
    assert death["chance_of_dying_exact"] == "7/200" and death["dying_time"] == 13
    assert _calc("death", injuries=2, endurance=15, unconscious=True)["dying_unit"] == "hours"
    rest = _calc("night_rest", level=2, survival=2, max_survival=7, health=12)
    assert rest["on_success"] == {"survival": 4, "injuries": 0}
    assert rest["on_failure"] == {"survival": 3, "injuries": 0}
    with pytest.raises(InputError):
        _calc("night_rest", level=2, survival=9, max_survival=7)


def test_seed_002_roll_modifiers_reach_seed_000_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekeeper.core.check import Modifier

    def fake_modifiers(state: Any, actor: str, score: str) -> tuple[Modifier, ...]:
        return (Modifier(-1, "alcohol"),) if score == "fortitude" else ()

    # seed 002 hooks its modifiers in through the ruleset, which gm_roll asks.
    monkeypatch.setattr(RULESET, "roll_modifiers", fake_modifiers)
    table = Table({"t": {**TOROMEEN, "survival": 1, "verve": 0}})
    table.act("damage", "t", amount=3, dice=[8])
    assert "fortitude 11 (-1 alcohol, -2 2 injuries) = 8 or less on d20: rolled 8, succeeds" in table.text


def test_shock_tells_seed_002_the_character_passed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulekeeper.systems.gods_monsters import conditions as cond

    heard: list[str] = []
    # dying announces the shock's start to the ruleset, where seed 002's sections hook in.
    monkeypatch.setattr(
        RULESET,
        "on_condition_start",
        lambda play, condition: heard.append(condition.actor) if condition.name == cond.SHOCK else None,
    )
    table = Table({"t": {**TOROMEEN, "survival": 0, "verve": 0}})
    table.act("damage", "t", amount=2, phantasmal=True, dice=[5])
    table.wait(10, dice=[1, 20])
    assert table.has("t", "shock") and heard == ["t"]
