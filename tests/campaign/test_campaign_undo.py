"""Undo and redo: consequences go with the undone command, dependents follow, history stays."""

from __future__ import annotations

import pytest

from rulekeeper.campaign import Campaign, Store
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.core.serial import state_to_json
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError

PROMPT_DEATH = Settings(automation={"toy.death": AutomationLevel.PROMPT})


def table(store: Store, **kw: object) -> Campaign:
    c = Campaign.create(store, "undo", "toy", seed=3, **kw)  # type: ignore[arg-type]
    c.add_character("bob", {"max_hp": 10}, player="ana")
    c.add_character("orc", {"max_hp": 5}, npc=True)
    return c


def damage(actor: str, amount: int) -> Action:
    return Action("damage", actor, {"amount": amount})


def snapshot(c: Campaign) -> dict[str, object]:
    return state_to_json(c.ruleset, c.state)


def test_undo_takes_the_consequences_with_it(store: Store) -> None:
    c = table(store, settings=PROMPT_DEATH)
    before = snapshot(c)
    hit = c.act(damage("bob", 12))
    assert "down" in c.view("bob")["conditions"] and c.state.timers and c.pending()
    undo = c.undo()
    assert undo.undone == (hit.seq,) and undo.seq == hit.seq + 1
    assert c.view("bob")["conditions"] == [] and c.view("bob")["hp"] == 10
    assert not c.state.timers and not c.pending()
    assert snapshot(c) == before
    log = c.log()
    assert len(log) == 4  # history is never deleted
    assert log[2].undone_by == undo.seq and not log[2].in_effect
    assert log[3].undoes == (hit.seq,) and log[3].summary == f"undo #{hit.seq}"
    reopened = Campaign.open(store, c.name)
    assert snapshot(reopened) == before


def test_redo_reapplies_with_the_same_dice(store: Store) -> None:
    c = table(store)
    c.act(Action("hit", "orc", {"target": "bob"}))
    c.advance(600)
    after = snapshot(c)
    dice = [e.dice for e in c.log()]
    # The advance fired nothing of bob's and replays the same without the hit: it stays.
    assert c.undo(3).undone == (3,)
    assert c.view("bob")["hp"] == 10 and c.state.clock == 600
    redo = c.redo()
    assert redo.redone == (3,)
    assert snapshot(c) == after
    assert snapshot(Campaign.open(store, c.name, use_snapshots=False)) == after
    log = c.log()
    assert [e.dice for e in log[:4]] == dice and dice[2]
    assert log[2].redone_by == redo.seq and log[2].undone_by is None and log[2].in_effect
    with pytest.raises(RuleRefusal, match="nothing to redo"):
        c.redo()


def test_redo_is_gone_once_a_new_command_is_issued(store: Store) -> None:
    c = table(store)
    c.act(damage("bob", 2))
    c.undo()
    c.act(damage("orc", 1))
    with pytest.raises(RuleRefusal, match="nothing to redo"):
        c.redo()


def test_several_undos_then_redos_walk_back_and_forth(store: Store) -> None:
    c = table(store)
    states = [snapshot(c)]
    for amount in (1, 2, 3):
        c.act(damage("orc" if amount == 2 else "bob", amount))
        states.append(snapshot(c))
    c.undo()
    assert snapshot(c) == states[2]
    c.undo()
    assert snapshot(c) == states[1]
    c.redo()
    assert snapshot(c) == states[2]
    c.undo()
    c.undo()
    assert snapshot(c) == states[0]
    c.redo()
    c.redo()
    assert snapshot(c) == states[2]
    c.redo()
    assert snapshot(c) == states[3]


def test_undo_of_a_chosen_command_takes_its_dependents(store: Store) -> None:
    c = table(store)
    c.add_character("eve", {"max_hp": 8}, player="ana")  # 3
    first = c.act(damage("bob", 2))  # 4
    c.act(damage("eve", 1))  # 5: another character, stays
    c.act(Action("heal", "bob", {"amount": 1}))  # 6: bob again, goes
    c.act(Action("hit", "orc", {"target": "bob"}), dice=[2])  # 7: names bob, goes
    c.act(damage("orc", 1))  # 8: orc was drawn in by #7, goes
    c.act(damage("eve", 2))  # 9: stays
    undo = c.undo(first.seq)
    assert undo.undone == (4, 6, 7, 8)
    reasons = {step.text.split(" ")[0]: step.text for step in undo.explanation}
    assert "also concerns bob" in reasons["#6"] and "also concerns orc" in reasons["#8"]
    assert c.view("bob")["hp"] == 10 and c.view("orc")["hp"] == 5
    assert c.view("eve")["hp"] == 5
    fresh = Campaign.open(store, c.name, use_snapshots=False)
    assert snapshot(fresh) == snapshot(c)


def test_undo_before_a_time_advance_takes_everything_after_it(store: Store) -> None:
    c = table(store)
    c.advance(60)  # 3
    c.act(damage("orc", 1))  # 4
    c.act(damage("bob", 1))  # 5
    assert c.undo(3).undone == (3, 4, 5)
    assert c.state.clock == 0


def test_time_advance_firing_an_undone_timer_is_undone(store: Store) -> None:
    c = table(store, settings=PROMPT_DEATH)
    c.act(damage("orc", 6))  # 3: orc down and bleeding
    c.act(damage("bob", 1))  # 4: unrelated
    c.advance(3600)  # 5: orc bleeds; concerns orc
    assert c.undo(3).undone == (3, 5)
    assert c.state.clock == 0 and c.view("bob")["hp"] == 9
    assert c.view("orc")["hp"] == 5 and not c.state.timers and not c.pending()


def test_resolving_a_check_raised_by_the_undone_command_is_undone(store: Store) -> None:
    c = table(store, settings=PROMPT_DEATH)
    c.act(damage("bob", 10))  # 3: raises the death check
    pid = c.pending()[0].id
    c.remove_character("orc")  # 4: unrelated
    c.resolve(pid, [19])  # 5
    undo = c.undo(3)
    assert undo.undone == (3, 5)
    assert "orc" not in c.state.characters and not c.pending()


def test_replay_check_catches_hidden_dependencies(store: Store) -> None:
    c = table(store)
    c.act(damage("bob", 11))  # 3: bob down
    census = c.act(Action("census"))  # 4: names nobody, but counts bob as down
    assert census.result == {"down": 1}
    undo = c.undo(3)
    assert undo.undone == (3, 4)
    assert "would not replay the same" in undo.explanation[1].text


def test_undo_keeps_ids_unique(store: Store) -> None:
    c = table(store, settings=PROMPT_DEATH)
    c.act(damage("bob", 10))
    first_ids = {p.id for p in c.pending()} | {t.id for t in c.state.timers}
    c.undo()
    c.act(damage("orc", 6))
    second_ids = {p.id for p in c.pending()} | {t.id for t in c.state.timers}
    assert first_ids and second_ids and not first_ids & second_ids
    assert snapshot(Campaign.open(store, c.name, use_snapshots=False)) == snapshot(c)


def test_undo_errors(store: Store) -> None:
    fresh = Campaign.create(store, "empty", "toy")
    with pytest.raises(RuleRefusal, match="nothing to undo"):
        fresh.undo()
    c = table(store)
    c.act(damage("bob", 1))
    c.undo(3)
    with pytest.raises(InputError, match="already undone"):
        c.undo(3)
    with pytest.raises(InputError, match="not a command"):
        c.undo(4)
    with pytest.raises(UnknownNameError, match="no command #40"):
        c.undo(40)
    assert c.version == 4
    assert c.undo().undone == (2,)


def test_snapshots_are_invalidated_by_undo(store: Store) -> None:
    c = table(store)
    c.snapshot_every = 5
    for i in range(30):
        c.act(damage("bob" if i % 2 else "orc", 0) if i % 3 else Action("heal", "bob", {"amount": 1}))
    c.act(damage("bob", 3))  # 33
    for _ in range(10):
        c.act(damage("orc", 0))
    assert c.undo(33).undone == (33,)
    expected = snapshot(c)
    assert snapshot(Campaign.open(store, c.name)) == expected
    assert snapshot(Campaign.open(store, c.name, use_snapshots=False)) == expected
    c.redo()
    assert Campaign.open(store, c.name).view("bob")["hp"] == 7
    Campaign.open(store, c.name).verify()
