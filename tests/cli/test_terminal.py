"""The colour output of one combat round, in a real terminal: tmux runs rulekeeper, capture-pane reads it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from support.tmux import kill_session, tmux

EXE = str(Path(sys.executable).parent / "rulekeeper")

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"),
    reason="tmux is not installed (scripts/check.py installs it)",
)


pytestmark = [pytestmark, pytest.mark.usefixtures("tmux_server")]  # support/tmux.py: a server of our own


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
    tmux(
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
        tmux("send-keys", "-t", session, f"unset NO_COLOR; {script}", "Enter")
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert marker.exists(), tmux("capture-pane", "-p", "-t", session)
        coloured = tmux("capture-pane", "-p", "-e", "-J", "-t", session, "-S", "-200")
        plain = tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-200")
    finally:
        kill_session(session)
    assert "damage hero" in plain and "next round" in plain
    assert "HT to avoid death" in plain and "falls unconscious" in plain
    assert "\x1b[" in coloured, "no colour codes in a real terminal"
    assert "\x1b[" not in plain
