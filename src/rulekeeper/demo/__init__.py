"""Demo scenes, one per system, played into real campaigns by ``rulekeeper demo``.

They are scenario files (docs/scenarios.md), so the test suite runs them as golden tests too.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ALSO_TRY", "DEMO_DIR", "IN_USE", "demo_files"]

DEMO_DIR = Path(__file__).resolve().parent
#: The demo campaign left in use afterwards, and the one the closing hint suggests next.
IN_USE = "gods-and-monsters"
ALSO_TRY = "gurps"


def demo_files() -> list[Path]:
    return sorted(DEMO_DIR.glob("*.yaml"))
