"""The four systems' whole fights with every roll typed at the table (issue #13) reach the same game
when the same file runs with everything on ``auto`` and the same dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.scenario import run_file

SCENARIOS = Path(__file__).parent.parent / "scenarios"
FIGHTS = sorted(SCENARIOS.glob("*/prompt-whole-fight.yaml"))
# Rolls asked in the middle of other rules (Fright durations, Diplomacy's reaction roll, an NPC's
# survival dice, the breath of the unprepared, an ailment's injury points).
TABLE_ROLLS = sorted(SCENARIOS.glob("*/prompt-table-rolls.yaml"))


def _game(report: Any) -> dict[str, Any]:
    state = report.final_state
    ruleset = get_ruleset(state.system)
    views = {}
    for actor in state.characters:
        view = dict(ruleset.view(state, actor))
        if isinstance(view.get("conditions"), list):  # the order a later roll adds them in may differ
            view["conditions"] = sorted(map(str, view["conditions"]))
        views[actor] = view
    return {
        "clock": state.clock,
        "views": views,
        "conditions": sorted((c.actor, c.name, c.since, c.until) for c in state.conditions),
        "timers": sorted((t.due, t.kind, t.label) for t in state.timers),
        "pending": len(state.pending),
    }


def test_every_system_has_a_prompted_fight() -> None:
    assert {p.parent.name for p in FIGHTS} == {"gurps", "gods-and-monsters", "wrath-and-glory", "vi-viii-x"}
    assert {p.parent.name for p in TABLE_ROLLS} == {"gurps", "gods-and-monsters"}


@pytest.mark.parametrize("path", [*FIGHTS, *TABLE_ROLLS], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_prompted_fight_and_the_same_dice_on_auto_reach_the_same_game(path: Path) -> None:
    prompted = run_file(path)
    assert prompted.passed, [f.render() for f in prompted.failures]
    assert sum("waiting for dice" in line for line in prompted.transcript) >= 4  # every roll was typed
    automatic = run_file(path, automation="auto")
    assert automatic.passed, [f.render() for f in automatic.failures]
    assert not any("waiting for dice" in line for line in automatic.transcript)
    assert _game(automatic) == _game(prompted)


def test_prompt_override_keeps_the_file_playable() -> None:
    path = next(p for p in FIGHTS if p.parent.name == "gurps")
    assert run_file(path, automation="prompt").passed
    report = run_file(path, automation="sometimes")
    assert report.exit_code == 2 and "expected auto, prompt or note" in str(report.invalid)
