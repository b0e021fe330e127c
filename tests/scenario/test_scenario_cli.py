"""``rulekeeper scenario run``: exit codes, and reports that name the file, step, line and field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).parent / "rulekeeper")
ROOT = Path(__file__).resolve().parent.parent.parent

GOOD = """\
format: 1
system: wg
characters:
  ari: {tier: 1, toughness: 3, willpower: 3}
steps:
  - action: damage
    actor: ari
    params: {amount: 8}
    dice: [1, 1, 1]
  - expect:
      character: ari
      view: {wounds: 4}
"""


def _run(*paths: Path, json_out: bool = False) -> subprocess.CompletedProcess[str]:
    args = [EXE, "scenario", "run", *map(str, paths)] + (["--json"] if json_out else [])
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_passing_file_exits_0(tmp_path: Path) -> None:
    proc = _run(_write(tmp_path, GOOD))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("ok")


def test_failed_expectation_exits_1_with_step_expected_and_actual(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("wounds: 4", "wounds: 3"))
    proc = _run(path)
    assert proc.returncode == 1
    assert str(path) in proc.stdout and "step 2 (line 10)" in proc.stdout
    assert "expected 3, got 4" in proc.stdout


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (("action: damage", "action: explode"), "unknown wrath-and-glory action 'explode'"),
        (("format: 1", "format: 9"), "format: 1"),
        (("amount: 8", "amount: -8"), "out of range"),
        (("actor: ari", "actor: bob"), "unknown character 'bob'"),
        (("dice: [1, 1, 1]", "dice: [1, x]"), "dice must be a list of whole numbers"),
        (("toughness: 3", "toughness: three"), "toughness"),
        (("    params: {amount: 8}", "    params: {amount: 8\n  oops"), "not valid YAML"),
        (("system: wg", "system: dnd"), "unknown game system"),
    ],
)
def test_invalid_file_exits_2_and_nothing_runs(tmp_path: Path, change: tuple[str, str], fragment: str) -> None:
    path = _write(tmp_path, GOOD.replace(*change))
    proc = _run(path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert fragment in proc.stderr and str(path) in proc.stderr
    assert "Traceback" not in proc.stderr
    assert "ok" not in proc.stdout


def test_step_and_line_of_an_invalid_step_are_named(tmp_path: Path) -> None:
    proc = _run(_write(tmp_path, GOOD.replace("action: damage", "action: explode")))
    assert "step 1 (line 6)" in proc.stderr and "expected one of" in proc.stderr


def test_json_report_and_worst_exit_code_over_many_files(tmp_path: Path) -> None:
    good = _write(tmp_path, GOOD, "good.yaml")
    bad = _write(tmp_path, GOOD.replace("wounds: 4", "wounds: 5"), "bad.yaml")
    proc = _run(good, bad, json_out=True)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert [f["passed"] for f in report["files"]] == [True, False]
    failure = report["files"][1]["failures"][0]
    assert failure["expected"] == 5 and failure["actual"] == 4


def test_expect_error_step_passes_only_when_refused(tmp_path: Path) -> None:
    refused = GOOD + "  - action: damage\n    actor: ari\n    params: {amount: -1}\n    expect_error: out of range\n"
    assert _run(_write(tmp_path, refused)).returncode == 0
    accepted = GOOD + "  - action: heal\n    actor: ari\n    params: {wounds: 1}\n    expect_error: nope\n"
    proc = _run(_write(tmp_path, accepted, "accepted.yaml"))
    assert proc.returncode == 1 and "expected the step to be refused" in proc.stdout


def test_unused_scripted_dice_fail_the_step(tmp_path: Path) -> None:
    proc = _run(_write(tmp_path, GOOD.replace("dice: [1, 1, 1]", "dice: [1, 1, 1, 5, 5]")))
    assert proc.returncode == 1 and "2 of the given dice were not used" in proc.stdout


def test_toromeen_demo_runs_verbose() -> None:
    proc = _run(ROOT / "src" / "rulekeeper" / "demo" / "gods-and-monsters.yaml")
    assert proc.returncode == 0, proc.stdout


DYING_RANGER = """\
format: 1
system: 6810
characters:
  ranger: {name: Ranger, BU: 6, CO: 5, IN: 4, EM: 5, us: {VIG: 3}}
steps:
  - action: damage
    actor: ranger
    params: {amount: 10}
  - expect:
      character: ranger
      view: {fatalities: {}}
"""


def test_an_empty_mapping_means_exactly_empty(tmp_path: Path) -> None:
    # The ranger is in the death state, so `fatalities: {}` must fail rather than match anything.
    proc = _run(_write(tmp_path, DYING_RANGER))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "ranger.fatalities" in proc.stdout and "expected {}" in proc.stdout


HEADER = DYING_RANGER.split("steps:")[0] + "steps:\n"
DAMAGE = "  - action: damage\n    actor: ranger\n    params: {amount: 10}\n"


@pytest.mark.parametrize(
    ("expect", "fragment"),
    [
        ("conditions: []", "should have no conditions"),
        ("view: {permanent_states: [], conditions: []}", "ranger.conditions"),
        ("timers: []", "no timers"),
    ],
)
def test_empty_lists_compare_exactly(tmp_path: Path, expect: str, fragment: str) -> None:
    step = "  - expect:\n      character: ranger\n      " + expect + "\n"
    # Before anything happens the exactly-empty expectation holds ...
    assert _run(_write(tmp_path, HEADER + step, "untouched.yaml")).returncode == 0
    # ... and once the ranger is dying it does not.
    proc = _run(_write(tmp_path, HEADER + DAMAGE + step, "hurt.yaml"))
    assert proc.returncode == 1 and fragment in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("expect", "fragment"),
    [
        ("{character: ranger}", "compares nothing"),
        ("{character: ranger, view: {}}", "expect.view is empty"),
        ("{character: ranger, no_conditions: []}", "expect.no_conditions is empty"),
        ("{character: ranger, conditions: dying}", "expect.conditions ('dying') is not a list"),
    ],
)
def test_an_expectation_that_compares_nothing_is_an_invalid_file(tmp_path: Path, expect: str, fragment: str) -> None:
    text = DYING_RANGER.split("  - expect:")[0] + f"  - expect: {expect}\n"
    proc = _run(_write(tmp_path, text))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert fragment in proc.stderr and "step 2" in proc.stderr
    assert "Traceback" not in proc.stderr
