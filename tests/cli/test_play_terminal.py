"""``rulekeeper play`` at the table: a real tmux pane of 80×24, keys sent, the screen read back.

One combat round per system inside the shell; every captured line (wrapped lines joined back)
must fit 80 columns, Tab must offer the campaign's characters, Ctrl-C must cancel the line and
leave the shell running, and history must survive into the next evening.
"""

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

from support.tmux import kill_session, tmux

EXE = str(Path(sys.executable).parent / "rulekeeper")

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None and not os.environ.get("CI"),
    reason="tmux is not installed (scripts/check.py installs it)",
)

# system, characters (id, --set pairs), the lines of one combat round.
ROUNDS: list[tuple[str, list[tuple[str, list[str]]], list[str]]] = [
    (
        "gurps",
        [("Ingrid", ["st=12", "ht=11"]), ("orc1", ["st=11", "ht=10"])],
        ["damage orc1 --amount 7 --damage-type cut", "damage ingrid --amount 3", "round", "status"],
    ),
    (
        "gm",
        [("Toromeen", ["archetype=warrior", "level=2", "survival=7", "verve=17"]), ("orc1", ["survival=4"])],
        ["damage toromeen --amount 5 --in-combat", "damage orc1 --amount 6 --in-combat", "round", "status"],
    ),
    (
        "wg",
        [("Ari", ["tier=1", "toughness=3", "willpower=3"]), ("orc1", ["tier=1", "toughness=4", "willpower=2"])],
        ["damage ari --amount 9", "damage orc1 --amount 12", "round", "status"],
    ),
    (
        "6810",
        [("Ranger", ["BU=6", "CO=5", "IN=4", "EM=5", "us.VIG=3"]), ("wolf", ["BU=4", "CO=3", "IN=1", "EM=2"])],
        ["damage ranger --amount 2", "damage wolf --amount 3", "round", "status"],
    ),
]


pytestmark = [pytestmark, pytest.mark.usefixtures("tmux_server")]  # support/tmux.py: a server of our own


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    env = {
        "RULEKEEPER_DB": str(tmp_path / "play.db"),
        "RULEKEEPER_CONFIG": str(tmp_path / "selection.json"),
        "RULEKEEPER_HISTORY": str(tmp_path / "history"),
    }
    session = f"rk-play-{uuid.uuid4().hex[:8]}"
    # The pane types "rulekeeper" as a user does, found on PATH: a long checkout path typed out
    # would be the shell's own line wider than 80 columns, whatever rulekeeper prints.
    settings = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
    # tmux gives a new session the client's PATH whatever -e says, so the shell is started with
    # it; no profile to reset it, and bash's short default prompt.
    path = f"PATH={Path(EXE).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    shell = ["env", path, "bash", "--norc", "--noprofile"]
    tmux("new-session", "-d", "-s", session, "-x", "80", "-y", "24", *settings, "-e", "TERM=xterm-256color", *shell)
    tmux("set-option", "-t", session, "history-limit", "5000")
    try:
        yield session, env
    finally:
        kill_session(session)


def _screen(session: str) -> str:
    return tmux("capture-pane", "-p", "-t", session)


def _history(session: str) -> list[str]:
    return tmux("capture-pane", "-p", "-J", "-t", session, "-S", "-5000").splitlines()


def _wait_for(session: str, text: str, *, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = _screen(session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never showed:\n{_screen(session)}")


def _wait_for_prompt(session: str, count: int) -> None:
    """Wait until the pane holds ``count`` prompts in its history (one per line run, plus the first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if sum(line.count(" pending>") for line in _history(session)) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"the prompt did not come back:\n{_screen(session)}")


def _setup(env: dict[str, str], system: str, characters: list[tuple[str, list[str]]]) -> None:
    full = {**os.environ, **env}
    subprocess.run([EXE, "campaign", "new", "night", "--system", system, "--seed", "3"], env=full, check=True)
    for actor, pairs in characters:
        args = [arg for pair in pairs for arg in ("--set", pair)]
        subprocess.run([EXE, "char", "add", actor, *args], env=full, check=True, capture_output=True)


@pytest.mark.parametrize(("system", "characters", "lines"), ROUNDS, ids=[r[0] for r in ROUNDS])
def test_a_combat_round_in_play_fits_80_columns(
    pane: tuple[str, dict[str, str]], system: str, characters: list[tuple[str, list[str]]], lines: list[str]
) -> None:
    session, env = pane
    _setup(env, system, characters)
    tmux("send-keys", "-t", session, "rulekeeper play night", "Enter")
    _wait_for(session, " pending>")
    prompts = 1

    # Tab after an action offers the campaign's characters, whatever case they were added in.
    tmux("send-keys", "-t", session, "damage ", "Tab")
    menu = _wait_for(session, characters[1][0])
    assert characters[0][0] in menu, menu
    # Ctrl-C drops the half-typed line; the shell stays.
    tmux("send-keys", "-t", session, "C-c")
    time.sleep(0.3)
    tmux("send-keys", "-t", session, "pending", "Enter")
    prompts += 2  # the cancelled line's prompt and the one after pending
    _wait_for_prompt(session, prompts)

    for line in lines:
        tmux("send-keys", "-t", session, line, "Enter")
        prompts += 1
        _wait_for_prompt(session, prompts)

    captured = _history(session)
    text = "\n".join(captured)
    assert "Traceback" not in text and "rulekeeper: error" not in text, text
    assert "No pending checks." in text or "Pending checks" in text
    assert sum("next round" in line for line in captured) == 1, text
    # status put every character on the board, with the system's own vitals.
    vitals = {"gurps": "HP ", "gm": "surv ", "wg": "Wounds ", "6810": "BU "}[system]
    board = [line for line in captured if vitals in line]
    assert {a for a, _ in characters} <= {line.split()[0].lstrip(">*") for line in board}, text
    too_wide = [line for line in captured if len(line.rstrip()) > 80]
    assert not too_wide, "\n".join(too_wide)

    tmux("send-keys", "-t", session, "exit", "Enter")
    history = Path(env["RULEKEEPER_HISTORY"]).read_text(encoding="utf-8")
    assert "+status" in history and "+round" in history


def test_history_is_there_the_next_evening(pane: tuple[str, dict[str, str]]) -> None:
    session, env = pane
    _setup(env, "gm", [("toromeen", ["archetype=warrior", "survival=7", "verve=17"])])
    tmux("send-keys", "-t", session, "rulekeeper play", "Enter")
    _wait_for(session, " pending>")
    tmux("send-keys", "-t", session, "advance 8h", "Enter")
    _wait_for(session, "game time 8h")
    tmux("send-keys", "-t", session, "C-d")
    time.sleep(0.5)
    tmux("send-keys", "-t", session, "clear", "Enter")
    tmux("send-keys", "-t", session, "rulekeeper play", "Enter")
    _wait_for(session, "night 8h · 0 pending>")
    # Up arrow brings back last evening's line.
    tmux("send-keys", "-t", session, "Up")
    _wait_for(session, "pending> advance 8h")
