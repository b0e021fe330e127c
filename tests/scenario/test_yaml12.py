"""Scenario files read plain scalars by YAML 1.2's core schema: a bare ``on:`` is the word a person
wrote, not YAML 1.1's boolean, and ``1:30`` is not the sexagesimal number 90."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml

from rulekeeper.scenario import load_scenario
from rulekeeper.scenario.runner import run_scenario
from rulekeeper.yaml12 import core_schema_loader

LOADER = core_schema_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("on", "on"), ("off", "off"), ("yes", "yes"), ("no", "no"), ("y", "y"), ("N", "N"),
        ("true", True), ("False", False), ("TRUE", True),
        ("~", None), ("null", None), ("", None),
        ("12", 12), ("-3", -3), ("010", 10), ("0o10", 8), ("0x1f", 31),
        ("1:30", "1:30"), ("2026-11-26", "2026-11-26"), ("1_000", "1_000"),
        ("1.5", 1.5), ("-2e3", -2000.0), (".5", 0.5), ("-.inf", -math.inf),
        ("3d6", "3d6"), ("'on'", "on"),
    ],
)
def test_plain_scalars_follow_the_core_schema(text: str, value: object) -> None:
    assert yaml.load(f"k: {text}", Loader=LOADER) == {"k": value}


def test_nan_and_merge_keys() -> None:
    assert math.isnan(yaml.load("k: .nan", Loader=LOADER)["k"])
    merged = yaml.load("base: &b {kind: blind}\nstep: {<<: *b, turns: 3}", Loader=LOADER)
    assert merged["step"] == {"kind": "blind", "turns": 3}


def test_a_bare_on_key_reaches_the_action_as_written(tmp_path: Path) -> None:
    path = tmp_path / "state.yaml"
    path.write_text(
        "format: 1\nsystem: vi-viii-x\ncharacters:\n  mage: {BU: 4, CO: 5, IN: 7, EM: 6}\nsteps:\n"
        "  - action: state\n    actor: mage\n    params: {kind: deafened}\n"
        "  - expect: {character: mage, conditions: [deafened]}\n"
        "  - action: state\n    actor: mage\n    params: {kind: deafened, on: no}\n"
        "  - expect: {character: mage, no_conditions: [deafened]}\n"
        "  - action: state\n    actor: mage\n    params: {kind: blind}\n"
        "  - action: state\n    actor: mage\n    params: {kind: blind, on: off}\n"
        "  - expect: {character: mage, no_conditions: [blind]}\n"
    )
    scenario = load_scenario(path)
    assert scenario.steps[2].data["params"] == {"kind": "deafened", "on": "no"}
    assert scenario.steps[5].data["params"] == {"kind": "blind", "on": "off"}
    report = run_scenario(scenario)
    assert report.passed, (report.invalid, report.failures)
