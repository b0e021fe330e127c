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
