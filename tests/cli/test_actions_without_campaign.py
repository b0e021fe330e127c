"""Issue 27, item 7: before any campaign exists, ``rulekeeper --help`` says that the actions come
with a campaign's system and how to list them, and ``rulekeeper actions SYSTEM`` lists a
system's actions from the ruleset registry -- in a fresh data directory, as a newcomer meets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulekeeper.core import get_ruleset, system_names

EXE = str(Path(sys.executable).parent / "rulekeeper")
#: Taken at import, before any test registers a house system in this process (the command's
#: own process knows only these).
SYSTEMS = system_names()
_CHOSEN = ("RULEKEEPER_DB", "RULEKEEPER_CAMPAIGN", "RULEKEEPER_CONFIG", "RULEKEEPER_BASE_URL")


@pytest.fixture
def fresh(tmp_path: Path) -> dict[str, str]:
    """A newcomer's machine: no database yet, no campaign chosen."""
    env = {k: v for k, v in os.environ.items() if k not in _CHOSEN}
    env.update(
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        HOME=str(tmp_path / "home"),
        NO_COLOR="1",
    )
    return env


def _run(env: dict[str, str], *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([EXE, *args], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    return proc


def _shared_actions() -> set[str]:
    return set.intersection(*(set(get_ruleset(s).actions()) for s in SYSTEMS))


def test_help_with_no_campaign_says_where_the_actions_are(fresh: dict[str, str], tmp_path: Path) -> None:
    # No command at all shows the same help, as a usage error (exit 2, on stderr).
    for args, code in ((("--help",), 0), ((), 2)):
        proc = _run(fresh, *args, code=code)
        out = " ".join((proc.stdout + proc.stderr).split())  # help text is wrapped to the terminal
        assert "No campaign is chosen" in out and "rulekeeper actions SYSTEM" in out, args
        assert f"'rulekeeper actions {SYSTEMS[0]}'" in out
        for system in SYSTEMS:
            assert system in out.replace("- ", "-"), system
        shared = _shared_actions()
        assert shared and all(name in out for name in shared)
        assert "actions" in out.split("Commands:", 1)[1]
    assert not (tmp_path / "data" / "rulekeeper" / "campaigns.db").exists()  # help opened no database
    # With a campaign chosen, its actions are the commands and the note is gone.
    _run(fresh, "campaign", "new", "fri", "--system", SYSTEMS[0])
    out = _run(fresh, "--help").stdout
    assert "No campaign is chosen" not in out
    for name in get_ruleset(SYSTEMS[0]).actions():
        assert name in out, name


@pytest.mark.parametrize("system", SYSTEMS)
def test_actions_lists_every_action_of_the_registry(fresh: dict[str, str], system: str) -> None:
    ruleset = get_ruleset(system)
    listed = json.loads(_run(fresh, "actions", system, "--json").stdout)
    assert listed["system"] == ruleset.name
    assert [a["name"] for a in listed["actions"]] == sorted(ruleset.actions())
    assert all(a["help"] == ruleset.actions()[a["name"]].help for a in listed["actions"])
    text = _run(fresh, "actions", system).stdout
    assert f"{ruleset.title} ({ruleset.name}): {len(ruleset.actions())} actions." in text
    for name in ruleset.actions():
        assert f"\n  {name} " in text, name
    assert f"--system {ruleset.name}" in " ".join(text.split())


def test_actions_without_a_system_needs_a_campaign_or_a_name(fresh: dict[str, str]) -> None:
    proc = _run(fresh, "actions", code=2)
    assert "say which system" in proc.stderr and SYSTEMS[0] in proc.stderr
    proc = _run(fresh, "actions", "no-such-system", code=2)
    assert "unknown game system" in proc.stderr and proc.stdout == ""
    last = SYSTEMS[-1]
    _run(fresh, "campaign", "new", "sat", "--system", last)
    listed = json.loads(_run(fresh, "actions", "--json").stdout)
    assert listed["system"] == get_ruleset(last).name  # the chosen campaign's own
