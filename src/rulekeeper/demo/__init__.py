"""Demo scenes, one per system, played into real campaigns by ``rulekeeper demo``.

They are scenario files (docs/scenarios.md), so the test suite runs them as golden tests too.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEMO_DIR", "demo_files"]

DEMO_DIR = Path(__file__).resolve().parent


def demo_files() -> list[Path]:
    return sorted(DEMO_DIR.glob("*.yaml"))
