"""A tmux server of the test process's own, for the terminal tests.

Two test workers starting tmux's default server at once race for its socket, and one of them
fails to make its session; and a server that exits with its last session may still be going when
the next test's ``new-session`` reaches its socket. So each process has its own socket, and its
server outlives each test's session (``exit-empty off``) until the module is done.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator

import pytest

SOCKET = f"rulekeeper-tests-{os.getpid()}"


def tmux(*args: str) -> str:
    run = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True)
    assert run.returncode == 0, f"tmux {' '.join(args[:2])} failed: {run.stderr.strip()}"
    return run.stdout


def kill_session(session: str) -> None:
    subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", session], capture_output=True)


@pytest.fixture(scope="module")
def tmux_server() -> Iterator[None]:
    tmux("start-server", ";", "set-option", "-g", "exit-empty", "off")
    yield
    subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)
