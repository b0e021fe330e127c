"""Tampered exports through ``campaign import``: refused with exit 2 and nothing written, under the
same memory limit and kill switch as the bombs."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hostile_run import Db, assert_refused


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One played campaign's export (a seeded roll and a die typed at the table), made once."""
    db = Db(tmp_path_factory.mktemp("exported"))
    db.ok("campaign", "new", "keep", "--system", "gm", "--seed", "7")
    db.ok("char", "add", "toromeen", "--set", "archetype=warrior", "--set", "level=2", "--set", "survival=7")
    db.ok("char", "add", "bors", "--set", "archetype=warrior", "--set", "level=2", "--set", "survival=7")
    db.ok("campaign", "settings", "-a", "gm=prompt")
    db.ok("damage", "toromeen", "--amount", "30", "--in-combat")
    db.ok("resolve", str(_first_pending(db)), "--auto")  # the campaign's seeded dice
    db.ok("damage", "bors", "--amount", "30", "--in-combat")
    # Seed 7 would roll 1 here, so the table rolled something else.
    db.ok("resolve", str(_first_pending(db)), "--dice", "2")  # typed at the table
    document = db.export("keep")
    assert any(e["kind"] == "resolve" and e["command"]["dice"] is None and e["dice"] for e in document["events"])
    return document


def _first_pending(db: Db) -> int:
    return int(json.loads(db.ok("pending", "--json").stdout)["pending"][0]["id"])


def _typed_resolve(document: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in document["events"] if e["kind"] == "resolve" and e["command"]["dice"])


TAMPER = [
    ("created 1e300", lambda d: d["campaign"].__setitem__("created", 1e300), "campaign.created"),
    ("wall time 1e300", lambda d: d["events"][0].__setitem__("wall_time", 1e300), "wall_time"),
    ("version true", lambda d: d.__setitem__("version", True), "format version True"),
    ("GM name with a bell", lambda d: d["campaign"].__setitem__("gm", "g\x07m"), "U+0007"),
    ("typed die relabelled as seeded", lambda d: _typed_resolve(d)["command"].__setitem__("dice", None), "seed rolls"),
    ("seed changed", lambda d: d["campaign"].__setitem__("seed", 8), "seed rolls"),
]


@pytest.mark.parametrize(("what", "tamper", "fragment"), TAMPER, ids=[t[0] for t in TAMPER])
def test_tampered_export_is_refused_and_nothing_written(
    db: Db, exported: dict[str, Any], tmp_path: Path, what: str, tamper: Any, fragment: str
) -> None:
    document = copy.deepcopy(exported)
    tamper(document)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(document))
    before = db.rows()
    assert_refused(db.run("campaign", "import", str(path), "--name", "copy"), fragment=fragment)
    assert db.rows() == before


def test_the_untampered_export_imports(db: Db, exported: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(exported))
    db.ok("campaign", "import", str(path), "--name", "copy")
    assert db.versions()["copy"] == len(exported["events"])
