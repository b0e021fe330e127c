"""The Campaign facade on SQLite and PostgreSQL: creating, commands, refusals, roles, views, log."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rulekeeper.campaign import Campaign, CampaignConflict, Store, open_store
from rulekeeper.core import Action, AutomationLevel, Settings
from rulekeeper.errors import ConflictError, DiceError, InputError, RuleRefusal, UnknownNameError

PROMPT_DEATH = Settings(automation={"toy.death": AutomationLevel.PROMPT})


def new(store: Store, name: str = "saturday", **kw: object) -> Campaign:
    campaign = Campaign.create(store, name, "toy", seed=7, **kw)  # type: ignore[arg-type]
    campaign.add_character("bob", {"max_hp": 10, "secret": 3}, player="ana")
    campaign.add_character("orc", {"max_hp": 5}, npc=True)
    return campaign


def damage(actor: str, amount: int) -> Action:
    return Action("damage", actor, {"amount": amount})


def test_create_open_list_delete(store: Store) -> None:
    c = new(store)
    assert (c.name, c.system, c.seed, c.version) == ("saturday", "toy", 7, 2)
    assert c.ruleset.name == "toy"
    assert [i.name for i in store.list_campaigns()] == ["saturday"]
    assert store.list_campaigns()[0].version == 2
    again = Campaign.open(store, "saturday")
    assert again.version == 2
    assert set(again.state.characters) == {"bob", "orc"}
    store.delete_campaign("saturday")
    assert store.list_campaigns() == []
    with pytest.raises(UnknownNameError, match="saturday"):
        Campaign.open(store, "saturday")


def test_creation_errors(store: Store) -> None:
    new(store)
    with pytest.raises(InputError, match="already exists"):
        Campaign.create(store, "saturday", "toy")
    with pytest.raises(UnknownNameError) as info:
        Campaign.create(store, "other", "chess")
    assert "gurps" in str(info.value) and "wrath-and-glory" in str(info.value)
    with pytest.raises(UnknownNameError) as missing:
        Campaign.open(store, "sunday")
    assert "sunday" in str(missing.value) and "saturday" in str(missing.value)
    with pytest.raises(InputError, match="automation"):
        Campaign.create(store, "x", "toy", settings=Settings(automation={"toy.flying": AutomationLevel.AUTO}))
    with pytest.raises(InputError, match="seed"):
        Campaign.create(store, "x", "toy", seed=2**70)
    with pytest.raises(UnknownNameError, match="delete-me"):
        store.delete_campaign("delete-me")
    assert [i.name for i in store.list_campaigns()] == ["saturday"]


def test_roles_and_views(store: Store) -> None:
    c = new(store)
    roles = c.roles
    assert roles.gm == "gm"
    assert roles.player_of("bob") == "ana" and roles.player_of("orc") is None
    assert roles.npcs == frozenset({"orc"})
    assert roles.characters_of("ana") == ("bob",)
    assert c.view("bob")["secret"] == 3
    assert "secret" not in c.view("bob", as_player="ana")
    with pytest.raises(RuleRefusal, match="does not play"):
        c.view("bob", as_player="eve")
    with pytest.raises(RuleRefusal):
        c.view("orc", as_player="ana")
    with pytest.raises(UnknownNameError):
        c.view("nobody")
    with pytest.raises(InputError, match="NPC"):
        c.add_character("zed", {}, player="ana", npc=True)


def test_commands_and_outcomes(store: Store) -> None:
    c = new(store, settings=PROMPT_DEATH)
    r = c.act(damage("bob", 12))
    assert (r.seq, r.version, c.version) == (3, 3, 3)
    assert r.outcome is not None and r.outcome.result["hp"] == -2
    assert "down" in c.view("bob")["conditions"]
    assert len(c.pending()) == 1
    assert any("pending check" in s.text for s in r.explanation)
    pending_id = c.pending()[0].id
    resolved = c.resolve(pending_id, [20])
    assert "dead" in c.view("bob")["conditions"]
    assert resolved.outcome is not None and resolved.outcome.checks[0].dice == (20,)
    assert c.pending() == ()
    clock = c.advance(90)
    assert c.state.clock == 90 and clock.outcome is not None
    c.next_round()
    assert c.state.clock == 96


def test_refusals_and_bad_input_append_nothing(store: Store) -> None:
    c = new(store)
    c.act(damage("bob", 12))
    before = c.version
    attempts: list[Callable[[], object]] = [
        lambda: c.act(Action("rest", "bob", {})),  # refused by a rule while down
        lambda: c.act(damage("bob", -1)),  # below the parameter's minimum
        lambda: c.act(Action("fly", "bob", {})),
        lambda: c.act(damage("nobody", 1)),
        lambda: c.add_character("bob", {}),
        lambda: c.add_character("carl", {"strength": 3}),
        lambda: c.edit_character("bob", {"max_hp": "lots"}),
        lambda: c.remove_character("nobody"),
        lambda: c.resolve(999),
        lambda: c.advance(-5),
        lambda: c.set_settings(automation={"toy.death": "sometimes"}),
        lambda: c.set_settings(options={"gravity": 2}),
        lambda: c.act(Action("hit", "orc", {"target": "bob"}), dice=[]),
        lambda: c.act(Action("hit", "orc", {"target": "bob"}), dice=[3, 4]),
        lambda: c.act(Action("hit", "orc", {"target": "bob"}), dice=[7]),
    ]
    for attempt in attempts:
        with pytest.raises((InputError, RuleRefusal)):
            attempt()
    assert c.version == before
    reopened = Campaign.open(c.store, c.name)
    assert reopened.version == before
    assert len(reopened.log()) == before


def test_typed_dice(store: Store) -> None:
    c = new(store)
    r = c.act(Action("hit", "orc", {"target": "bob"}), dice=[4])
    assert c.view("bob")["hp"] == 6
    assert r.explanation[0].dice == (4,)
    assert c.log()[-1].dice == ((6, 4),)
    with pytest.raises(DiceError, match="d6"):
        c.act(Action("hit", "orc", {"target": "bob"}), dice=[9])


def test_resolve_needs_enough_typed_dice(store: Store) -> None:
    c = new(store, settings=PROMPT_DEATH)
    c.act(damage("bob", 10))
    pid = c.pending()[0].id
    with pytest.raises(InputError, match="needs 1 dice"):
        c.resolve(pid, [])
    c.resolve(pid, [1])
    assert "dead" not in c.view("bob")["conditions"]


def test_settings_change_automation(store: Store) -> None:
    c = new(store)
    c.set_settings(automation={"toy.death": "prompt"}, options={"bleed_every": 30})
    assert c.state.settings.level_for("toy.death") is AutomationLevel.PROMPT
    c.act(damage("bob", 10))
    assert len(c.pending()) == 1
    assert c.state.timers[0].due == 30
    c.set_settings(automation={"toy.death": None})
    assert c.state.settings.level_for("toy.death") is AutomationLevel.AUTO


def test_edit_character_keeps_what_play_changed(store: Store) -> None:
    c = new(store)
    c.act(damage("bob", 3))
    c.edit_character("bob", {"max_hp": 14})
    assert (c.view("bob")["max_hp"], c.view("bob")["hp"]) == (14, 7)
    c.edit_character("orc", {"max_hp": 8})
    assert (c.view("orc")["max_hp"], c.view("orc")["hp"]) == (8, 8)
    r = c.edit_character("bob", {"secret": None})
    assert c.view("bob")["secret"] == 0
    assert any("secret 3 -> 0" in s.text for s in r.explanation)


def test_remove_character_takes_its_timers_and_checks(store: Store) -> None:
    c = new(store, settings=PROMPT_DEATH)
    c.act(damage("bob", 10))
    assert c.state.timers and c.pending()
    c.remove_character("bob")
    assert "bob" not in c.state.characters
    assert not c.state.timers and not c.pending() and not c.state.conditions
    assert c.roles.player_of("bob") is None


def test_idempotency_keys(store: Store) -> None:
    c = new(store)
    first = c.act(damage("bob", 2), key="req-1")
    again = c.act(damage("bob", 2), key="req-1")
    assert again.retried and not first.retried
    assert (again.seq, again.version) == (first.seq, first.version)
    assert again.explanation == first.explanation
    assert again.outcome is not None and again.outcome.result == first.outcome.result  # type: ignore[union-attr]
    assert c.version == first.seq and c.view("bob")["hp"] == 8
    other = Campaign.open(store, c.name)
    assert other.act(damage("bob", 2), key="req-1").seq == first.seq
    with pytest.raises(InputError, match="different command"):
        c.act(damage("bob", 3), key="req-1")
    assert Campaign.open(store, c.name).version == first.seq


def test_expected_version_conflicts_say_what_changed(store: Store) -> None:
    c = new(store)
    other = Campaign.open(store, c.name)
    base = c.version
    other.act(damage("bob", 1))
    other.advance(60)
    with pytest.raises(CampaignConflict) as info:
        c.act(damage("orc", 1), expected_version=base)
    conflict = info.value
    assert isinstance(conflict, ConflictError)
    assert [seq for seq, _ in conflict.changes] == [base + 1, base + 2]
    assert "bob: damage amount=1" in str(conflict) and "advance 1m" in str(conflict)
    with pytest.raises(ConflictError, match="no version"):
        c.act(damage("orc", 1), expected_version=base + 10)
    r = c.act(damage("orc", 1), expected_version=base + 2)
    assert r.seq == base + 3
    # Without an expected version a command applies to the newest state, whoever wrote it.
    assert c.view("bob")["hp"] == 9 and c.state.clock == 60


def test_refresh_sees_other_writers(store: Store) -> None:
    c = new(store)
    other = Campaign.open(store, c.name)
    other.act(damage("bob", 4))
    assert c.version == 2
    assert c.refresh() == 3
    assert c.view("bob")["hp"] == 6


def test_log_entries_and_filters(store: Store) -> None:
    c = new(store)
    c.act(damage("bob", 2))
    c.advance(3600)
    c.act(Action("hit", "bob", {"target": "orc"}), dice=[3])
    log = c.log()
    assert [e.seq for e in log] == [1, 2, 3, 4, 5]
    assert log[0].summary == "add bob (player ana)" and log[1].summary == "add orc (NPC)"
    assert log[2].actors == ("bob",) and log[2].kind == "act"
    assert log[4].summary == "bob: hit target=orc (dice 3)"
    assert log[4].actors == ("bob", "orc") and log[4].dice == ((6, 3),)
    assert (log[3].at, log[3].until) == (0, 3600)
    assert log[4].wall_time.tzinfo is not None
    assert [e.seq for e in c.log(actor="orc")] == [2, 5]
    assert [e.seq for e in c.log(since=1800)] == [4, 5]
    assert [e.seq for e in c.log(until=0)] == [1, 2, 3, 4]
    assert "bob loses 2 HP" in log[2].render()


def test_log_tail_is_the_end_of_the_log_and_counts_the_rest(store: Store) -> None:
    c = new(store)
    for amount in (1, 2, 3):
        c.act(damage("bob", amount))
    c.advance(3600)
    c.act(damage("orc", 1))
    c.undo(3)
    c.undo()
    c.redo()
    full = c.log()
    for filters in ({}, {"actor": "bob"}, {"actor": "orc"}, {"since": 1800}, {"until": 0}):
        whole = c.log(**filters)  # type: ignore[arg-type]
        for last in (0, 1, 3, len(whole), len(whole) + 5):
            tail, earlier = c.log_tail(last, **filters)  # type: ignore[arg-type]
            assert tail == whole[len(whole) - min(last, len(whole)) :], (filters, last)
            assert earlier == len(whole) - len(tail)
    assert [e.undone_by for e in c.log_tail(9)[0]] == [e.undone_by for e in full[-9:]]


def test_stored_steps_read_without_pydantic_as_pydantic_reads_them(store: Store) -> None:
    from rulekeeper.campaign.results import _steps_adapter, steps_from_json

    c = new(store)
    c.act(Action("hit", "bob", {"target": "orc"}), dice=[3])
    c.act(damage("bob", 20))
    c.advance(3600)
    stored = [step_json for e in c.log() for step_json in _as_json(e.explanation)]
    assert stored
    assert steps_from_json(stored) == _steps_adapter().validate_python(stored)
    # A hand-made step that is not exactly what we write is still pydantic's to read.
    loose = [{"text": "t", "rule": {"system": "toy", "section": "s"}}]
    assert steps_from_json(loose) == _steps_adapter().validate_python(loose)


def _as_json(steps: object) -> list[object]:
    from pydantic import TypeAdapter

    from rulekeeper.core import Step

    dumped: list[object] = TypeAdapter(tuple[Step, ...]).dump_python(steps, mode="json")
    return dumped


def test_open_store_urls(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    base = Path(str(tmp_path))
    monkeypatch.setenv("RULEKEEPER_DB", str(base / "env.db"))
    with open_store() as s:
        Campaign.create(s, "e", "toy")
    assert (base / "env.db").exists()
    with open_store(f"sqlite:///{base / 'url.db'}") as s:
        assert s.list_campaigns() == []
    for url in ("memory://", "sqlite://"):
        with open_store(url) as s:
            m = Campaign.create(s, "m", "toy")
            m.add_character("bob", {})
            m.undo()
            assert [i.name for i in s.list_campaigns()] == ["m"] and m.version == 2
            s.delete_campaign("m")
            with pytest.raises(UnknownNameError):
                s.delete_campaign("m")
    with pytest.raises(InputError, match="scheme"):
        open_store("mysql://x/y")
    with pytest.raises(InputError, match="no directory"):
        open_store(str(base / "missing" / "c.db"))
