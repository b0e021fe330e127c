"""A command given after the clock has run past a waiting check waits behind it (issue #25, roll_rules 6).

In every system, through a campaign on a real SQLite file: the command is acknowledged and kept (it
survives the store being closed and opened again), changes nothing until the check is resolved, is
then applied in time order with its consequences reported, and undo takes it back whole. A command
that only reads is answered at once, and one that carries typed dice is refused naming the check.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.core.test_checks_hold_time import GAMES

from rulekeeper.campaign import Campaign
from rulekeeper.core import Action
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.waiting import what_waits
from rulekeeper.core.waiting_commands import COMMAND_TIMER, waiting_commands
from rulekeeper.errors import InputError
from rulekeeper.store import open_store

HOUR = 3600

# system: (the command that leaves a check for the table, the one given after the clock ran past it)
MOVES: dict[str, tuple[Action, Action]] = {
    "gurps": (Action("damage", "orc", {"amount": 14}), Action("damage", "knight", {"amount": 5})),
    "wrath-and-glory": (Action("damage", "ari", {"dice": "2d6+6"}), Action("damage", "brute", {"amount": 9})),
    "gods-and-monsters": (
        Action("damage", "ingrid", {"amount": 8, "in_combat": True}),
        Action("damage", "toromeen", {"amount": 2}),
    ),
    "vi-viii-x": (Action("stun", "guard", {"threshold": "average"}), Action("damage", "hero", {"amount": 2})),
}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "table.db")


def _table(path: str, system: str) -> Campaign:
    store = open_store(path)
    campaign = Campaign.create(store, "night", system, seed=11)
    sheets = dict(GAMES[system].sheets)
    if system == "vi-viii-x":
        sheets["hero"] = sheets["guard"]
    for name, sheet in sheets.items():
        campaign.add_character(name, dict(sheet))
    campaign.set_settings(automation={"*": "prompt"})
    return campaign


def _overdue(campaign: Campaign) -> PendingCheck:
    first, _ = MOVES[campaign.system]
    campaign.act(first)
    assert campaign.pending(), "the first command leaves a check for the table"
    campaign.advance(HOUR)
    [waiting, *_] = what_waits(campaign.state)
    return waiting.pending


def _resolve_all(campaign: Campaign) -> list[str]:
    texts = []
    while True:
        queue = sorted((p for p in campaign.pending() if p.after is None), key=lambda p: (p.created, p.id))
        if not queue:
            return texts
        done = campaign.resolve(queue[0].id)
        assert done.outcome is not None
        texts.append(done.outcome.render())


@pytest.mark.parametrize("system", sorted(MOVES))
def test_a_command_after_an_overdue_check_waits_and_is_applied_when_it_is_resolved(db: str, system: str) -> None:
    campaign = _table(db, system)
    holder = _overdue(campaign)
    _, second = MOVES[system]
    target = second.actor
    assert target is not None
    before = campaign.state.characters[target]
    given = campaign.act(second)
    assert given.result["waits_for"] == holder.id
    text = given.outcome.render() if given.outcome is not None else ""
    assert f"(#{holder.id})" in text and "waits for that roll" in text
    assert campaign.state.characters[target] == before, "nothing is applied while it waits"
    [queued] = waiting_commands(campaign.state)
    assert queued.due == campaign.state.clock and queued.data["action"]["name"] == second.name
    [said] = [w for w in what_waits(campaign.state) if w.pending.id == holder.id]
    assert said.later >= 1 and said.commands == 1 and "(1 of them a command given since)" in said.text()
    campaign.store.close()

    # A restart keeps it: it lives in the history.
    store = open_store(db)
    again = Campaign.open(store, "night", use_snapshots=False)
    assert [t.data["action"] for t in waiting_commands(again.state)] == [queued.data["action"]]
    texts = _resolve_all(again)
    assert any("applied now that check" in t for t in texts)
    assert not waiting_commands(again.state)
    assert again.state.characters[target] != before, "applied in its turn"
    assert not any(t.kind == COMMAND_TIMER for t in again.state.timers)
    store.close()


@pytest.mark.parametrize("system", sorted(MOVES))
def test_undo_takes_back_a_waiting_command_whole(db: str, system: str) -> None:
    campaign = _table(db, system)
    _overdue(campaign)
    before = campaign.state
    campaign.act(MOVES[system][1])
    assert waiting_commands(campaign.state)
    campaign.undo()
    assert not waiting_commands(campaign.state)
    assert campaign.state.characters == before.characters and campaign.state.pending == before.pending
    campaign.redo()
    assert waiting_commands(campaign.state)
    campaign.store.close()


@pytest.mark.parametrize("system", sorted(MOVES))
def test_typed_dice_with_a_command_that_would_wait_are_refused_changing_nothing(db: str, system: str) -> None:
    campaign = _table(db, system)
    holder = _overdue(campaign)
    version = campaign.version
    with pytest.raises(InputError) as refused:
        campaign.act(MOVES[system][1], dice="4 4 4")
    assert f"#{holder.id}" in refused.value.message and f"resolve #{holder.id}" in str(refused.value.expected)
    assert campaign.version == version and not waiting_commands(campaign.state)
    campaign.store.close()


def test_a_command_that_only_reads_is_answered_at_once(db: str) -> None:
    campaign = _table(db, "vi-viii-x")
    _overdue(campaign)
    read = campaign.peek(Action("player_view", "guard", {}))
    assert read is not None, "a view is not history, waiting check or not"
    assert "waits_for" not in read.result and not waiting_commands(read.state)
    campaign.store.close()


def test_a_waiting_command_refused_in_its_turn_says_why_and_changes_nothing(db: str) -> None:
    """The orc's blow waits behind the roll that decides whether the orc is still standing."""
    campaign = _table(db, "gurps")
    campaign.act(Action("damage", "orc", {"amount": 60}))  # -5 x HP: dead at once, or close to it
    campaign.advance(HOUR)
    if not what_waits(campaign.state):
        pytest.fail("the damage left no check for the table")
    campaign.act(Action("stun", "orc", {}))
    texts = _resolve_all(campaign)
    joined = "\n".join(texts)
    state: Any = campaign.state
    if state.characters["orc"].dead:
        assert "refused in its turn" in joined
        assert not state.has_condition("orc", "stunned")
    else:
        assert "applied now that check" in joined
    assert not waiting_commands(campaign.state)
    campaign.store.close()
