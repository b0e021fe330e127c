"""A pending check happens at its own moment, whoever asked for it (issue #25, roll_rules 5).

The clock may run ahead of a check left for the table, but nothing dated after its moment is applied
until it is resolved; then what waited is applied in time order. So the same dice give the same game
whether the engine rolls them (``auto``), the table types each as it appears, or the table types
them late, after the GM has moved the clock on.

The property plays random games of each system three ways from one stream of dice: (a) every kind
on ``auto``; (b) every kind on ``prompt``, each pending check resolved at once; (c) every kind on
``prompt``, the checks left waiting across the advances that follow and resolved, earliest first,
only before the next action (or at the end). All three must reach the same game and the same log
of consequences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from tests.core.test_prompt_flow import FIGHTS, Fight, Step, _perform, _summary
from tests.support.table import new_game

from rulekeeper.core import AutomationLevel, GameState, Ruleset, Settings, get_ruleset
from rulekeeper.core.engine import resolve_check
from rulekeeper.core.play import Event
from rulekeeper.dice.source import DiceSource, SeededSource
from rulekeeper.errors import InputError, RuleRefusal

HOUR = 3600
DAY = 24 * HOUR

# Realistic games: the fights of test_prompt_flow, and for each system the rests and days that let
# timers run while a check waits (Regroup and Respite, sleeping off wounds, recovering for days).
GAMES: dict[str, Fight] = {
    "gurps": replace(
        FIGHTS["gurps"],
        moves=(
            *FIGHTS["gurps"].moves,
            ("damage", "orc", {"amount": 14}),  # to -HP: death and consciousness rolls
            ("damage", "knight", {"amount": 8}),
            ("consciousness", "orc", {}),
            ("skill_roll", "knight", {"skill": "broadsword", "modifier": -2}),
            ("lose_fp", "knight", {"amount": 12}),  # to 0 FP: a Will roll to act before each maneuver
            ("rest", "knight", {"kind": "night"}),
            ("advance", 8 * HOUR),
            ("advance", DAY),
        ),
    ),
    "wrath-and-glory": replace(
        FIGHTS["wrath-and-glory"],
        moves=(
            *FIGHTS["wrath-and-glory"].moves,
            ("damage", "ari", {"dice": "2d6+6"}),  # past Wounds: Dying, Determination rolls
            ("rest", "ari", {"kind": "regroup"}),
            ("rest", "brute", {"kind": "respite"}),
            ("advance", HOUR),
            ("advance", 6 * HOUR),
        ),
    ),
    "gods-and-monsters": replace(
        FIGHTS["gods-and-monsters"],
        moves=(
            # Air and gas are asked for every round (test_prompt_flow plays them): over the days here
            # that is thousands of rolls, which auto refuses as one command (docs/limits.md).
            *(m for m in FIGHTS["gods-and-monsters"].moves if m[0] not in ("suffocate", "expose")),
            ("damage", "ingrid", {"amount": 8, "in_combat": True}),  # past survival: dying, death contest
            ("rest", "toromeen", {}),
            ("advance", 8 * HOUR),
            ("advance", DAY),
        ),
    ),
    "vi-viii-x": replace(
        FIGHTS["vi-viii-x"],
        moves=(
            *FIGHTS["vi-viii-x"].moves,
            ("damage", "guard", {"amount": 9}),
            ("advance", 3 * DAY),
        ),
    ),
}


def _prompting(ruleset: Ruleset[Any]) -> Settings:
    return Settings(automation={"*": AutomationLevel.PROMPT})


def _consequences(events: Sequence[Event]) -> list[tuple[Any, ...]]:
    """The log of what time brought: each timer fired (when, what, to whom) and each condition begun
    with its end. Conditions recomputed from the sheet (reeling, fading) are compared in the final
    state instead: when they are recomputed depends on how the table split its commands (a roll typed
    apart is a command of its own), not on what happened in the game."""
    kept = []
    for e in events:
        if e.kind == "timer-fired" or (e.kind == "condition-added" and e.data.get("until") is not None):
            kept.append((e.kind, e.actor, _plain(e.data)))
        elif e.kind == "command-refused":  # a command that waited, refused in its turn
            kept.append(("refused", str(e.data["name"]), (("why", str(e.data["why"])),)))
    return kept


def _plain(data: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in data.items() if k != "id"))


def _resolve_earliest(
    ruleset: Ruleset[Any],
    state: GameState[Any],
    stream: DiceSource,
    log: list[tuple[Any, ...]],
    *,
    overdue_only: bool = False,
    current_only: bool = False,
) -> GameState[Any]:
    """The table types every waiting check's dice, the earliest first, and of those due at one moment
    a roll's consequences before the checks asked beside it (as the engine rolls them under auto);
    ``overdue_only``: only those the clock has run past; ``current_only``: only those it has not."""
    queue = sorted((p for p in state.pending if p.after is None), key=lambda p: (p.created, p.id))
    while queue:
        pending = state.find_pending(queue.pop(0).id)
        if pending is None or (overdue_only and pending.created >= state.clock):
            continue  # withdrawn by an earlier roll's consequences, or not yet overdue
        if current_only and pending.created < state.clock:
            continue  # overdue: left waiting, and the commands given after it wait behind it
        typed = [stream.roll(s) for s in pending.check.dice_sides]
        mark = state.next_id
        outcome = resolve_check(ruleset, state, pending.id, stream, typed)
        log.extend(_consequences(outcome.events))
        state = outcome.state
        fresh = [p for p in state.pending if p.id >= mark and p.after is None]
        rest = [p for p in queue if state.find_pending(p.id) is not None]
        queue = sorted(fresh + rest, key=lambda p: p.created)  # stable: consequences first
    return state


def play(game: Fight, steps: Sequence[Step], seed: int, way: str) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    """One game played one way (``auto``, ``at-once``, ``late``, ``latest`` or ``never``): its summary
    and its log.

    ``latest`` leaves a check waiting across actions too, as long as the clock has not moved past it
    (a GM starting a rest while the dice of the damage before it are still being picked up).
    ``behind`` types the dice of the moment before each command (the table's order) but leaves every
    check the clock has run past waiting until the game is over: each command given after it waits
    behind it (roll_rules 6) and is applied in time order once it is settled."""
    ruleset = get_ruleset(game.system)
    state = new_game(ruleset, game.sheets, None if way == "auto" else _prompting(ruleset))
    stream = SeededSource(seed)
    log: list[tuple[Any, ...]] = []
    for step in steps:
        if way in ("late", "latest") and step[0] != "advance":
            state = _resolve_earliest(ruleset, state, stream, log, overdue_only=way == "latest")
        if way == "behind" and step[0] != "advance":
            state = _resolve_earliest(ruleset, state, stream, log, current_only=True)
        try:
            outcome = _perform(ruleset, state, step, stream)
        except (RuleRefusal, InputError) as exc:  # a refused command changes nothing, whoever rolls
            log.append(("refused", str(step[0]), (("why", str(exc)),)))
            continue
        log.extend(_consequences(outcome.events))
        state = outcome.state
        if way == "at-once":
            state = _resolve_earliest(ruleset, state, stream, log)
    state = _resolve_earliest(ruleset, state, stream, log)
    return _summary(ruleset, state), log


def _three_ways(game: Fight, steps: Sequence[Step], seed: int, late: str = "late") -> None:
    auto = play(game, steps, seed, "auto")
    for way in ("at-once", late, "behind"):
        summary, log = play(game, steps, seed, way)
        assert summary == auto[0], f"typed {way}"
        assert log == auto[1], f"the log, typed {way}"


GAMES_RUN = {"count": 0}


@st.composite
def _games(draw: st.DrawFn, system: str) -> tuple[list[Step], int]:
    game = GAMES[system]
    steps = draw(st.lists(st.sampled_from(game.moves), min_size=2, max_size=12))
    return steps, draw(st.integers(0, 2**32))


def _property(system: str) -> Any:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(_games(system))
    def check(game: tuple[list[Step], int]) -> None:
        steps, seed = game
        note(f"steps={steps!r} seed={seed}")
        GAMES_RUN["count"] += 1
        _three_ways(GAMES[system], steps, seed)

    return check


test_gurps_is_the_same_game_whoever_rolls_and_whenever = _property("gurps")
test_wrath_and_glory_is_the_same_game_whoever_rolls_and_whenever = _property("wrath-and-glory")
test_gods_and_monsters_is_the_same_game_whoever_rolls_and_whenever = _property("gods-and-monsters")
test_vi_viii_x_is_the_same_game_whoever_rolls_and_whenever = _property("vi-viii-x")


# -- the defects found in review, each the same game typed on time and typed late ---------------------
WG_MEDIC = {"tier": 1, "toughness": 3, "willpower": 3, "intellect": 3, "medicae": 2}

# system, sheets, steps, first seed, how late the table types (see ``play``)
REVIEW_CASES: dict[str, tuple[str, Mapping[str, Mapping[str, Any]], tuple[Step, ...], int, str]] = {
    # G&M: the roll to stay conscious typed after the GM ended the round: the death contest was built
    # before the failure took effect (no unconscious +2), and its timer ran in the wrong unit.
    "gm-consciousness-after-the-round": (
        "gods-and-monsters",
        {"ingrid": GAMES["gods-and-monsters"].sheets["ingrid"]},
        (
            ("damage", "ingrid", {"amount": 5, "in_combat": True}),
            ("damage", "ingrid", {"amount": 5, "in_combat": True}),
            ("advance", 10),
            ("advance", HOUR),
        ),
        11,
        "late",
    ),
    # W&G: a Determination roll from a damage command waiting while the GM advances; a Respite begun
    # later completed first.
    "wg-determination-before-a-later-respite": (
        "wrath-and-glory",
        GAMES["wrath-and-glory"].sheets,
        (
            ("damage", "ari", {"dice": "1d6+5"}),
            ("rest", "ari", {"kind": "respite"}),
            ("advance", 6 * HOUR),
        ),
        5,
        "latest",
    ),
    # W&G: a Regroup, then late damage whose Determination waits while the Regroup's hour passes.
    "wg-regroup-then-late-damage": (
        "wrath-and-glory",
        {**GAMES["wrath-and-glory"].sheets, "medic": WG_MEDIC},
        (
            ("rest", "ari", {"kind": "regroup", "healer": "medic"}),
            ("damage", "ari", {"dice": "1d6+5"}),
            ("advance", HOUR),
        ),
        3,
        "latest",
    ),
}


@pytest.mark.parametrize("case", sorted(REVIEW_CASES))
@pytest.mark.parametrize("seed_offset", range(6))
def test_a_check_typed_late_is_the_same_game(case: str, seed_offset: int) -> None:
    system, sheets, steps, seed, late = REVIEW_CASES[case]
    game = Fight(system, sheets, steps)
    _three_ways(game, steps, seed + seed_offset, late)


def test_a_campaign_stored_under_roll_rules_4_lets_time_run_past_a_commands_check() -> None:
    """Old histories replay as they were played: under roll_rules 4 a command's check did not hold time."""
    ruleset = get_ruleset("wrath-and-glory")
    sheets = GAMES["wrath-and-glory"].sheets
    now = new_game(ruleset, sheets, _prompting(ruleset))
    old = now.with_settings(replace(now.settings, roll_rules=4))
    for state, holds in ((now, True), (old, False)):
        out = _perform(ruleset, state, ("damage", "ari", {"dice": "1d6+5"}), SeededSource(1))
        assert out.state.pending and all(p.blocks_time is holds for p in out.state.pending)


def _waiting_behind_damage(store: Any, seed: int) -> Any:
    """A W&G table rolling its own dice: a Regroup, then damage whose dice are not typed before the
    GM lets two hours pass; the Regroup's end waits for them."""
    from rulekeeper.campaign import Campaign
    from rulekeeper.core import Action

    campaign = Campaign.create(store, "night", "wrath-and-glory", seed=seed)
    campaign.add_character("ari", {"tier": 1, "toughness": 3, "willpower": 3})
    campaign.set_settings(automation={"wg": "prompt"})
    campaign.act(Action("rest", "ari", {"kind": "regroup"}))
    campaign.act(Action("damage", "ari", {"dice": "1d6+5"}))
    campaign.advance(2 * HOUR)
    return campaign


def test_what_waits_is_said_in_words_never_as_no_time_left(tmp_path: Any) -> None:
    """status, its JSON and the GM's page say whose roll holds time and what waits behind it."""
    from rulekeeper.cli.status import status_json, status_lines
    from rulekeeper.core.waiting import what_waits
    from rulekeeper.store import open_store

    store = open_store(str(tmp_path / "table.db"))
    try:
        campaign = _waiting_behind_damage(store, 3)
        [waiting] = what_waits(campaign.state)
        text = waiting.text()
        assert text.startswith("waiting for ") and "ari" in text and f"(#{waiting.pending.id}), due at 0s" in text
        assert text.endswith("; 1 later consequence waits for it")  # the Regroup's end
        lines = "\n".join(status_lines(campaign, columns=200))
        assert text in lines
        assert f"regroup completes once #{waiting.pending.id} is rolled" in lines
        assert "0s left" not in lines and " in 0s" not in lines
        assert status_json(campaign)["waiting"][0]["later"] == 1
    finally:
        store.close()


def test_switching_a_kind_to_auto_rolls_what_waits_and_the_history_replays(tmp_path: Any) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.store import open_store

    path = str(tmp_path / "table.db")
    store = open_store(path)
    try:
        campaign = _waiting_behind_damage(store, 5)
        assert campaign.pending() and campaign.state.timers_of("ari", "wg.rest")  # the Regroup waits
        switched = campaign.set_settings(automation={"wg": "auto"})
        assert not campaign.pending()
        assert not campaign.state.timers_of("ari", "wg.rest")  # it came after the rolls, in time order
        assert switched.outcome is not None and "automation wg: auto" in switched.outcome.render()
        played = campaign.state
    finally:
        store.close()
    store = open_store(path)
    try:
        again = Campaign.open(store, "night", use_snapshots=False)
        assert again.state == played  # replayed from the recorded commands and dice
        last = again.log()[-1]
        assert last.kind == "set_settings" and last.dice  # the rolls it made are in the history
    finally:
        store.close()
