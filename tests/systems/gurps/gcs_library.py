"""The real GCS files vendored under ``tests/data/gcs/library`` (GCS master library, MPL-2.0) and helpers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.gcs_files import LIBRARY

FILES = sorted(LIBRARY.rglob("*.gcs"))


def load(relative: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LIBRARY / relative).read_text(encoding="utf-8"))
    return data


def without_calc(value: Any) -> Any:
    """The same file with every ``calc`` block (GCS's computed values) removed."""
    if isinstance(value, dict):
        return {k: without_calc(v) for k, v in value.items() if k != "calc"}
    if isinstance(value, list):
        return [without_calc(v) for v in value]
    return value


def file_id(path: Path) -> str:
    return str(path.relative_to(LIBRARY))
