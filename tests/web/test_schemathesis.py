"""Schemathesis against the OpenAPI schema of a real ``rulekeeper serve`` process, with the GM's
token and with a player's: no server error, every status code and content type declared, every
response matching its schema; with the player's (issue 26), no answer -- 2xx or not -- changes a
character the player does not own: after every call the GM's view of every other character (the
other player's, the GM's NPC, and any the call might have added) must be what it was.

Bounded: a few examples per operation and token (the whole run stays around a minute or two).
Most cases aim at a real campaign (a VI·VIII·X table with characters) so they reach the rules,
not only the identity check. Not fuzzed: the event stream (it never ends; tests/web/
test_serve_process.py reads it) and the GM's deletion of the campaign and revocation of
members (they would end the run's own access; tested in test_api_roles.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from rulekeeper.core import get_ruleset, system_names
from rulekeeper.web import create_app

from .conftest import make_table
from .seat_support import filled
from .web_support import InProcess, ServeProcess, bearer, serving, sheets_6810

CHECKS: list[Any] = [
    schemathesis.checks.not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = 4


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, str, dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("fuzz")
    db = str(tmp / "campaigns.db")
    setup = InProcess(create_app(db))
    try:
        table = make_table(setup, "fuzz")
    finally:
        setup.close()
    with serving(db, tmp) as server:
        yield server, table.name, table.tokens


def _operations(schema: Any, *, gm: bool) -> list[Any]:
    out = []
    for result in schema.get_all_operations():
        op = result.ok()
        if op.path.endswith("/events"):
            continue
        if gm and op.method.upper() == "DELETE" and op.path in (
            "/api/campaigns/{campaign}",
            "/api/campaigns/{campaign}/members/{name}",
        ):
            continue
        out.append(op)
    return out


#: Every parameter that names a character, in any system (ParamSpec.names_character).
_NAMING = {
    p.name
    for system in system_names()
    for spec in get_ruleset(system).actions().values()
    for p in spec.params
    if p.names_character
}


_SYSTEM = "vi-viii-x"
_ACTIONS = f"/api/campaigns/{{campaign}}/{_SYSTEM}/actions/"
#: ana plays the ranger; everything else at her table is someone else's.
_HERS = frozenset({"ranger"})
_OTHERS = ("adept", "grunt")


def _others(server: ServeProcess, campaign: str, tokens: dict[str, str]) -> dict[str, Any]:
    """Every character ana does not play, as the GM sees it: what ana's run must never change."""
    r = httpx.get(f"{server.url}/api/campaigns/{campaign}/characters", headers=bearer(tokens["gm"]), timeout=60)
    assert r.status_code == 200, r.text
    found = {c["actor"]: c for c in r.json() if c["actor"] not in _HERS}
    return found


def _with_an_npc(server: ServeProcess, campaign: str, tokens: dict[str, str]) -> None:
    sheet = {**sheets_6810()["ranger"], "name": "Grunt"}
    r = httpx.post(
        f"{server.url}/api/campaigns/{campaign}/characters",
        headers=bearer(tokens["gm"]),
        json={"actor": "grunt", "sheet": sheet, "npc": True},
        timeout=60,
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("who", ["gm", "ana"])
def test_the_schema_holds_for_every_operation(live: tuple[ServeProcess, str, dict[str, str]], who: str) -> None:
    server, campaign, tokens = live
    if who != "gm":  # a table of its own: the GM's run may have removed or renamed characters
        with httpx.Client(base_url=server.url, timeout=60) as client:
            fresh = make_table(client, f"fuzz-{who}")  # type: ignore[arg-type]
        campaign, tokens = fresh.name, fresh.tokens
        _with_an_npc(server, campaign, tokens)
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    headers = {"Authorization": f"Bearer {tokens[who]}"}
    operations = _operations(schema, gm=who == "gm")
    assert len(operations) > 100
    failures: list[str] = []
    calls: list[int] = []

    before = _others(server, campaign, tokens) if who != "gm" else {}
    assert who == "gm" or set(before) == set(_OTHERS), before

    def fuzz(op: Any) -> None:
        @settings(
            max_examples=EXAMPLES,
            phases=(Phase.explicit, Phase.generate),
            suppress_health_check=list(HealthCheck),
            deadline=None,
            database=None,
        )
        @given(
            case=op.as_strategy(),
            aim=st.booleans(),
            actor=st.sampled_from(["ranger", *_OTHERS]),
            other=st.sampled_from(_OTHERS),
        )
        def run(case: Any, aim: bool, actor: str, other: str) -> None:
            if aim and "campaign" in (case.path_parameters or {}):
                case.path_parameters["campaign"] = campaign
                if "actor" in case.path_parameters:
                    case.path_parameters["actor"] = actor
                if isinstance(case.body, dict) and "actor" in case.body:
                    case.body["actor"] = actor
                params = case.body.get("params") if isinstance(case.body, dict) else None
                for key in _NAMING & set(params or {}):  # aim at a character ana does not play
                    params[key] = other  # type: ignore[index]
            response = case.call(base_url=server.url, headers=headers, timeout=60)
            calls.append(response.status_code)
            case.validate_response(response, checks=CHECKS, headers=headers)
            if who != "gm":
                # The player's seat (issue 26): nothing a player sends changes what they do not
                # own -- checked after every call, so a change under an error status counts too.
                after = _others(server, campaign, tokens)
                changed = sorted(k for k in {*before, *after} if before.get(k) != after.get(k))
                assert not changed, (response.status_code, op.method, op.path, case.body, changed)

        run()

    def aimed(op: Any) -> None:
        """Generated bodies seldom pass an action's own validation, so a player's run also sends
        each of the table's actions well formed (every required parameter), as her own character
        and as another's, naming each character she does not play: what the rules would apply."""
        name = op.path.rsplit("/", 1)[-1]
        spec = get_ruleset(_SYSTEM).actions()[name]
        naming = [p.name for p in spec.params if p.names_character]
        for actor in ("ranger", *_OTHERS):
            for other in _OTHERS:
                for rolled in (None, [6, 6, 6]):
                    body: dict[str, Any] = {"actor": actor, "params": filled(spec, **dict.fromkeys(naming, other))}
                    if rolled is not None:
                        body["rolled"] = rolled
                    case = op.Case(path_parameters={"campaign": campaign}, body=body, media_type="application/json")
                    response = case.call(base_url=server.url, headers=headers, timeout=60)
                    calls.append(response.status_code)
                    case.validate_response(response, checks=CHECKS, headers=headers)
                    after = _others(server, campaign, tokens)
                    changed = sorted(k for k in {*before, *after} if before.get(k) != after.get(k))
                    assert not changed, (response.status_code, op.path, body, changed)

    for op in operations:
        try:
            fuzz(op)
            if who != "gm" and op.method.upper() == "POST" and op.path.startswith(_ACTIONS):
                aimed(op)
        except Exception as exc:  # collected so one run reports every operation that fails
            failures.append(f"{op.method.upper()} {op.path}: {str(exc)[:800]}")
    assert not failures, "\n\n".join(failures)
    assert len(calls) >= 2 * len(operations)
    assert 500 not in calls
