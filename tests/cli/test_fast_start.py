"""The CLI starts fast: rolling dice or asking for help loads no database, web, numpy or icepool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli_table import Table

HEAVY = ("numpy", "sqlalchemy", "fastapi", "icepool", "psycopg", "uvicorn", "pydantic")

PROBE = """
import sys
from rulekeeper.cli.main import main
code = main({args!r})
sys.stdout.flush()
print("\\nMODULES=" + ",".join(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r})))
"""


def _loaded(args: list[str]) -> tuple[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=args, heavy=set(HEAVY))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    body, _, mods = out.rpartition("MODULES=")
    return body, [m for m in mods.strip().split(",") if m]


def test_roll_imports_nothing_heavy() -> None:
    body, modules = _loaded(["roll", "3d6", "--seed", "1"])
    assert body.startswith("3d6 (")
    assert modules == []


ALL_MODULES_PROBE = """
import sys
from rulekeeper.cli.main import main
code = main({args!r})
sys.stdout.flush()
print("\\nMODULES=" + ",".join(sorted(sys.modules)))
"""

# What ``rulekeeper roll`` must start without (issue #16): dataclasses drags in inspect, ast, dis
# and tokenize; the others are the Typer front end, its Rich output, pydantic and the dice grammar.
NOT_FOR_A_ROLL = ("dataclasses", "inspect", "typer", "click", "rich", "pydantic", "lark")


@pytest.mark.parametrize("args", [["roll", "3d6"], ["roll", "2d+1", "--seed", "3", "--json"]])
def test_a_plain_roll_loads_no_dataclasses_inspect_or_front_end(args: list[str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", ALL_MODULES_PROBE.format(args=args)], capture_output=True, text=True, check=True
    )
    body, _, modules = proc.stdout.rpartition("MODULES=")
    assert "3d6 (" in body or '"notation": "2d6+1"' in body
    loaded = [m for m in modules.strip().split(",") if m.split(".")[0] in NOT_FOR_A_ROLL]
    assert loaded == [], (args, loaded)


def test_help_imports_no_database_web_or_numpy() -> None:
    body, modules = _loaded(["--help"])
    assert "New here? Run 'rulekeeper demo'" in " ".join(body.split())  # our help text, however wrapped
    assert not [m for m in modules if m.split(".")[0] in ("numpy", "sqlalchemy", "fastapi", "psycopg", "uvicorn")]


def test_roll_json_and_seed_are_reproducible() -> None:
    def run() -> dict[str, object]:
        out = subprocess.run(
            [sys.executable, "-m", "rulekeeper.cli.main", "roll", "4d6kh3", "--seed", "42", "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        data: dict[str, object] = json.loads(out)
        return data

    first, second = run(), run()
    assert first == second
    assert 3 <= int(str(first["total"])) <= 18


def test_bad_dice_is_one_line_with_position_and_exit_2() -> None:
    for expr, fragment in (("3d6+", "position 5"), ("99999d6", "cap of 1,000"), ("2x6", "position")):
        proc = subprocess.run(
            [sys.executable, "-m", "rulekeeper.cli.main", "roll", expr], capture_output=True, text=True
        )
        assert proc.returncode == 2
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and fragment in lines[0] and "expected" in lines[0]
        assert "Traceback" not in proc.stderr


def test_check_chart_agrees_with_the_odds() -> None:
    for args in (["check", "6810", "8", "--threshold", "6"], ["check", "gurps", "12"], ["check", "gm", "14"]):
        proc = subprocess.run(
            [sys.executable, "-m", "rulekeeper.cli.main", *args, "--json"], capture_output=True, text=True, check=True
        )
        data = json.loads(proc.stdout)
        successes = sum(row["p"] for row in data["distribution"] if row["label"].endswith("S"))
        assert abs(successes - data["probability"]) < 1e-9, args


def test_check_refuses_options_that_do_not_apply_instead_of_ignoring_them() -> None:
    cases = (
        (["check", "wg", "--pool", "3", "-m", "2"], "-m 2 has no meaning for a Wrath & Glory pool test", "--dn 5"),
        # The ruleset says what its odds take, so the refusal names the option and the right form
        # (it used to name another system, which an adapter may no longer know: issue 24).
        (["check", "gurps", "12", "--pool", "3"], "--pool has no meaning for a gurps check", "check gurps TARGET"),
    )
    for args, fragment, hint in cases:
        proc = subprocess.run([sys.executable, "-m", "rulekeeper.cli.main", *args], capture_output=True, text=True)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and fragment in lines[0] and f"expected {hint}" in lines[0], lines
    ok = subprocess.run(
        [sys.executable, "-m", "rulekeeper.cli.main", "check", "wg", "--pool", "3", "--dn", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(ok.stdout)["check"].endswith("DN 5")


GCS_PROBE = """
import sys
from rulekeeper.cli.main import main
code = main({args!r})
sys.stdout.flush()
print("\\nGCS=" + ",".join(sorted(m for m in sys.modules if m.startswith("rulekeeper.systems.gurps.gcs"))))
"""


def test_a_gurps_campaign_command_does_not_load_the_gcs_importer(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.run("campaign", "new", "gurps-fast", "--system", "gurps", "--seed", "1")
    table.run("char", "add", "hero", "--set", "st=11", "--set", "dx=12")
    for args in (["pending"], ["char", "show", "hero"]):
        out = subprocess.run(
            [sys.executable, "-c", GCS_PROBE.format(args=args)],
            capture_output=True,
            text=True,
            check=True,
            env=table.env,
        ).stdout
        body, _, mods = out.rpartition("GCS=")
        assert "Traceback" not in body
        assert mods.strip() == "", (args, mods)
