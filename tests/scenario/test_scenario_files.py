"""Every scenario file under tests/scenarios/ is a golden test: each must pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.demo import demo_files
from rulekeeper.scenario import run_file

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(p for p in SCENARIOS.rglob("*") if p.suffix in (".yaml", ".yml", ".json"))


@pytest.mark.parametrize(
    "path",
    FILES + demo_files(),
    ids=[p.name if "demo" in p.parts else str(p.relative_to(SCENARIOS)) for p in FILES + demo_files()],
)
def test_scenario_passes(path: Path) -> None:
    report = run_file(path)
    assert report.invalid is None, report.invalid
    assert report.steps_run > 0
    assert not report.failures, "\n".join(f.render() for f in report.failures)


def test_every_system_has_scenarios() -> None:
    systems = {p.relative_to(SCENARIOS).parts[0] for p in FILES}
    assert {"gurps", "gods-and-monsters", "wrath-and-glory", "vi-viii-x"} <= systems


def test_a_scenario_takes_typed_dice_as_a_campaign_does(tmp_path: Path) -> None:
    """Dice typed with a step are table dice, as with a campaign command: a GM-secret check under
    ``auto`` waits for the GM in both (the runner once rolled it from the typed dice)."""
    from rulekeeper.campaign import Campaign
    from rulekeeper.core import Action
    from rulekeeper.scenario import parse_scenario, run_scenario
    from rulekeeper.store import open_store

    sense = {"sense": "hearing", "dangerous": True, "danger_sense": True}
    dice = [6, 6, 5]  # fails Per 12: the Danger Sense roll follows
    store = open_store(str(tmp_path / "table.db"))
    try:
        campaign = Campaign.create(store, "night", "gurps", seed=3)
        campaign.add_character("scout", {"name": "Scout", "per": 12})
        campaign.act(Action("sense", "scout", sense), dice=dice)
        at_the_table = [p.check.kind for p in campaign.pending()]
    finally:
        store.close()
    scenario = parse_scenario(
        {
            "format": 1,
            "system": "gurps",
            "title": "typed dice",
            "characters": {"scout": {"name": "Scout", "per": 12}},
            "steps": [
                {"action": "sense", "actor": "scout", "params": sense, "dice": dice},
                {"expect": {"pending": len(at_the_table)}},
            ],
        }
    )
    report = run_scenario(scenario)
    assert at_the_table == ["gurps.sense.danger"]
    assert not report.failures, [f.render() for f in report.failures]


@pytest.mark.parametrize(
    "path",
    FILES + demo_files(),
    ids=[p.name if "demo" in p.parts else str(p.relative_to(SCENARIOS)) for p in FILES + demo_files()],
)
def test_scenario_passes_with_the_engine_rolling_and_ends_the_same(path: Path) -> None:
    """Under ``--automation auto`` every check a ``resolve`` step typed is rolled by the engine at its
    own moment with those dice (issue #25), resolves after advances included: the file's expectations
    hold, and the game ends as it does played as written."""
    written = run_file(path)
    report = run_file(path, automation="auto")
    assert report.invalid is None, report.invalid
    assert not report.failures, "\n".join(f.render() for f in report.failures)
    assert written.final_state is not None and report.final_state is not None
    mine, theirs = written.final_state, report.final_state
    assert theirs.clock == mine.clock
    assert theirs.characters == mine.characters
    assert sorted((c.actor, c.name, c.since, c.until) for c in theirs.conditions) == sorted(
        (c.actor, c.name, c.since, c.until) for c in mine.conditions
    )
