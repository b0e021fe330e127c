"""The sheet file a character came from is found in the history: through renames, not through an
undone command, never in the table or its snapshots, and logs name only its format."""

from __future__ import annotations

import copy
import json

from rulekeeper.campaign import Campaign, SheetSource, Store
from rulekeeper.campaign.sheet_files import add_from_file, update_from_file
from rulekeeper.campaign.table import encode_table
from support.gcs_files import LIBRARY

BEAR = next(LIBRARY.rglob("Cave Bear.gcs"))


def test_the_source_follows_renames_and_undo_and_stays_out_of_the_table(store: Store) -> None:
    document = json.loads(BEAR.read_text(encoding="utf-8"))
    c = Campaign.create(store, "sources", "gurps", seed=1)
    c.add_character("orc", {"st": 12})
    assert c.sheet_source("orc") is None
    add_from_file(c, "bear", "gcs", document, source="Cave Bear.gcs")
    c.rename_character("bear", "ursa")
    kept = c.sheet_source("ursa")
    assert kept == SheetSource("gcs", document)

    changed = {**document, "profile": {**document["profile"], "name": "Big Ursa"}}
    update_from_file(c, "ursa", "gcs", changed)
    assert c.sheet_source("ursa") == SheetSource("gcs", changed)
    c.undo()
    assert c.sheet_source("ursa") == SheetSource("gcs", document)

    assert "profile" not in encode_table(c.ruleset, c.table)  # the document is in history only
    logged = [e.command for e in c.log() if e.kind == "add_character"]
    assert {"format": "gcs"} in [cmd.get("source") for cmd in logged]


def test_an_update_keeps_the_tables_conditions_and_timers(store: Store) -> None:
    from rulekeeper.core.action import Action

    document = json.loads(BEAR.read_text(encoding="utf-8"))
    c = Campaign.create(store, "kept", "gurps", seed=2)
    add_from_file(c, "bear", "gcs", document)
    c.act(Action("lose_fp", "bear", {"amount": 10}))
    c.act(Action("damage", "bear", {"amount": 20, "dr": 0}))
    before = c.state
    assert before.conditions_of("bear") and before.timers_of("bear")
    changed = copy.deepcopy(document)
    changed["skills"][0]["points"] = changed["skills"][0].get("points", 0) + 8
    result, _ = update_from_file(c, "bear", "gcs", changed)
    assert any("skills:" in step.text for step in result.explanation)
    after = c.state
    assert after.conditions == before.conditions
    assert after.timers == before.timers
    bear_before, bear_after = before.characters["bear"], after.characters["bear"]
    assert (bear_after.current_hp, bear_after.current_fp) == (bear_before.current_hp, bear_before.current_fp)
    assert bear_after.skills != bear_before.skills
