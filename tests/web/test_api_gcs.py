"""A real GCS file imported over HTTP: the sheet is derived from the file, and the report comes back."""

from __future__ import annotations

import json

from support.gcs_files import LIBRARY

from .web_support import InProcess, bearer


def test_a_gcs_file_imports_over_http_with_its_report(api: InProcess) -> None:
    document = json.loads(next(LIBRARY.rglob("Cave Bear.gcs")).read_text(encoding="utf-8"))
    r = api.post("/api/campaigns", json={"name": "gcs-http", "system": "gurps", "seed": 3})
    assert r.status_code == 201, r.text
    gm = bearer(r.json()["gm_token"])

    r = api.post("/api/campaigns/gcs-http/characters/gcs", headers=gm, json={"actor": "bear", "gcs": document})
    assert r.status_code == 200, r.text
    report = r.json()["gcs"]
    assert report["disagreements"] == []  # what rulekeeper derived equals what GCS stored
    assert isinstance(report["unused"], list)

    sheet = api.get("/api/campaigns/gcs-http/characters/bear", headers=gm).json()
    text = json.dumps(sheet)
    assert "Bite" in text  # the natural attack on a trait became a weapon


def test_a_gcs_file_of_an_unknown_version_is_refused_and_nothing_is_written(api: InProcess) -> None:
    document = json.loads(next(LIBRARY.rglob("Cave Bear.gcs")).read_text(encoding="utf-8"))
    document["version"] = 99
    r = api.post("/api/campaigns", json={"name": "gcs-bad", "system": "gurps", "seed": 3})
    gm = bearer(r.json()["gm_token"])
    r = api.post("/api/campaigns/gcs-bad/characters/gcs", headers=gm, json={"actor": "bear", "gcs": document})
    assert r.status_code in (400, 422), r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "version" in r.text
    assert api.get("/api/campaigns/gcs-bad", headers=gm).json()["version"] == 0
