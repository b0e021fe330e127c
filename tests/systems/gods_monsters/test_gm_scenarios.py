"""Every seed 000 test vector is a scenario file; each runs clean through the project's runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulekeeper.scenario import run_file

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios" / "gods-and-monsters"
OWN = sorted(p for p in SCENARIOS.glob("*.yaml") if not p.name.startswith("c-"))

VECTORS = {
    "toromeen.yaml",
    "next-day.yaml",
    "night-rest-success.yaml",
    "night-rest-failure.yaml",
    "injuries.yaml",
    "death-contest.yaml",
    "unconscious-while-dying.yaml",
    "spell-cap.yaml",
    "bonus-pool.yaml",
}


def test_every_seed_000_vector_has_a_scenario() -> None:
    assert {p.name for p in OWN} >= VECTORS


@pytest.mark.parametrize("path", OWN, ids=lambda p: p.name)
def test_scenario(path: Path) -> None:
    report = run_file(path)
    assert report.invalid is None, report.invalid
    assert report.steps_run >= 3
    assert not report.failures, "\n".join(f.render() for f in report.failures)
