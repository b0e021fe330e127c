"""A malformed request is refused in our words, naming each field as the client wrote it and
the form it takes, and changes nothing (an independent review found the validator's own
sentences, its inner names for a field's forms, a byte offset given as a field, and
``"amount": true`` applied as 1 point of damage)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Table6810
from .web_support import InProcess, bearer

#: The validator's and the framework's own wording, which must never reach a client.
_THEIRS = (
    "Input should",
    "Field required",
    "Extra inputs",
    "JSON decode",
    "There was an error parsing",
    "Not Found",
    "Method Not Allowed",
    "constrained-",
    "Value error",
)


def _refused(r: Any, status: int = 422) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert not any(words in r.text for words in _THEIRS), r.text
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.parametrize("amount", [True, 1.5, "2", None, [1], {"n": 1}])
def test_a_number_parameter_takes_a_json_number_only_and_nothing_is_applied(table: Table6810, amount: Any) -> None:
    before = table.version()
    r = table.api.post(
        table.url("/vi-viii-x/actions/damage"), headers=table.gm, json={"actor": "ranger", "params": {"amount": amount}}
    )
    body = _refused(r)
    (error,) = body["errors"]
    assert error["field"] == "params.amount" and error["location"] == "body", error
    assert error["expected"] and error["message"], error
    assert table.version() == before


def test_each_field_once_by_its_own_name_with_its_form(table: Table6810) -> None:
    r = table.api.post(table.url("/advance"), headers=table.gm, json={"duration": True, "dice": "x" * 5000, "more": 1})
    body = _refused(r)
    fields = {e["field"]: e for e in body["errors"]}
    assert set(fields) == {"duration", "dice", "more"}, fields  # not duration.str and duration.int
    assert "text" in fields["duration"]["expected"] and "whole number" in fields["duration"]["expected"]
    assert fields["more"]["message"] == "is not a field of this request"
    assert body["detail"].startswith("duration: ") and "(expected " in body["detail"]


def test_a_body_that_is_no_json_is_named_the_body(api: InProcess) -> None:
    r = api.post("/api/campaigns", json={"name": "words", "system": "gurps"})
    gm = bearer(r.json()["gm_token"])
    for text in (b'{"actor": "k", "sheet": {"st": 12}', b"\xff\xfe", b"[" * 5000 + b"]" * 5000):
        r = api.post(
            "/api/campaigns/words/characters", headers={**gm, "content-type": "application/json"}, content=text
        )
        body = _refused(r, r.status_code)
        assert r.status_code in (400, 422), r.text
        assert "JSON" in body["detail"], body
        if r.status_code == 422:
            assert [e["field"] for e in body["errors"]] == ["body"], body
    r = api.post(
        "/api/campaigns/words/characters",
        headers={**gm, "content-type": "application/json"},
        content=b'{"actor": "kira\\ud800", "sheet": {}}',
    )
    assert _refused(r)["errors"][0]["message"] == "is not valid text"


def test_an_address_or_a_method_the_api_lacks_is_said_in_our_words(api: InProcess) -> None:
    body = _refused(api.get("/api/no-such-thing"), 404)
    assert body["detail"].startswith("no such address: /api/no-such-thing")
    body = _refused(api.request("PUT", "/api/campaigns"), 405)
    assert "does not take PUT" in body["detail"]
