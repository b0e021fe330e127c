"""Runs the real ``rulekeeper`` executable against one SQLite file, as a GM at a terminal would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

EXE = str(Path(sys.executable).parent / "rulekeeper")


class Table:
    """Runs rulekeeper commands against one database, as a GM at a terminal would."""

    def __init__(self, tmp_path: Path, db: str = "night.db") -> None:
        self.env = {
            **os.environ,
            "RULEKEEPER_DB": str(tmp_path / db),
            "RULEKEEPER_CONFIG": str(tmp_path / "selection.json"),
            "NO_COLOR": "1",
        }

    def run(self, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([EXE, *args], capture_output=True, text=True, env=self.env, timeout=120)
        assert proc.returncode == code, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
        return proc

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args, "--json").stdout)

    def version(self) -> int:
        return int(self.json("campaign", "show")["version"])

    def refused(self, *args: str, code: int, fragment: str) -> None:
        before = self.version()
        proc = self.run(*args, code=code)
        lines = proc.stderr.strip().splitlines()
        assert len(lines) <= 2 and fragment in proc.stderr, proc.stderr
        assert self.version() == before, "a refused command changed the campaign"
