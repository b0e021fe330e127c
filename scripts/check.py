"""The whole test gate: lint, strict typing, then every test (PostgreSQL and terminal tests included).

Run by the README's test command and by .ci/run. Exits non-zero if any stage fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def stage(name: str, argv: list[str]) -> None:
    print(f"== {name}: {' '.join(argv)}", flush=True)
    # RULEKEEPER_GATE: tests/conftest.py fails the run on any skipped test.
    code = subprocess.call(argv, cwd=ROOT, env={**os.environ, "RULEKEEPER_GATE": "1"})
    if code != 0:
        print(f"== {name} failed (exit {code})", flush=True)
        sys.exit(code or 1)


def ensure_tmux() -> None:
    """The terminal test drives a real tmux; install Debian's package when it is missing."""
    if shutil.which("tmux"):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("== installing tmux for the terminal test", flush=True)
        subprocess.call(["apt-get", "update", "-qq"])
        subprocess.call(["apt-get", "install", "-y", "-qq", "tmux"])
    if not shutil.which("tmux"):
        print("== tmux is missing and could not be installed: install it (apt-get install tmux)", flush=True)
        sys.exit(1)


CHROMIUM = "/usr/bin/chromium"


def ensure_chromium() -> None:
    """The browser tests drive Debian's Chromium through Playwright (never ``playwright install``,
    whose downloads are not reachable everywhere); install the package when it is missing."""
    if Path(CHROMIUM).exists():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        print("== installing chromium for the browser tests", flush=True)
        subprocess.call(["apt-get", "update", "-qq"])
        subprocess.call(["apt-get", "install", "-y", "-qq", "chromium"])
    if not Path(CHROMIUM).exists():
        print(f"== {CHROMIUM} is missing and could not be installed: apt-get install chromium", flush=True)
        sys.exit(1)


def main() -> None:
    stage("ruff", [str(BIN / "ruff"), "check", "src", "tests", "benchmarks", "scripts"])
    stage("mypy --strict", [str(BIN / "mypy"), "--strict", "src"])
    ensure_tmux()
    ensure_chromium()
    # One test process per core (at most 4): most tests wait on subprocesses, servers and Chromium,
    # so two workers on a two-core machine nearly halve the gate. --dist loadfile keeps a module's
    # tests together, so its server or browser starts once.
    workers = min(os.cpu_count() or 1, 4)
    parallel = ["-n", str(workers), "--dist", "loadfile"] if workers > 1 else []
    stage("pytest", [str(BIN / "python"), "-m", "pytest", "-q", *parallel, *sys.argv[1:]])


if __name__ == "__main__":
    main()
