"""Undo in every real system: the consequences of an undone hit disappear with it.

Characters and dice follow each system's own scenario files (tests/scenarios/<system>/).
"""

from __future__ import annotations

import pytest
from campaign_fuzz import landed_systems

from rulekeeper.campaign import Campaign, Store
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.core.serial import state_to_json
from rulekeeper.errors import InputError, RuleRefusal

LANDED = set(landed_systems())


def test_every_system_is_played() -> None:
    assert {"gurps", "gods-and-monsters", "wrath-and-glory", "vi-viii-x"} <= LANDED


def _state(c: Campaign) -> dict[str, object]:
    return state_to_json(c.ruleset, c.state)


def _assert_back_to(c: Campaign, before: dict[str, object], store: Store) -> None:
    assert _state(c) == before
    assert _state(Campaign.open(store, c.name)) == before
    assert _state(Campaign.open(store, c.name, use_snapshots=False)) == before


def test_gurps_undo_of_the_hit_to_minus_hp_removes_unconsciousness_and_death_checks(store: Store) -> None:
    # tests/scenarios/gurps/hp-minus-hp.yaml, then undone.
    c = Campaign.create(store, "gurps", "gurps", seed=1)
    c.add_character("hero", {"ht": 12}, player="ana")
    before = _state(c)
    hit = c.act(Action("damage", "hero", {"amount": 20}), dice=[2, 3, 4, 3, 3, 4, 6, 6, 5])
    assert {"unconscious", "reeling", "shock"} <= set(c.view("hero")["conditions"])
    assert c.view("hero")["current_hp"] == -10 and c.state.timers
    assert any("death" in s.text for s in hit.explanation)
    undo = c.undo()
    assert undo.undone == (hit.seq,)
    assert c.view("hero")["current_hp"] == c.view("hero")["hp"]
    assert not set(c.view("hero")["conditions"]) & {"unconscious", "reeling", "shock"}
    assert not c.state.timers and not c.pending()
    _assert_back_to(c, before, store)
    c.redo()
    assert "unconscious" in c.view("hero")["conditions"] and c.view("hero")["current_hp"] == -10


def test_gurps_prompted_death_checks_vanish_with_the_undone_hit(store: Store) -> None:
    # tests/scenarios/gurps/automation-prompt.yaml: the GM types every die.
    c = Campaign.create(store, "gurps-prompt", "gurps", settings=Settings(automation={"gurps": AutomationLevel.PROMPT}))
    c.add_character("hero", {"ht": 12})
    before = _state(c)
    c.act(Action("damage", "hero", {"amount": 20}))
    assert len(c.pending()) == 3
    c.resolve(c.pending()[-1].id, [6, 6, 5])
    assert "unconscious" in c.view("hero")["conditions"]
    undo = c.undo(2)
    assert undo.undone == (2, 3)  # resolving a check the hit raised goes with it
    assert not c.pending() and not c.state.timers
    _assert_back_to(c, before, store)


def test_wrath_and_glory_undo_of_the_wound_that_made_dying(store: Store) -> None:
    # tests/scenarios/wrath-and-glory/dying.yaml, then undone.
    c = Campaign.create(store, "wg", "wg", seed=2)
    c.add_character("ari", {"tier": 1, "toughness": 3, "willpower": 3}, player="ana")
    c.act(Action("damage", "ari", {"amount": 9}), dice=[1, 1, 1])
    before = _state(c)
    dying = c.act(Action("damage", "ari", {"amount": 5}), dice=[1, 1, 1, 4])
    view = c.view("ari")
    assert view["dying"] and view["memorable_injuries"] == ["Broken Jaw"]
    assert "dying" in view["conditions"]
    c.undo(dying.seq)
    view = c.view("ari")
    assert not view["dying"] and view["memorable_injuries"] == [] and view["wounds"] == 5
    assert not {"dying", "prone"} & set(view["conditions"])
    _assert_back_to(c, before, store)


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


def test_gods_and_monsters_undo_of_the_hit_that_led_to_dying(store: Store) -> None:
    # tests/scenarios/gods-and-monsters/death-contest.yaml, then undone.
    c = Campaign.create(store, "gm", "gm", seed=3)
    c.add_character("toromeen", TOROMEEN, player="ana")
    before = _state(c)
    hit = c.act(Action("damage", "toromeen", {"amount": 6, "in_combat": True}), dice=[6])
    c.act(Action("damage", "toromeen", {"amount": 0}))  # concerns toromeen: goes with the hit
    round_ = c.next_round(dice=[1, 20])
    assert "dying" in c.view("toromeen")["conditions"]
    assert any("death of toromeen" in t.label for t in c.state.timers)
    assert round_.outcome is not None and round_.outcome.result["death_roll"] == "lost"
    undo = c.undo(hit.seq)
    assert undo.undone == (hit.seq, hit.seq + 1, round_.seq)
    assert "dying" not in c.view("toromeen")["conditions"]
    assert not c.state.timers and not c.pending()
    _assert_back_to(c, before, store)
    c.redo()
    assert "dying" in c.view("toromeen")["conditions"]


def test_gods_and_monsters_typed_round_dice_must_all_be_used(store: Store) -> None:
    c = Campaign.create(store, "gm-typed", "gm", seed=3)
    c.add_character("toromeen", TOROMEEN)
    c.act(Action("damage", "toromeen", {"amount": 6, "in_combat": True}), dice=[6])
    with pytest.raises(InputError, match="used only 2"):
        c.next_round(dice=[1, 20, 5])
    assert c.version == 2


def test_vi_viii_x_undo_of_the_fatal_bite(store: Store) -> None:
    # tests/scenarios/vi-viii-x/fatal_bite_healed.yaml, then the second bite undone.
    c = Campaign.create(store, "6810", "6810", seed=4)
    c.add_character("ranger", {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}}, player="ana")
    c.act(Action("damage", "ranger", {"amount": 4}))
    c.next_round()
    before = _state(c)
    bite = c.act(Action("damage", "ranger", {"amount": 6}))
    c.advance(50)
    assert "death" in c.view("ranger")["conditions"]
    undo = c.undo(bite.seq)
    assert undo.undone == (bite.seq, bite.seq + 1)
    assert "death" not in c.view("ranger")["conditions"]
    _assert_back_to(c, before, store)
    c.redo()
    assert "death" in c.view("ranger")["conditions"]


def test_vi_viii_x_players_do_not_see_gm_only_values(store: Store) -> None:
    c = Campaign.create(store, "6810-view", "6810", seed=4)
    c.add_character("ranger", {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}}, player="ana")
    assert c.view("ranger", as_player="ana") == c.ruleset.player_view(c.state, "ranger")
    with pytest.raises(RuleRefusal, match="does not play"):
        c.view("ranger", as_player="ben")


def test_sheet_edits_and_loads_recompute_derived_conditions(store: Store) -> None:
    wg = Campaign.create(store, "wg-edit", "wg", seed=1)
    wg.add_character("ari", {"tier": 1, "toughness": 3, "willpower": 3, "wounds": 2})
    assert "wounded" in wg.view("ari")["conditions"]  # loaded with Wounds: Wounded from the start
    edit = wg.edit_character("ari", {"wounds": 0})
    assert "wounded" not in wg.view("ari")["conditions"]
    assert any("wounded ends" in s.text for s in edit.explanation)
    assert "wounded" not in Campaign.open(store, "wg-edit").view("ari")["conditions"]

    gurps = Campaign.create(store, "gurps-edit", "gurps", seed=1)
    gurps.add_character("hero", {"hp": 12})
    assert "reeling" not in gurps.view("hero")["conditions"]
    gurps.edit_character("hero", {"current_hp": 3})
    assert gurps.view("hero")["reeling"] is True and "reeling" in gurps.view("hero")["conditions"]
    reopened = Campaign.open(store, "gurps-edit", use_snapshots=False)
    assert "reeling" in reopened.view("hero")["conditions"]
