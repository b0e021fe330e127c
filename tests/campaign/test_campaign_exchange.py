"""Export and import: one JSON document, an exact round trip, and corrupt files refused whole."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from rulekeeper.campaign import FORMAT, Campaign, Store, open_store
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.core.serial import state_to_json
from rulekeeper.errors import InputError


def played(store: Store) -> Campaign:
    c = Campaign.create(
        store,
        "exported",
        "toy",
        seed=11,
        gm="dora",
        settings=Settings(automation={"toy.death": AutomationLevel.PROMPT}),
    )
    c.add_character("bob", {"max_hp": 10, "secret": 4}, player="ana")
    c.add_character("orc", {"max_hp": 5}, npc=True)
    c.act(Action("hit", "orc", {"target": "bob"}), key="k1")
    c.act(Action("damage", "bob", {"amount": 9}))
    c.advance(180)
    c.resolve(c.pending()[0].id, [7])
    c.act(Action("damage", "orc", {"amount": 1}))
    c.undo(4)
    c.redo()
    c.undo()
    c.edit_character("orc", {"max_hp": 7})
    c.set_settings(options={"bleed_every": 30})
    return c


def test_round_trip_is_exact(store: Store) -> None:
    c = played(store)
    document = c.export()
    assert document["format"] == FORMAT and document["version"] == 1
    assert len(document["events"]) == c.version
    text = json.dumps(document)
    copy_ = Campaign.import_(store, json.loads(text), name="copy")
    again = copy_.export()
    assert again["campaign"].pop("name") == "copy"
    document["campaign"].pop("name")
    assert again == document
    assert state_to_json(c.ruleset, copy_.state) == state_to_json(c.ruleset, c.state)
    assert copy_.roles == c.roles and copy_.version == c.version
    assert [e.summary for e in copy_.log()] == [e.summary for e in c.log()]
    # The copy keeps working, idempotency keys included.
    assert copy_.act(Action("hit", "orc", {"target": "bob"}), key="k1").retried
    copy_.undo()
    copy_.verify()


def test_round_trip_between_backends(store: Store) -> None:
    document = played(store).export()
    with open_store("memory://") as memory:
        moved = Campaign.import_(memory, document)
        back = moved.export()
    assert back == document


def _corruptions() -> list[tuple[str, Callable[[dict[str, Any]], object], str]]:
    def set_(path: str, value: object) -> Callable[[dict[str, Any]], object]:
        def change(doc: dict[str, Any]) -> object:
            *parts, last = path.split(".")
            target: Any = doc
            for part in parts:
                target = target[int(part)] if part.isdigit() else target[part]
            target[int(last) if last.isdigit() else last] = value
            return doc

        return change

    return [
        ("not a mapping", lambda doc: [doc], "JSON object"),
        ("foreign format", set_("format", "fvtt-world"), "not a rulekeeper campaign"),
        ("newer format version", set_("version", 2), "format version 2"),
        ("unknown system", set_("campaign.system", "chess"), "chess"),
        ("missing field", lambda doc: (doc["events"][0].pop("dice"), doc)[1], "events.0.dice"),
        ("bad dice pair", set_("events.2.dice", [[6, 9]]), "events.2.dice"),
        ("tampered die", set_("events.2.dice", [[6, 1]]), "does not replay as recorded"),
        ("tampered outcome", set_("events.3.outcome.result", {"hp": 99}), "does not replay as recorded"),
        ("renumbered", set_("events.1.seq", 7), "not numbered"),
        ("undo of nothing", set_("events.7.refs", []), "reverses nothing"),
        ("undo of an undo", set_("events.9.refs", [8]), "not a command"),
        ("redo without undo", set_("events.8.refs", [2]), "does not follow a matching undo"),
        ("reused key", set_("events.3.key", "k1"), "reuses the idempotency key"),
        ("clock", set_("events.4.until", 5), "does not replay"),
        ("final state", set_("final.state.clock", 1), "final state"),
        ("final roles", set_("final.roles.gm", "mallory"), "final roles"),
        ("wrong kind", set_("events.4.kind", "next_round"), "filed as"),
        ("future roll rules", set_("campaign.settings.roll_rules", 99), "roll_rules 99 is not a revision"),
        ("text roll rules", set_("campaign.settings.roll_rules", "3"), "roll_rules '3' is not a revision"),
        ("no roll rules", set_("campaign.settings.roll_rules", 0), "campaign.settings: roll_rules 0"),
    ]


@pytest.mark.parametrize(("what", "corrupt", "reason"), _corruptions(), ids=[c[0] for c in _corruptions()])
def test_corrupt_documents_are_refused_and_nothing_is_written(
    store: Store, what: str, corrupt: Callable[[dict[str, Any]], object], reason: str
) -> None:
    document = played(store).export()
    bad = corrupt(copy.deepcopy(document))
    with pytest.raises(InputError, match=reason):
        Campaign.import_(store, bad, name="bad")  # type: ignore[arg-type]
    assert [i.name for i in store.list_campaigns()] == ["exported"]


def test_import_refuses_a_taken_name(store: Store) -> None:
    c = played(store)
    with pytest.raises(InputError, match="already exists"):
        Campaign.import_(store, c.export())
    assert len(store.list_campaigns()) == 1
