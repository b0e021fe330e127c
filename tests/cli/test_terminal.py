"""The colour output of one combat round, in a real terminal: tmux runs rulekeeper, capture-pane reads it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

EXE = str(Path(sys.executable).parent / "rulekeeper")

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"),
    reason="tmux is not installed (scripts/check.py installs it)",
)


# A tmux server of this test process's own: two test workers starting the default server at
# once race for its socket, and one of them fails to make its session.
SOCKET = f"rulekeeper-tests-{os.getpid()}"


def _tmux(*args: str) -> str:
    run = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    assert run.returncode == 0, f"tmux {' '.join(args[:2])} failed: {run.stderr.strip()}"
    return run.stdout


@pytest.fixture(scope="module", autouse=True)
def _tmux_server() -> Iterator[None]:
    # The server outlives each test's session: one that exits with its last session may still be
    # going when the next test's new-session reaches its socket, and that session fails.
    _tmux("start-server", ";", "set-option", "-g", "exit-empty", "off")
    yield
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)


def test_combat_round_in_colour(tmp_path: Path) -> None:
    env = {
        **{k: v for k, v in os.environ.items() if k != "NO_COLOR"},
        "RULEKEEPER_DB": str(tmp_path / "tmux.db"),
        "RULEKEEPER_CONFIG": str(tmp_path / "selection.json"),
    }
    for args in (
        ["campaign", "new", "fight", "--system", "gurps", "--seed", "1"],
        ["char", "add", "hero", "--set", "ht=12"],
    ):
        subprocess.run([EXE, *args], env=env, check=True, capture_output=True)
    session = f"rk-{uuid.uuid4().hex[:8]}"
    marker = tmp_path / "done"
    script = f"{EXE} damage hero --amount 20 --rolled 3,3,3,3,3,3,6,6,6; {EXE} round; touch {marker}"
    _tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "160",
        "-y",
        "50",
        "-e",
        f"RULEKEEPER_DB={env['RULEKEEPER_DB']}",
        "-e",
        f"RULEKEEPER_CONFIG={env['RULEKEEPER_CONFIG']}",
        "-e",
        "TERM=xterm-256color",
    )
    try:
        _tmux("send-keys", "-t", session, f"unset NO_COLOR; {script}", "Enter")
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker.exists(), _tmux("capture-pane", "-p", "-t", session)
        coloured = _tmux("capture-pane", "-p", "-e", "-J", "-t", session, "-S", "-200")
        plain = _tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-200")
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True)
    assert "damage hero" in plain and "next round" in plain
    assert "HT to avoid death" in plain and "falls unconscious" in plain
    assert "\x1b[" in coloured, "no colour codes in a real terminal"
    assert "\x1b[" not in plain
