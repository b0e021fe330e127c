from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import rulekeeper.dice as dice

SRC = Path(__file__).resolve().parents[2] / "src"

REQUIRED = {
    "parse",
    "roll",
    "Expr",
    "Roll",
    "DieResult",
    "Distribution",
    "distribution",
    "DiceSource",
    "SeededSource",
    "ScriptedSource",
    "RecordingSource",
    "FallbackSource",
    "DiceExhausted",
}

HEAVY = ["numpy", "icepool", "sqlalchemy", "fastapi", "rich"]


def test_public_api_is_curated() -> None:
    assert set(dice.__all__) >= REQUIRED
    assert len(dice.__all__) == len(set(dice.__all__))
    for name in dice.__all__:
        assert hasattr(dice, name), name


def _modules_after(code: str) -> dict[str, bool]:
    env = {**os.environ, "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    probe = f"{code}\nimport json, sys\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    result: dict[str, bool] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def test_rolling_imports_nothing_heavy() -> None:
    loaded = _modules_after(
        "from rulekeeper.dice import parse, roll, SeededSource\n"
        "print(roll(parse('3d6'), SeededSource(1)))\n"
        "print(roll('4d6kh3[6:1]', SeededSource(2)).to_json())"
    )
    assert not any(loaded.values()), loaded


def test_odds_and_rich_load_their_libraries_only_when_asked() -> None:
    # Shows the probe above can fail: these calls do pull the libraries in.
    loaded = _modules_after(
        "from rulekeeper.dice import distribution, roll, SeededSource\n"
        "distribution('3d6')\n"
        "roll('3d6', SeededSource(1)).to_rich()"
    )
    assert loaded["icepool"] and loaded["rich"]
