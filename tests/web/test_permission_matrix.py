"""The permission matrix, generated from the specs (issue 26): every action of every system x every
parameter that names a character x the GM / the owner / another player / no token, and every
GM-only or rule-overriding parameter from a player. A new action or parameter is in it by itself.

In process for the whole matrix; a sample of it through a real ``rulekeeper serve``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rulekeeper.core import get_ruleset

from .seat_support import SYSTEMS, SeatTable, cells, filled, make_seat_table, override_cells, overriding_value
from .web_support import InProcess, serving

CELLS = cells()
OVERRIDES = override_cells()


@pytest.fixture(scope="module")
def api(api_on_each_store: InProcess) -> InProcess:
    """Every test here on SQLite and on PostgreSQL (``conftest.api_on_each_store``)."""
    return api_on_each_store


@pytest.fixture(scope="module")
def tables(api: InProcess) -> dict[str, SeatTable]:
    return {system: make_seat_table(api, system) for system in SYSTEMS}


def test_the_matrix_covers_every_system_and_the_parameters_the_issue_names() -> None:
    assert {system for system, _, _ in CELLS} == set(SYSTEMS)
    named = {(system, action, param) for system, action, param in CELLS}
    for cell in (
        ("gurps", "attack", "target"),
        ("wrath-and-glory", "damage", "targets"),
        ("gods-and-monsters", "track", "quarry"),
        ("vi-viii-x", "cure", "healer"),
    ):
        assert cell in named
    overriding = set(OVERRIDES)
    for cell in (
        ("gurps", "attack", "damage"),
        ("gurps", "attack", "skill"),
        ("gurps", "attack", "unaware"),
        ("gurps", "attack", "location"),
        ("vi-viii-x", "arc", "threshold"),
        ("vi-viii-x", "arc", "roll_modifier"),
        ("wrath-and-glory", "test", "dn"),
    ):
        assert cell in overriding


def _call(table: SeatTable, who: dict[str, str], action: str, named: str, param: str, **extra: Any) -> httpx.Response:
    spec = get_ruleset(table.system).actions()[action]
    actor = None if spec.actor == "none" else "mine"
    return table.act(who, action, actor, filled(spec, gm=who == table.gm, **{param: named}), **extra)


@pytest.mark.parametrize(("system", "action", "param"), CELLS, ids=["/".join(c) for c in CELLS])
def test_a_character_named_anywhere_is_authorized(
    tables: dict[str, SeatTable], system: str, action: str, param: str
) -> None:
    table = tables[system]
    spec = get_ruleset(system).actions()[action]
    # No token: nobody.
    assert _call(table, {}, action, "theirs", param).status_code == 401
    # The GM: never refused by the seat (the rules may still refuse the example).
    r = _call(table, table.gm, action, "theirs", param)
    assert r.status_code != 403, r.text
    assert "request" not in r.json()
    # The owner naming their own character: never refused by the seat, and a request only when
    # the action needs a parameter the GM gives.
    r = _call(table, table.ana, action, "mine", param)
    needs_gm = any(p.required and (p.overrides_rules or p.gm_only) for p in spec.params)
    if spec.actor == "none":
        assert r.status_code == 403 and "without a character" in r.json()["detail"]
    else:
        assert r.status_code != 403, r.text
        assert ("request" in r.json()) == needs_gm, r.text
    # Another player's character: refused, or kept as a request; never applied.
    before = table.character("theirs")
    version = table.version()
    r = _call(table, table.ana, action, "theirs", param)
    assert table.character("theirs") == before
    if r.status_code == 200:
        assert r.json()["request"]["status"] == "waiting", r.text
        assert r.json()["request"]["others"] == ["theirs"]
        assert table.version() == version + 1
    else:
        assert r.status_code in (400, 403, 404, 409), r.text
        assert table.version() == version
    # With dice typed, it is refused: they would feed another character's rolls.
    r = _call(table, table.ana, action, "theirs", param, rolled=[3, 3, 3])
    assert r.status_code == 403, r.text
    assert table.character("theirs") == before


@pytest.mark.parametrize(("system", "action", "param"), OVERRIDES, ids=["/".join(c) for c in OVERRIDES])
def test_a_gm_only_parameter_from_a_player_is_refused(
    tables: dict[str, SeatTable], system: str, action: str, param: str
) -> None:
    table = tables[system]
    spec = get_ruleset(system).actions()[action]
    p = next(p for p in spec.params if p.name == param)
    actor = None if spec.actor == "none" else "mine"
    params = filled(spec, **{param: overriding_value(p)})
    version = table.version()
    r = table.act(table.ana, action, actor, params)
    assert r.status_code == 403, r.text
    assert re.match(rf"only the GM may set ([a-z_]+, )*{param}\b", r.json()["detail"]), r.text
    assert table.version() == version
    assert table.act(table.gm, action, actor, filled(spec, gm=True, **params)).status_code != 403


_SAMPLE = [
    ("gurps", "attack", "target"),
    ("wrath-and-glory", "damage", "targets"),
    ("vi-viii-x", "cure", "healer"),
    ("gods-and-monsters", "chase", "other"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, dict[str, SeatTable]]]:
    tmp = tmp_path_factory.mktemp("serve-seat")
    with serving(str(tmp / "seat.db"), Path(tmp)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        yield client, {system: make_seat_table(client, system) for system in SYSTEMS}


@pytest.mark.parametrize(("system", "action", "param"), _SAMPLE, ids=["/".join(c) for c in _SAMPLE])
def test_a_sample_of_the_matrix_through_a_real_server(
    served: tuple[httpx.Client, dict[str, SeatTable]], system: str, action: str, param: str
) -> None:
    _, tables = served
    table = tables[system]
    assert _call(table, {}, action, "theirs", param).status_code == 401
    before = table.character("theirs")
    r = _call(table, table.ana, action, "theirs", param)
    assert r.status_code in (200, 400, 404, 409), r.text
    if r.status_code == 200:
        assert r.json()["request"]["status"] == "waiting"
    assert table.character("theirs") == before
    assert _call(table, table.ana, action, "theirs", param, rolled=[2, 2, 2]).status_code == 403
    assert _call(table, table.gm, action, "theirs", param).status_code != 403
