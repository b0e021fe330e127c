"""Fixtures for store tests: database URLs for every backend (``db_url``, for SQLite and
PostgreSQL, is in conftest_pg), and the campaign tests' toy system."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

TOY_DIR = Path(__file__).parents[1] / "campaign"
if str(TOY_DIR) not in sys.path:
    sys.path.insert(0, str(TOY_DIR))

import campaign_toy  # noqa: E402

from rulekeeper.store import Store, open_store  # noqa: E402


@pytest.fixture
def toy() -> Iterator[None]:
    campaign_toy.register()
    yield
    campaign_toy.unregister()


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return "memory://"
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("fresh_pg_url")
    return url


@pytest.fixture
def pg_store(fresh_pg_url: str) -> Iterator[Store]:
    """A store on a fresh PostgreSQL database, closed after the test."""
    opened = open_store(fresh_pg_url)
    yield opened
    opened.close()
