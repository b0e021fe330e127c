"""docs/limits.md lists every limit in rulekeeper.limits, each with a reason."""

from __future__ import annotations

from pathlib import Path

import rulekeeper.limits as limits

DOC = Path(__file__).resolve().parents[2] / "docs" / "limits.md"


def test_every_limit_is_documented_with_a_reason() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in text.splitlines() if line.startswith("| `")}
    for name in limits.__all__:
        assert name in rows, f"{name} is not listed in docs/limits.md"
        reason = rows[name].split("|")[3]
        assert len(reason.split()) >= 8, f"{name} has no reason in docs/limits.md"
