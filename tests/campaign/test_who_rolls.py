"""Who rolls, by whose character (issue #27 item 2): "PCs prompt, NPCs auto".

The option ``npc_automation`` overrides the automation levels for a check an NPC rolls; a PC is a
character a member plays. It is a campaign setting like any other: in the history, replayed, and
a campaign without it plays as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.campaign import Campaign
from rulekeeper.core import Action
from rulekeeper.core.who_rolls import NPC_AUTOMATION_OPTION, PLAYERS_OPTION
from rulekeeper.errors import InputError
from rulekeeper.store import open_store

ARI = {"tier": 1, "toughness": 3, "willpower": 3}
BRUTE = {"tier": 1, "toughness": 4, "willpower": 2}


def _table(path: Path, npc_automation: object | None) -> Campaign:
    campaign = Campaign.create(open_store(str(path)), "night", "wrath-and-glory", seed=4)
    campaign.add_character("ari", ARI, player="ana")
    campaign.add_character("brute", BRUTE)
    options = None if npc_automation is None else {NPC_AUTOMATION_OPTION: npc_automation}
    campaign.set_settings(automation={"*": "prompt"}, options=options)
    return campaign


def _hit_both(campaign: Campaign) -> None:
    campaign.act(Action("damage", "ari", {"amount": 14}))
    campaign.act(Action("damage", "brute", {"amount": 14}))


def test_pcs_prompt_and_npcs_auto(tmp_path: Path) -> None:
    campaign = _table(tmp_path / "t.db", "*=auto")
    _hit_both(campaign)
    assert {p.actor for p in campaign.pending()} == {"ari"}, "the NPC's Determination was rolled by the engine"
    assert any(line.actor == "brute" and "Determination" in line.text for e in campaign.log() for line in e.explanation)
    assert PLAYERS_OPTION not in campaign.state.settings.options  # who plays whom is never stored
    assert campaign.state.settings.options[NPC_AUTOMATION_OPTION] == "*=auto"
    played = campaign.state
    campaign.store.close()
    store = open_store(str(tmp_path / "t.db"))
    again = Campaign.open(store, "night", use_snapshots=False)
    assert again.state == played  # replayed from the history
    store.close()


def test_without_the_option_every_character_is_rolled_as_set(tmp_path: Path) -> None:
    campaign = _table(tmp_path / "t.db", None)
    _hit_both(campaign)
    assert {p.actor for p in campaign.pending()} == {"ari", "brute"}
    campaign.store.close()


def test_a_kind_for_npcs_only_and_switching_npcs_to_auto_rolls_what_waits(tmp_path: Path) -> None:
    campaign = _table(tmp_path / "t.db", None)
    _hit_both(campaign)
    # A mapping (as the API sends it) is stored as the same plain text the CLI and the page use.
    changed = campaign.set_settings(options={NPC_AUTOMATION_OPTION: {"wg.determination": "auto"}})
    assert campaign.state.settings.options[NPC_AUTOMATION_OPTION] == "wg.determination=auto"
    assert {p.actor for p in campaign.pending()} == {"ari"}, "brute's waiting roll is rolled now"
    assert changed.outcome is not None and "brute" in changed.outcome.render()
    campaign.set_settings(options={NPC_AUTOMATION_OPTION: None})
    assert NPC_AUTOMATION_OPTION not in campaign.state.settings.options
    campaign.store.close()


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("*=sometimes", "is not an automation level"),
        ("wg.nonsense=auto", "no wrath-and-glory check kind"),
        ("auto", "cannot read"),
    ],
)
def test_a_bad_value_is_refused_naming_the_form(tmp_path: Path, value: str, fragment: str) -> None:
    campaign = _table(tmp_path / "t.db", None)
    version = campaign.version
    with pytest.raises(InputError) as refused:
        campaign.set_settings(options={NPC_AUTOMATION_OPTION: value})
    assert fragment in refused.value.message
    assert campaign.version == version
    campaign.store.close()
