"""80 columns by default: what the demo scenes explain fits, and citations name their source."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.cli.render import wrap

EXE = str(Path(sys.executable).parent / "rulekeeper")


def _run(tmp_path: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env |= {"RULEKEEPER_CONFIG": str(tmp_path / "selection.json"), "RULEKEEPER_DB": str(tmp_path / "demo.db")}
    done = subprocess.run([EXE, *args], env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_every_line_the_demo_scenes_print_fits_80_columns(tmp_path: Path) -> None:
    out = _run(tmp_path, "demo")
    # The database's path is printed whole, on a line of its own, so it can be copied.
    lines = [line for line in out.splitlines() if line.strip() != str(tmp_path / "demo.db")]
    explained = [line for line in lines if line.startswith("  • ")]
    assert len(explained) > 30  # four scenes' worth of consequences
    assert all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
    # One consequence is one line plus, at most, the words that did not fit, each ending in a short tag.
    assert re.search(r"\[G&M: Using verve\]", out) and re.search(r"\[GURPS Lite: [^\]]+\]", out)
    assert "[W&G: " in out and "[VI·VIII·X: " in out
    assert "seed 00" not in out


def test_the_full_citation_is_under_explain_and_names_the_source(tmp_path: Path) -> None:
    _run(tmp_path, "demo")
    brief = _run(tmp_path, "-c", "demo-gurps", "log", "--all")
    full = _run(tmp_path, "-c", "demo-gurps", "log", "--all", "--explain")
    assert "GURPS Lite 4e, " in full and "(reading: " in full
    assert "(reading: " not in brief and "[GURPS Lite: " in brief
    assert "seed" not in full.replace("--seed", "")
    assert all(len(line) <= 80 for line in full.splitlines())


def test_the_first_step_shows_its_own_game_time(tmp_path: Path) -> None:
    out = _run(tmp_path, "demo")
    first = next(line for line in out.splitlines() if line.startswith("#1 "))
    assert first.endswith("(game time 0s)"), first
    assert "Demo campaigns are saved in:\n  " + str(tmp_path / "demo.db") in out
    assert f"Run rulekeeper as {os.path.relpath(EXE)}" in out or "Run rulekeeper as rulekeeper" in out


@given(
    text=st.text(alphabet=st.sampled_from(list("ab -—\t\n•[]:é\u00a0\u2003")), max_size=90),
    indent=st.sampled_from(["", "  ", "  • ", "      "]),
    columns=st.integers(min_value=10, max_value=100),
)
def test_wrap_is_textwraps_answer(text: str, indent: str, columns: int) -> None:
    # wrap() skips textwrap for lines that already fit; what it gives must not change.
    expected = textwrap.wrap(
        text, width=columns, initial_indent=indent, subsequent_indent="    ", break_on_hyphens=False
    ) or [indent.rstrip()]
    assert wrap(text, indent=indent, hanging="    ", columns=columns) == expected
