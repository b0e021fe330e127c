"""Fixtures for campaign tests: the toy system, and stores on SQLite and PostgreSQL."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import campaign_toy  # noqa: E402

from rulekeeper.campaign import Store, open_store  # noqa: E402

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


@pytest.fixture(autouse=True)
def toy_system() -> Iterator[None]:
    campaign_toy.register()
    yield
    campaign_toy.unregister()


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "campaigns.db")
    url: str = request.getfixturevalue("fresh_pg_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    opened = open_store(store_url)
    yield opened
    opened.close()


@pytest.fixture
def memory_store() -> Iterator[Store]:
    opened = open_store("memory://")
    yield opened
    opened.close()
