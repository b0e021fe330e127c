"""The adapters (cli, web, sim, scenario, campaign) ask the ruleset; they never name a system.

Issue 24: a house system registered with ``register_system`` must work in every front end with
no adapter change, so no adapter source may name a built-in system, by name, alias, title or a
word of its own (Wrath, Glory ...), nor import from ``rulekeeper.systems``.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rulekeeper"
ADAPTERS = ("cli", "web", "sim", "scenario", "campaign")

# Every built-in name and alias except "gm", which the adapters use for the game master's role
# (a seat, not a system); the titles as people write them; words only one system uses.
FORBIDDEN = re.compile(
    r"rulekeeper\.systems|\bsystems\.(gurps|gods_monsters|wrath_glory|vi_viii_x)\b"
    r"|\bgurps(4e)?\b|\bgods[-_ ]?(and|&)?[-_ ]?monsters\b|\bwrath[-_ ]?(and|&)?[-_ ]?glory\b"
    r"|\bvi[-_·]viii[-_·]x\b|\b6810\b|\bwg\b|\bkup\b|\bG&M\b|\bW&G\b|\bwrath\b|\bglory\b|\bgods\b|\bmonsters\b",
    re.IGNORECASE,
)



def _offending_lines() -> list[str]:
    found = []
    for folder in ADAPTERS:
        for path in sorted((SRC / folder).rglob("*")):
            if path.suffix not in (".py", ".html", ".js", ".css") or not path.is_file():
                continue
            relative = path.relative_to(SRC).as_posix()
            for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if FORBIDDEN.search(text):
                    found.append(f"{relative}:{number}: {text.strip()}")
    return found


def test_no_adapter_names_a_system() -> None:
    assert _offending_lines() == []


def test_the_scan_would_catch_a_system_name() -> None:
    for text in ('if system == "gurps":', "from rulekeeper.systems.wrath_glory import x", "W&G Wounds", "6810.arc"):
        assert FORBIDDEN.search(text), text
    for text in ('role == "gm"', "gm_only", "the GM's card", "a wounded fighter"):
        assert not FORBIDDEN.search(text), text
