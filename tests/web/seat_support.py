"""A table for the player's-seat tests in every system: ana plays ``mine``, bea plays ``theirs``,
``npc`` is the GM's NPC, and each request can be sent by the GM, a player or no token."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import count
from typing import Any, Protocol

import httpx

from rulekeeper.core import ActionSpec, ParamSpec, get_ruleset

from .web_support import bearer, sheets_6810

_GURPS = {
    "st": 11,
    "dx": 12,
    "ht": 11,
    "skills": {"broadsword": 13},
    "shield": 11,
    "weapons": [{"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
}
SHEETS: Mapping[str, Mapping[str, Any]] = {
    "gurps": _GURPS,
    "wrath-and-glory": {"tier": 1, "toughness": 3, "willpower": 3},
    "gods-and-monsters": {"name": "Hero", "archetype": "warrior", "level": 2, "survival": 7, "verve": 17, "health": 12},
    "vi-viii-x": sheets_6810()["ranger"],
}
#: NPCs' sheets where the rules give NPCs less (Gods & Monsters: no verve).
NPC_SHEETS: Mapping[str, Mapping[str, Any]] = {
    "gods-and-monsters": {"name": "Orc", "archetype": "warrior", "level": 2, "survival": 7, "health": 12},
}
SYSTEMS = tuple(SHEETS)
_NAMES = count(1)


class Client(Protocol):
    def get(self, url: str, **kw: Any) -> httpx.Response: ...

    def post(self, url: str, **kw: Any) -> httpx.Response: ...


@dataclass
class SeatTable:
    api: Client
    name: str
    system: str
    gm: dict[str, str]
    ana: dict[str, str]
    bea: dict[str, str]

    def url(self, rest: str = "") -> str:
        return f"/api/campaigns/{self.name}{rest}"

    def act(
        self,
        who: Mapping[str, str],
        action: str,
        actor: str | None,
        params: Mapping[str, Any],
        rolled: list[int] | None = None,
    ) -> httpx.Response:
        body: dict[str, Any] = {"params": dict(params)}
        if actor is not None:
            body["actor"] = actor
        if rolled is not None:
            body["rolled"] = rolled
        return self.api.post(self.url(f"/{self.system}/actions/{action}"), headers=dict(who), json=body)

    def version(self) -> int:
        r = self.api.get(self.url(), headers=self.gm)
        assert r.status_code == 200, r.text
        version: int = r.json()["version"]
        return version

    def log(self) -> list[dict[str, Any]]:
        r = self.api.get(self.url("/log"), headers=self.gm)
        assert r.status_code == 200, r.text
        entries: list[dict[str, Any]] = r.json()
        return entries

    def character(self, actor: str) -> dict[str, Any]:
        r = self.api.get(self.url(f"/characters/{actor}"), headers=self.gm)
        assert r.status_code == 200, r.text
        found: dict[str, Any] = r.json()
        return found


def make_seat_table(api: Client, system: str, sheets: Mapping[str, Mapping[str, Any]] | None = None) -> SeatTable:
    name = f"seat-{system}-{next(_NAMES)}"
    r = api.post("/api/campaigns", json={"name": name, "system": system, "seed": 5})
    assert r.status_code == 201, r.text
    gm = bearer(r.json()["gm_token"])
    for actor, who in (("mine", "ana"), ("theirs", "bea"), ("npc", None)):
        sheet = NPC_SHEETS.get(system, SHEETS[system]) if who is None else SHEETS[system]
        body: dict[str, Any] = {"actor": actor, "sheet": dict((sheets or {}).get(actor, sheet))}
        if who is None:
            body["npc"] = True
        else:
            body["player"] = who
        r = api.post(f"/api/campaigns/{name}/characters", headers=gm, json=body)
        assert r.status_code == 200, r.text
    tokens = {}
    for who in ("ana", "bea"):
        r = api.post(f"/api/campaigns/{name}/members", headers=gm, json={"name": who, "role": "player"})
        assert r.status_code == 201, r.text
        tokens[who] = bearer(r.json()["token"])
    return SeatTable(api, name, system, gm, tokens["ana"], tokens["bea"])


def example_value(p: ParamSpec) -> Any:
    """A value of the parameter's kind that its bounds accept (not necessarily its default)."""
    low = 1 if p.minimum is None else max(p.minimum, 1)
    if p.maximum is not None:
        low = min(low, p.maximum)
    number = int(low)
    return {
        "int": number,
        "float": float(number),
        "bool": True,
        "choice": p.choices[-1] if p.choices else "x",
        "dice": "1d6",
        "duration": "1m",
        "ints": [number],
        "character": "mine",
    }.get(p.kind, "x")


def filled(spec: ActionSpec, *, gm: bool = False, **given: Any) -> dict[str, Any]:
    """The required parameters of ``spec`` with example values (those only the GM gives, only
    for the GM), then ``given``."""
    out = {p.name: example_value(p) for p in spec.params if p.required and (gm or not (p.overrides_rules or p.gm_only))}
    out.update(given)
    return out


def cells() -> list[tuple[str, str, str]]:
    """(system, action, parameter) for every character-naming parameter of every action."""
    return [
        (system, spec.name, p.name)
        for system in SYSTEMS
        for spec in get_ruleset(system).actions().values()
        for p in spec.params
        if p.names_character
    ]


def override_cells() -> list[tuple[str, str, str]]:
    """(system, action, parameter) for every GM-only or rule-overriding parameter."""
    return [
        (system, spec.name, p.name)
        for system in SYSTEMS
        for spec in get_ruleset(system).actions().values()
        for p in spec.params
        if p.overrides_rules or p.gm_only
    ]


def overriding_value(p: ParamSpec) -> Any:
    """A value unlike the parameter's default, so it is an override."""
    value = example_value(p)
    if p.default is not None and value == p.default:
        if p.kind == "bool":
            return not p.default
        if p.kind == "choice":
            return next(c for c in p.choices if c != p.default)
        if p.kind in ("int", "float"):
            return value + 1 if p.maximum is None or value + 1 <= p.maximum else value - 1
        return "hard" if value != "hard" else "easy"
    return value
