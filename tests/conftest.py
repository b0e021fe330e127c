"""Suite-wide settings and fixtures.

- A real PostgreSQL server for the store and campaign tests (tests/conftest_pg.py).
- Hypothesis without per-example deadlines: timing is a benchmark's business, not a test's, and a
  busy CI machine must not turn a slow example into a failure.
"""

from hypothesis import settings

pytest_plugins = ["conftest_pg"]

settings.register_profile("rulekeeper", deadline=None)
settings.load_profile("rulekeeper")
