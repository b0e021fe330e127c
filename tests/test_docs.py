"""Documentation that is generated from the code stays in step with it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_action_reference_in_docs_is_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_docs.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_system_has_its_rules_page() -> None:
    for name in ("gurps", "gods-and-monsters", "wrath-and-glory", "vi-viii-x"):
        page = ROOT / "docs" / "systems" / f"{name}.md"
        assert page.exists() and len(page.read_text(encoding="utf-8")) > 2000, page


def test_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0].strip() for b in text.split("```sh\n")[1:3]]
    assert blocks[0].endswith("rulekeeper demo")
    assert blocks[1].endswith("scripts/check.py")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert blocks[1] in ci
