"""Replayable scenario files: a system, characters and ordered steps with expectations.

The format is public and versioned (``format: 1``); see docs/scenarios.md.
"""

from rulekeeper.scenario.loader import Scenario, ScenarioStep, load_scenario, parse_scenario
from rulekeeper.scenario.runner import Failure, ScenarioReport, run_file, run_scenario

__all__ = [
    "Failure",
    "Scenario",
    "ScenarioReport",
    "ScenarioStep",
    "load_scenario",
    "parse_scenario",
    "run_file",
    "run_scenario",
]
