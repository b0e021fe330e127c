"""Running the real ``rulekeeper`` under a memory limit and a kill switch, and bombs to feed it.

Each run is a subprocess under ``resource.setrlimit(RLIMIT_AS)`` at :data:`MEMORY_LIMIT`: input that
made the process grow without bound dies with a MemoryError (exit 3) instead of exhausting the
machine, and the test fails on the exit code. A timer kills a run that outlives :data:`TIME_LIMIT`
(a safety net so CI cannot hang, not a performance assertion).
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

EXE = str(Path(sys.executable).parent / "rulekeeper")
MEMORY_LIMIT = 512 << 20
TIME_LIMIT = 120.0


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    peak_kb: int


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_bounded(args: list[str], env: dict[str, str], stdin: str | None = None) -> Run:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [EXE, *args],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=env,
            preexec_fn=_limit_memory,
        )
        if stdin is not None:
            assert proc.stdin is not None
            proc.stdin.write(stdin.encode())
            proc.stdin.close()
        timer = threading.Timer(TIME_LIMIT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(proc.returncode, out.read().decode(), err.read().decode(), int(usage.ru_maxrss))


def assert_refused(run: Run, code: int = 2, fragment: str = "") -> None:
    """Refused as bad input: the exit code, one line on stderr, no traceback, not killed."""
    assert run.code == code, f"exit {run.code}\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}"
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr[-2000:]
    assert fragment in run.stderr, run.stderr


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A YAML mapping of a few hundred characters whose aliases expand to width**levels nodes."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def flow_bomb(levels: int = 9, width: int = 9) -> str:
    """The same bomb on one line (for ``--set FIELD=VALUE``)."""
    return "{" + ", ".join(alias_bomb(levels, width).strip().splitlines()) + "}"


class Db:
    """A SQLite file with campaigns, and a look at it that does not go through rulekeeper."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "hostile.db"
        self.env = {
            **os.environ,
            "RULEKEEPER_DB": str(self.path),
            "RULEKEEPER_CONFIG": str(tmp_path / "selection.json"),
            "NO_COLOR": "1",
        }

    def run(self, *args: str, stdin: str | None = None) -> Run:
        return run_bounded(list(args), self.env, stdin)

    def ok(self, *args: str) -> Run:
        run = self.run(*args)
        assert run.code == 0, f"{args}: exit {run.code}\n{run.stderr}"
        return run

    def rows(self) -> dict[str, int]:
        """Each table's row count, read straight from the file."""
        with sqlite3.connect(self.path) as conn:
            return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("campaigns", "events")}

    def versions(self) -> dict[str, int]:
        with sqlite3.connect(self.path) as conn:
            return dict(conn.execute("SELECT name, version FROM campaigns").fetchall())

    def execute(self, sql: str, *params: object) -> None:
        with sqlite3.connect(self.path) as conn:
            conn.execute(sql, params)

    def export(self, name: str) -> dict[str, object]:
        data: dict[str, object] = json.loads(self.ok("campaign", "export", name).stdout)
        return data
