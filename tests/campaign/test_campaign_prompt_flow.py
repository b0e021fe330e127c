"""The prompt flow through the Campaign facade (issue #13): dice typed with a one-shot command feed
its rolls in table order, a missing roll is named, a GURPS success roll takes its total, and what a
pending check is for is data the CLI, the server and the pages can all show."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import product

import pytest

from rulekeeper.campaign import Campaign, Store, open_store
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.core.stakes import describe_pending
from rulekeeper.core.state import ROLL_RULES
from rulekeeper.errors import InputError

KNIGHT = {
    "st": 12,
    "dx": 12,
    "ht": 12,
    "skills": {"broadsword": 14},
    "shield": 12,
    "weapons": [{"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
}
ORC = {"st": 11, "dx": 11, "ht": 11, "skills": {"axe/mace": 12}}


@pytest.fixture
def memory() -> Iterator[Store]:
    store = open_store("memory://")
    yield store
    store.close()


def _gurps(store: Store, *, prompt: bool) -> Campaign:
    settings = Settings(automation={"gurps": AutomationLevel.PROMPT}) if prompt else None
    campaign = Campaign.create(store, "night", "gurps", seed=1, settings=settings)
    campaign.add_character("knight", KNIGHT)
    campaign.add_character("orc", ORC, npc=True)
    return campaign


def test_attack_then_defence_then_damage_each_take_their_own_typed_dice(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("attack", "knight", {"target": "orc"}), dice=[3, 4, 2])  # a hit: the orc may defend
    assert campaign.pending() == ()
    assert campaign.state.characters["orc"].incoming
    # the block fails, so the damage roll is the next check: it waits, nothing is asked for too early
    result = campaign.act(Action("defend", "orc", {"defense": "dodge"}), dice=[6, 6, 5])
    (damage,) = campaign.pending()
    assert damage.check.kind == "gurps.damage"
    assert campaign.state.characters["orc"].current_hp == 11
    assert result.outcome is not None and [p.id for p in result.outcome.pending] == [damage.id]
    campaign.resolve(damage.id, [5])  # 1d+3 = 8 cutting: 12 injury
    assert campaign.state.characters["orc"].current_hp == -1
    assert [p.check.kind for p in campaign.pending()] == ["gurps.major-wound", "gurps.consciousness"]
    campaign.verify()  # the history replays to the same state


def test_all_the_dice_up_front_play_the_whole_chain_in_table_order(memory: Store) -> None:
    prompted = _gurps(memory, prompt=True)
    prompted.act(
        Action("attack", "knight", {"target": "orc", "defense": "dodge"}), dice=[3, 4, 2, 6, 6, 5, 5, 2, 3, 3, 6, 6, 4]
    )
    assert prompted.pending() == ()
    automatic = Campaign.create(memory, "auto", "gurps", seed=2)
    automatic.add_character("knight", KNIGHT)
    automatic.add_character("orc", ORC, npc=True)
    automatic.act(
        Action("attack", "knight", {"target": "orc", "defense": "dodge"}), dice=[3, 4, 2, 6, 6, 5, 5, 2, 3, 3, 6, 6, 4]
    )
    assert prompted.state.characters == automatic.state.characters
    assert prompted.state.has_condition("orc", "unconscious")
    prompted.verify()


def test_dice_that_run_out_name_the_roll_missing_them(memory: Store) -> None:
    automatic = _gurps(memory, prompt=False)
    with pytest.raises(InputError, match=r"damage of sword"):
        automatic.act(Action("attack", "knight", {"target": "orc", "defense": "dodge"}), dice=[3, 4, 2, 6, 6, 5])
    assert automatic.version == 2  # nothing was applied
    prompted = Campaign.create(
        memory, "p", "gurps", seed=1, settings=Settings(automation={"gurps": AutomationLevel.PROMPT})
    )
    prompted.add_character("knight", KNIGHT)
    prompted.add_character("orc", ORC, npc=True)
    with pytest.raises(InputError, match=r"ran out at check #\d+ \(orc's dodge against knight's attack\): it needs 3"):
        prompted.act(Action("attack", "knight", {"target": "orc", "defense": "dodge"}), dice=[3, 4, 2, 6])
    assert prompted.pending() == () and prompted.version == 2


def test_a_gurps_success_roll_takes_its_total_and_refuses_an_impossible_one(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("attack", "knight", {"target": "orc", "defense": "none"}))
    (attack,) = campaign.pending()
    with pytest.raises(InputError, match="19 cannot be rolled on 3d6"):
        campaign.resolve(attack.id, [19])
    with pytest.raises(InputError, match="2 cannot be rolled on 3d6"):
        campaign.resolve(attack.id, [2])
    result = campaign.resolve(attack.id, [15])  # 15 misses skill 14, as any three dice totalling 15 would
    assert result.result.get("hit") is False
    assert campaign.pending() == ()
    campaign.verify()


def test_pending_checks_say_what_they_are_for(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("damage", "orc", {"amount": 11}))
    stakes = {p.check.kind: describe_pending(p) for p in campaign.pending()}
    assert stakes["gurps.consciousness"]["for"] == "orc's roll to stay conscious at 0 HP or below"
    assert stakes["gurps.consciousness"]["on_failure"] == "orc falls unconscious"
    ways = sum(1 for roll in product(range(1, 7), repeat=3) if sum(roll) <= 11)  # HT 11 on 3d6
    assert Fraction(stakes["gurps.consciousness"]["odds"]["success"]) == Fraction(ways, 216)


def test_gods_and_monsters_death_contest_says_success_is_the_injuries_winning(memory: Store) -> None:
    settings = Settings(automation={"gm": AutomationLevel.PROMPT})
    campaign = Campaign.create(memory, "gm", "gm", seed=1, settings=settings)
    campaign.add_character("ingrid", {"archetype": "thief", "level": 1, "survival": 3, "verve": 2, "health": 10})
    campaign.act(Action("damage", "ingrid", {"amount": 5, "in_combat": True}))
    campaign.resolve(campaign.pending()[0].id, [20])
    campaign.advance(10)
    (death,) = campaign.pending()
    stakes = describe_pending(death)
    assert stakes["on_success"] == "the injuries prevail: ingrid starts dying"
    assert [d["name"] for d in stakes["dice"]] == ["the injuries' d20 (acting)", "ingrid's endurance d20 (resisting)"]
    # seed 000 "A time to die": a contested endurance roll against the injuries, not survival
    assert stakes["for"] == "the death contest: ingrid's injuries (acting) against ingrid's endurance"


def test_determination_shows_how_many_wounds_it_will_turn_into_shock(memory: Store) -> None:
    settings = Settings(automation={"wg": AutomationLevel.PROMPT})
    campaign = Campaign.create(memory, "wg", "wg", seed=1, settings=settings)
    campaign.add_character("ari", {"tier": 1, "toughness": 3, "willpower": 3})
    campaign.act(Action("damage", "ari", {"amount": 6}))  # 2 Wounds against Resilience 4
    (determination,) = campaign.pending()
    stakes = describe_pending(determination)
    assert stakes["outcome"] == "Wounds turned into Shock"
    # brute force over the 216 rolls of three d6: each 4-5 one Icon, each 6 two, at most 2 converted
    icons = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}
    counts = {0: 0, 1: 0, 2: 0}
    for roll in product(range(1, 7), repeat=3):
        counts[min(2, sum(icons[d] for d in roll))] += 1
    assert {row["value"]: Fraction(row["p"]) for row in stakes["distribution"]} == {
        k: Fraction(v, 216) for k, v in counts.items()
    }
    # the Wounds saved lead, not a "0.00% to succeed" against a DN no pool of three can reach
    assert stakes["headline"] == "distribution" and stakes["odds"] is None
    campaign.act(Action("test", "ari", {"attribute": "willpower", "dn": 3}))
    test = campaign.pending()[-1]
    names = [d["name"] for d in describe_pending(test)["dice"]]
    assert names[0] == "Wrath die" and set(names[1:]) == {"pool die"}
    assert describe_pending(test)["outcome"].startswith("Icons")


def test_new_campaigns_record_their_rules_for_rolls_and_older_ones_keep_theirs(memory: Store) -> None:
    from rulekeeper.campaign.table import initial_table
    from rulekeeper.core import get_ruleset

    campaign = _gurps(memory, prompt=True)
    assert campaign.record.settings["roll_rules"] == ROLL_RULES
    assert Campaign.open(memory, "night").state.settings.every_roll_a_check
    stored_before = initial_table(get_ruleset("gurps"), {"automation": {"gurps": "prompt"}, "options": {}})
    assert stored_before.game.settings.roll_rules == 1 and not stored_before.game.settings.every_roll_a_check


def test_an_npcs_survival_dice_wait_in_a_stored_campaign_with_the_blows_behind_them(memory: Store) -> None:
    """Damage that waits for an NPC's survival dice is kept with the pending check, survives the
    store, lands in order once the dice are typed, and the history replays to the same state."""
    settings = Settings(automation={"gm": AutomationLevel.PROMPT})
    campaign = Campaign.create(memory, "crypt", "gods-and-monsters", seed=3, settings=settings)
    campaign.add_character("goblin", {"is_npc": True, "level": 2}, npc=True)
    campaign.act(Action("damage", "goblin", {"amount": 4, "in_combat": True}))
    campaign.act(Action("damage", "goblin", {"amount": 3, "in_combat": True}))
    (survival,) = campaign.pending()
    assert survival.check.kind == "gm.npc-survival"
    described = describe_pending(survival)
    assert "survival" in described["for"] and "damage" in described["on_success"]
    again = Campaign.open(memory, "crypt")
    again.resolve(survival.id, [6, 5])
    goblin = again.state.characters["goblin"]
    assert (goblin.max_survival, goblin.survival) == (11, 4)
    again.verify()


def test_a_fright_checks_stun_is_the_tables_roll_and_one_shot_dice_feed_it_in_order(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("fright_check", "orc", {"modifier": -5}), dice=[4, 4, 4, 3, 5])  # 12 vs 5: 7 + 8
    assert campaign.pending() == ()
    stunned = [c for c in campaign.state.conditions_of("orc") if c.name == "stunned by fear"]
    assert [c.until for c in stunned] == [15]
    # dice for the Fright Check alone: the stun's 2d is then the table's next roll, with its stakes
    campaign.act(Action("fright_check", "knight", {"modifier": -6}), dice=[4, 4, 4])
    (stun,) = campaign.pending()
    assert stun.check.kind == "gurps.fright.stun"
    assert "stunned" in describe_pending(stun)["on_success"]
    campaign.resolve(stun.id, [1, 1])
    assert campaign.state.has_condition("knight", "stunned by fear")
    campaign.verify()


def test_a_typed_total_is_logged_as_a_total_with_no_dice_made_up(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("attack", "knight", {"target": "orc", "defense": "none"}))
    (attack,) = campaign.pending()
    result = campaign.resolve(attack.id, [11])
    text = result.render()
    assert "total 11 typed at the table" in text and "(4, 4, 3)" not in text
    assert campaign.log()[-1].dice == ()  # no invented dice recorded
    assert len(campaign.pending()) == 1  # 11 hits skill 14: the damage roll follows
    campaign.verify()
    Campaign.open(memory, "night").verify()
    # the audit replays seeded dice from the seed: a judged total must not read as a forged die
    from rulekeeper.campaign.document import import_document

    import_document(memory, campaign.export(), name="night-copy")
    Campaign.open(memory, "night-copy").verify()


def test_a_plain_damage_roll_takes_a_typed_total(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    campaign.act(Action("damage", "orc", {"dice": "3d-2"}))
    (damage,) = campaign.pending()
    with pytest.raises(InputError, match=r"or their total alone"):
        campaign.resolve(damage.id, [6, 6])
    with pytest.raises(InputError, match="17 cannot be rolled on 3d-2"):
        campaign.resolve(damage.id, [17])
    result = campaign.resolve(damage.id, [11])  # was refused: "needs 3 dice, got 1"
    assert "total 11 typed at the table" in result.render()
    assert campaign.log()[-1].dice == ()
    campaign.verify()


def test_a_typed_total_stored_under_roll_rules_2_replays_as_it_was_recorded(
    memory: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulekeeper.campaign.facade as facade

    monkeypatch.setattr(facade, "ROLL_RULES", 2)  # a campaign created before typed totals were judged
    campaign = _gurps(memory, prompt=True)
    monkeypatch.undo()
    assert campaign.state.settings.roll_rules == 2
    campaign.act(Action("attack", "knight", {"target": "orc", "defense": "none"}))
    (attack,) = campaign.pending()
    result = campaign.resolve(attack.id, [11])
    assert "rolled 11 (4, 4, 3)" in " ".join(step.text for step in result.explanation)
    Campaign.open(memory, "night").verify()


def test_dice_typed_with_the_command_show_no_waiting_line_for_the_checks_they_settle(memory: Store) -> None:
    campaign = _gurps(memory, prompt=True)
    result = campaign.act(Action("attack", "knight", {"target": "orc", "defense": "none"}), dice=[3, 4, 2])
    text = result.render()
    assert "knight attacks orc" in text and "rolled 9" in text
    lines = [s for s in result.explanation if s.text.startswith("waiting for dice: ")]
    assert all("attack" not in s.text for s in lines), lines  # the damage roll may still wait
    campaign.verify()
