"""Fixtures of the hostile-input suite: a database with a Gods & Monsters campaign in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_run import Db


@pytest.fixture
def db(tmp_path: Path) -> Db:
    table = Db(tmp_path)
    table.ok("campaign", "new", "keep", "--system", "gm", "--seed", "7")
    table.ok("char", "add", "toromeen", "--set", "archetype=warrior", "--set", "level=2", "--set", "survival=7")
    return table
