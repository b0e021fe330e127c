"""pytest plugin: a real PostgreSQL server for the whole test session.

Register it from tests/conftest.py with ``pytest_plugins = ["conftest_pg"]``. Fixtures:

* ``pg_server`` (session): the running :class:`rulekeeper.store.local_postgres.LocalPostgres`;
* ``pg_url`` (session): a ``postgresql+psycopg://`` URL of the server's ``postgres`` database;
* ``fresh_pg_url`` (function): the URL of a new empty database, dropped after the test;
* ``db_url`` (function): a test runs once on a new SQLite file and once on ``fresh_pg_url``.

The server comes from ``RULEKEEPER_TEST_PG_URL`` if set, else the ``pgserver`` package, else
the system's PostgreSQL. If none starts, tests that need it fail when the ``CI`` environment
variable is set and are skipped (with the reason) otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.store.local_postgres import LocalPostgres, start_local_postgres


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalPostgres]:
    try:
        server = start_local_postgres(tmp_path_factory.mktemp("postgres"))
    except Exception as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI and did not start: {exc}", pytrace=False)
        pytest.skip(f"PostgreSQL did not start: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_url(pg_server: LocalPostgres) -> str:
    return pg_server.url


@pytest.fixture
def fresh_pg_url(pg_server: LocalPostgres) -> Iterator[str]:
    url = pg_server.create_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    url: str = request.getfixturevalue("fresh_pg_url")
    return url
