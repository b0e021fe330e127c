"""Make ``rulekeeper`` importable from the source tree when it is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

try:
    import rulekeeper.dice  # noqa: F401
except ImportError:  # pragma: no cover - depends on how the tests are run
    sys.path.insert(0, str(SRC))
