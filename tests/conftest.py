"""Suite-wide settings and fixtures.

- A real PostgreSQL server for the store and campaign tests (tests/conftest_pg.py).
- Hypothesis without per-example deadlines: timing is a benchmark's business, not a test's, and a
  busy CI machine must not turn a slow example into a failure.
- Under the gate (``scripts/check.py`` sets ``RULEKEEPER_GATE``), a skipped test fails the run: the
  README promises that PostgreSQL, browser and terminal tests run, so a missing part must not pass
  quietly as a skip.
"""

import os

import pytest
from hypothesis import settings

pytest_plugins = ["conftest_pg", "support.tmux"]  # PostgreSQL server; the terminal tests' tmux server

settings.register_profile("rulekeeper", deadline=None)
settings.load_profile("rulekeeper")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not os.environ.get("RULEKEEPER_GATE"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if skipped:
        names = "\n  ".join(sorted({report.nodeid for report in skipped})[:20])
        print(f"\n== the gate runs every test, but {len(skipped)} were skipped:\n  {names}", flush=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
