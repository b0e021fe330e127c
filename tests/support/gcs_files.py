"""Where the vendored GCS files live (``tests/data/gcs``: GCS master library, MPL-2.0, see its README)."""

from __future__ import annotations

from pathlib import Path

GCS_DATA = Path(__file__).resolve().parents[1] / "data" / "gcs"
LIBRARY = GCS_DATA / "library"
