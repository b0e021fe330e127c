"""Scenario files are checked whole against the schema (a model per step kind) before anything
runs: the wrong type anywhere is a clear InputError naming the step and field, never an
AttributeError or a RecursionError; ``format: true``, ``round_seconds: 0`` and unknown automation
keys are refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_run import Db

from rulekeeper.errors import InputError
from rulekeeper.scenario import load_scenario

HEAD = """format: 1
system: gm
characters:
  t: {archetype: warrior, level: 2, survival: 7, verve: 17}
"""

BAD = [
    ("automation list", "settings: {automation: [1]}\n", "settings.automation"),
    ("automation level", "settings: {automation: {gm.death: [1]}}\n", "settings.automation"),
    ("unknown automation key", "settings: {automation: {gm.nonsense: auto}}\n", "no gods-and-monsters check kind"),
    ("round_seconds 0", "settings: {options: {round_seconds: 0}}\n", "round_seconds=0 is out of range"),
    ("options list", "settings: {options: [1]}\n", "settings.options"),
    ("expect result list", "steps: [{expect: {result: [1]}}]\n", "expect.result"),
    ("expect timers number", "steps: [{expect: {timers: 5}}]\n", "expect.timers"),
    ("expect pending text", "steps: [{expect: {pending: two}}]\n", "expect.pending"),
    ("action list", "steps: [{action: [damage]}]\n", "step 1"),
    ("actor list", "steps: [{action: damage, actor: [t]}]\n", "actor"),
    ("params list", "steps: [{action: damage, actor: t, params: [1]}]\n", "params"),
    ("dice text", "steps: [{action: damage, actor: t, dice: five}]\n", "dice must be a list"),
    ("round text", "steps: [{round: many}]\n", "round"),
    ("round huge", "steps: [{round: 100000000}]\n", "round"),
    ("resolve float", "steps: [{resolve: 1.5}]\n", "resolve"),
    ("advance list", "steps: [{advance: [1h]}]\n", "advance"),
    ("note mapping", "steps: [{round: 1, note: {a: 1}}]\n", "note"),
    ("characters list", "steps: []\ntitle: [x]\n", "title"),
    # Refused by our walk or first by the YAML library's own depth limit: either names the nesting.
    ("deep nesting", "steps: [{expect: {result: " + "[" * 5_000 + "]" * 5_000 + "}}]\n", "nest"),
    ("nesting past our limit", "steps: [{expect: {result: " + "[" * 80 + "]" * 80 + "}}]\n", "64 levels deep"),
]


@pytest.mark.parametrize(("what", "tail", "fragment"), BAD, ids=[b[0] for b in BAD])
def test_a_wrong_type_anywhere_is_a_clear_input_error(tmp_path: Path, what: str, tail: str, fragment: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + tail)
    with pytest.raises(InputError, match=fragment.replace(".", r"\.").replace("[", r"\[")):
        load_scenario(path)


@pytest.mark.parametrize("version", ["true", "1.0", "'1'", "2"])
def test_only_format_1_is_read(tmp_path: Path, version: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD.replace("format: 1", f"format: {version}"))
    with pytest.raises(InputError, match="is not supported"):
        load_scenario(path)


def test_the_command_line_reports_exit_2_and_runs_nothing(db: Db, tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(HEAD + "steps:\n  - round: 1\n  - {expect: {timers: 5}}\n")
    run = db.run("scenario", "run", str(path))
    assert run.code == 2 and "Traceback" not in run.stderr
    assert "step 2" in run.stderr and "expect.timers" in run.stderr
