"""Suite-wide fixtures: a real PostgreSQL server for the store and campaign tests (tests/conftest_pg.py)."""

pytest_plugins = ["conftest_pg"]
