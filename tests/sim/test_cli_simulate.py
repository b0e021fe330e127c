"""``rulekeeper simulate`` through the real executable: JSON, table, plots, sweeps, campaigns, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

EXE = str(Path(sys.executable).parent / "rulekeeper")


def _run(*args: str, code: int = 0, env: dict[str, str] | None = None, cwd: Path | None = None) -> Any:
    proc = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=300, env=env, cwd=cwd)
    assert proc.returncode == code, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr
    return proc


def test_json_and_table_of_a_bundled_encounter() -> None:
    data = json.loads(_run("simulate", "gurps-duel", "--runs", "150", "--seed", "4", "--workers", "0", "--json").stdout)
    assert data["runs"] == 150 and data["seed"] == 4 and data["partial"] is False
    assert set(data["sides"]) == {"heroes", "rivals", "draw"}
    assert set(data["characters"]) == {"brakka", "varl"}
    table = _run("simulate", "gurps-duel", "--runs", "150", "--seed", "4", "--workers", "0").stdout
    heroes = data["sides"]["heroes"]["value"]
    assert f"{heroes:.1%}" in table and "unconscious" in table and "fight length" in table


def test_plots_are_written_as_svg_and_png(tmp_path: Path) -> None:
    svg, png = tmp_path / "duel.svg", tmp_path / "sweep.png"
    _run("simulate", "gurps-duel", "--runs", "100", "--workers", "0", "--plot", str(svg))
    assert "<svg" in svg.read_text()[:500]
    out = _run(
        "simulate",
        "gurps-duel",
        "--runs",
        "50",
        "--workers",
        "0",
        "--plot",
        str(png),
        "--vary",
        "heroes.brakka.skills.broadsword=12..13",
        "--vary",
        "stop.rounds=20,30",
        "--json",
    )
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(json.loads(out.stdout)["cells"]) == 4


def test_campaign_characters_fight_as_they_are_now(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "RULEKEEPER_DB": str(tmp_path / "c.db"),
        "RULEKEEPER_CONFIG": str(tmp_path / "sel.json"),
        "NO_COLOR": "1",
    }
    sheet = {
        "st": 12,
        "dx": 12,
        "ht": 12,
        "skills": {"broadsword": 14},
        "weapons": [{"name": "broadsword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
    }
    (tmp_path / "brakka.yaml").write_text(yaml.safe_dump(sheet))
    _run("campaign", "new", "friday", "--system", "gurps", env=env)
    _run("char", "add", "brakka", "--sheet", str(tmp_path / "brakka.yaml"), env=env)
    _run("damage", "brakka", "--amount", "4", "--damage-type", "cr", env=env)  # 4 HP down before the fight
    encounter = {
        "format": 1,
        "system": "gurps",
        "sides": {"heroes": {"brakka": {}}, "foes": {"orc": {"character": "o"}}},
        "characters": {"o": sheet},
        "tactics": {"foes": {"maneuver": "do-nothing"}},
        "stop": {"until": "rounds", "rounds": 1},
    }
    (tmp_path / "enc.yaml").write_text(yaml.safe_dump(encounter))
    data = json.loads(
        _run(
            "simulate",
            str(tmp_path / "enc.yaml"),
            "--campaign",
            "friday",
            "--runs",
            "40",
            "--workers",
            "0",
            "--json",
            env=env,
        ).stdout
    )
    brakka = data["characters"]["brakka"]
    assert brakka["unhurt"]["value"] == 0.0 and brakka["wounded"]["value"] == 1.0  # the orc never strikes back
    assert brakka["health"]["mean"]["value"] == 8.0
    proc = _run("simulate", str(tmp_path / "enc.yaml"), "--campaign", "nosuch", env=env, code=2)
    assert "nosuch" in proc.stderr


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["nosuch.yaml"], "gurps-duel"),
        (["gurps-duel", "--runs", "0"], "--runs"),
        (["gurps-duel", "--seed", "-1"], "--seed"),
        (["gurps-duel", "--plot", "out.pdf"], ".svg or .png"),
        (["gurps-duel", "--vary", "heroes.brakka"], "PATH=LO..HI"),
        (["gurps-duel", "--vary", "varl.dx=10..12"], "starts with no side"),
        (["gurps-duel", "--workers", "-1"], "--workers"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], fragment: str, tmp_path: Path) -> None:
    proc = _run("simulate", *args, code=2, cwd=tmp_path)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr


def test_bad_yaml_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nsystem: gurps\nsides: [\n")
    proc = _run("simulate", str(bad), code=2)
    assert "bad.yaml" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_without_dask_the_error_names_the_extra() -> None:
    probe = (
        "import sys\n"
        "sys.modules['dask'] = None; sys.modules['dask.distributed'] = None  # as if not installed\n"
        "from rulekeeper.cli.main import main\n"
        "sys.exit(main(['simulate', 'gurps-duel', '--runs', '500', '--workers', '2']))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "rulekeeper[sim]" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
