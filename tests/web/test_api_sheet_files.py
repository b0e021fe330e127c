"""A GCS file both ways over HTTP: add, damage at the table, update from the changed file, write back."""

from __future__ import annotations

import json
from typing import Any

from support.gcs_files import LIBRARY

from .web_support import InProcess, bearer


def _bear() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(next(LIBRARY.rglob("Cave Bear.gcs")).read_text(encoding="utf-8"))
    return data


def _pool(document: dict[str, Any], pool: str) -> dict[str, Any]:
    return next(a for a in document["attributes"] if a["attr_id"] == pool)


def test_a_sheet_file_in_updated_and_written_back_over_http(api: InProcess) -> None:
    r = api.post("/api/campaigns", json={"name": "files", "system": "gurps", "seed": 3})
    gm = bearer(r.json()["gm_token"])
    player = bearer(api.post("/api/campaigns/files/members", headers=gm, json={"name": "ana"}).json()["token"])
    base = "/api/campaigns/files/characters"
    document = _bear()
    body = {"actor": "bear", "document": document, "file_name": "Cave Bear.gcs"}
    assert api.post(f"{base}/files/gcs", headers=player, json=body).status_code == 403

    r = api.post(f"{base}/files/gcs", headers=gm, json=body)
    assert r.status_code == 200, r.text
    report = r.json()["sheet_file"]
    assert report["file"] == "Cave Bear.gcs" and report["disagreements"] == []
    assert any(line.startswith("fields not used from Cave Bear.gcs") for line in report["notes"])

    r = api.post(
        "/api/campaigns/files/gurps/actions/damage", headers=gm, json={"actor": "bear", "params": {"amount": 9}}
    )
    assert r.status_code == 200, r.text
    hurt = api.get(f"{base}/bear", headers=gm).json()
    lost = hurt["view"]["hp"] - hurt["view"]["current_hp"]
    assert lost > 0

    _pool(document, "hp")["adj"] = _pool(document, "hp").get("adj", 0) + 2
    r = api.request(
        "PUT", f"{base}/bear/files/gcs", headers=gm, json={"document": document, "file_name": "Cave Bear.gcs"}
    )
    assert r.status_code == 200, r.text
    updated = api.get(f"{base}/bear", headers=gm).json()["view"]
    assert updated["hp"] == hurt["view"]["hp"] + 2
    assert updated["current_hp"] == hurt["view"]["current_hp"]

    assert api.get(f"{base}/bear/files/gcs", headers=player).status_code == 403
    r = api.get(f"{base}/bear/files/gcs", headers=gm)
    assert r.status_code == 200, r.text
    written = r.json()
    assert _pool(written, "hp")["damage"] == updated["hp"] - updated["current_hp"]
    assert written["profile"] == document["profile"]

    r = api.get(f"{base}/nobody/files/gcs", headers=gm)
    assert r.status_code in (400, 404), r.text


def test_a_bad_file_for_an_update_is_refused_and_changes_nothing(api: InProcess) -> None:
    r = api.post("/api/campaigns", json={"name": "files-bad", "system": "gurps", "seed": 3})
    gm = bearer(r.json()["gm_token"])
    base = "/api/campaigns/files-bad/characters"
    assert api.post(f"{base}/files/gcs", headers=gm, json={"actor": "bear", "document": _bear()}).status_code == 200
    version = api.get("/api/campaigns/files-bad", headers=gm).json()["version"]
    for change, fragment in (
        ({"version": 99}, "version"),  # a version GCS never wrote
        ({"attributes": "none"}, "attributes"),
        ({"version": None}, "version"),  # not a GCS file at all
    ):
        document = {**_bear(), **change}
        r = api.request("PUT", f"{base}/bear/files/gcs", headers=gm, json={"document": document})
        assert r.status_code in (400, 422), r.text
        assert fragment in r.text
    r = api.request("PUT", f"{base}/bear/files/pdf", headers=gm, json={"document": _bear()})
    assert r.status_code in (400, 422) and "reads no pdf files" in r.text, r.text
    assert api.get("/api/campaigns/files-bad", headers=gm).json()["version"] == version


def test_a_hostile_size_is_refused_before_it_is_read(api: InProcess) -> None:
    r = api.post("/api/campaigns", json={"name": "files-huge", "system": "gurps", "seed": 3})
    gm = bearer(r.json()["gm_token"])
    document = {**_bear(), "notes": "x" * (2 << 20)}
    r = api.post(
        "/api/campaigns/files-huge/characters/files/gcs", headers=gm, json={"actor": "bear", "document": document}
    )
    assert r.status_code in (400, 422) and "over the limit" in r.text, r.text[:500]
    assert api.get("/api/campaigns/files-huge", headers=gm).json()["version"] == 0
