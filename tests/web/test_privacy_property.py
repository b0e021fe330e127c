"""Hypothesis: generated campaigns and histories, read through every GET operation and the event
stream as each player and an observer, never show an unknown stat, a GM-secret roll, or another
player's private data."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import count
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rulekeeper.web import create_app
from systems.vi_viii_x.strategies import histories, sheets

from .web_support import EventStream, ThreadServer, bearer

_NAMES = count(1)
# Every example runs a whole campaign over HTTP; shrinking one can take many minutes, and the
# failing example is printed either way.
_NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)
_GM_ONLY_PATHS = ("/export", "/members", "/undo/preview", "/files/{format_name}", "/set-aside", "/refusals")
_OWNER_ONLY_PATHS = ("/characters/{actor}/turn",)
# What a GM's log entry has beyond a player's (commands and results carry the GM's secrets) ...
_GM_ENTRY_KEYS = {"command", "result", "dice", "summary", "key"}
# ... and a GM's pending check beyond a player's (stat totals and odds).
_GM_PENDING_KEYS = {"probability", "probability_exact", "critical_probability", "check", "secret"}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    server = ThreadServer(create_app(str(tmp_path_factory.mktemp("privacy") / "campaigns.db")))
    try:
        yield server
    finally:
        server.close()


class Session:
    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=60)
        self.paths = [
            path
            for path, ops in self.http.get("/openapi.json").json()["paths"].items()
            if "get" in ops and path.startswith("/api/campaigns/{campaign}")
        ]

    def call(self, method: str, path: str, token: str, **kw: Any) -> httpx.Response:
        r = self.http.request(method, path, headers=bearer(token), **kw)
        assert r.status_code < 500, (method, path, r.text)
        return r

    def every_get(self, campaign: str, token: str, actors: list[str]) -> list[tuple[str, httpx.Response]]:
        """Every GET operation of a campaign, each character's for those that take one."""
        out = []
        for template in self.paths:
            if template.endswith("/events"):
                continue
            fills = actors if "{actor}" in template else [None]
            for actor in fills:
                path = template.replace("{campaign}", campaign)
                if actor is not None:
                    path = path.replace("{actor}", actor)
                out.append((template, self.call("GET", path, token)))
        return out

    def stream(self, campaign: str, token: str, head: int) -> list[Any]:
        stream = EventStream(f"{self.base}/api/campaigns/{campaign}/events", token, last_event_id=0)
        try:
            return [e.data for e in stream.until(head)]
        finally:
            stream.close()


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k, v
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


def _check_player_copy(body: Any, mine: set[str], template: str, *, odds_are_secret: bool = True) -> None:
    """No private keys, and explanation lines and pending checks only about the viewer's characters."""
    entries = body if isinstance(body, list) else [body]
    for entry in entries:
        if isinstance(entry, dict) and {"seq", "kind"} <= set(entry):
            assert not (_GM_ENTRY_KEYS & set(entry)), (template, entry)
    for key, value in _walk(body):
        if key == "explanation":
            assert all(line["actor"] in mine | {None} for line in value), (template, value)
        if key == "pending":
            assert all(p["actor"] in mine for p in value), (template, value)
            hidden = _GM_PENDING_KEYS if odds_are_secret else {"secret"}
            assert not any(hidden & set(p) for p in value), (template, value)
    if isinstance(body, dict) and "characters" in body:
        body = body["characters"]
    if isinstance(body, list):
        body = [c for c in body if isinstance(c, dict) and "access" in c]
    for character in body if isinstance(body, list) else [body]:
        if isinstance(character, dict) and "access" in character:
            if character["actor"] in mine:
                assert character["access"] == "player"
            else:
                assert character["access"] == "table", (template, character)
                assert set(character["view"]) == {"actor", "name", "conditions"}


def _play(session: Session, campaign: str, gm: str, ops: list[tuple[str, str, dict[str, Any]]]) -> None:
    for name, actor, params in ops:
        if name == "advance":
            session.call("POST", f"/api/campaigns/{campaign}/advance", gm, json={"duration": params["seconds"]})
        elif name == "resolve":
            pending = session.call("GET", f"/api/campaigns/{campaign}/pending", gm).json()
            if pending:
                session.call("POST", f"/api/campaigns/{campaign}/pending/{pending[-1]['id']}/resolve", gm, json={})
        else:
            session.call(
                "POST",
                f"/api/campaigns/{campaign}/vi-viii-x/actions/{name}",
                gm,
                json={"actor": actor, "params": params},
            )


def _setup(
    session: Session, system: str, sheets_by_actor: dict[str, Any], prompt: str | None
) -> tuple[str, dict[str, str]]:
    campaign = f"{system}-{next(_NAMES)}"
    r = session.http.post("/api/campaigns", json={"name": campaign, "system": system, "seed": 3})
    assert r.status_code == 201, r.text
    tokens = {"gm": r.json()["gm_token"]}
    if prompt is not None:
        r = session.call(
            "PATCH", f"/api/campaigns/{campaign}/settings", tokens["gm"], json={"automation": {prompt: "prompt"}}
        )
        assert r.status_code == 200, r.text
    players = {"a": "ana", "b": "bea"}
    for actor, sheet in sheets_by_actor.items():
        r = session.call(
            "POST",
            f"/api/campaigns/{campaign}/characters",
            tokens["gm"],
            json={"actor": actor, "sheet": sheet, "player": players[actor]},
        )
        assert r.status_code == 200, r.text
    for who, role in (("ana", "player"), ("bea", "player"), ("obi", "observer")):
        tokens[who] = session.call(
            "POST", f"/api/campaigns/{campaign}/members", tokens["gm"], json={"name": who, "role": role}
        ).json()["token"]
    return campaign, tokens


def _read_everything(session: Session, campaign: str, tokens: dict[str, str]) -> dict[str, list[tuple[str, str, Any]]]:
    """Each viewer's every GET answer and stream event: (where, text, parsed JSON)."""
    # Time passing ends the history with an entry every viewer sees.
    session.call("POST", f"/api/campaigns/{campaign}/advance", tokens["gm"], json={"duration": 1})
    seen: dict[str, list[tuple[str, str, Any]]] = {}
    for who in ("ana", "bea", "obi"):
        out = []
        for template, r in session.every_get(campaign, tokens[who], ["a", "b"]):
            if template.endswith(_GM_ONLY_PATHS):
                assert r.status_code == 403, (who, template)
                continue
            if template.endswith(_OWNER_ONLY_PATHS):
                # A character's turn: its player's (ana plays a, bea b), the GM's, nobody else's.
                actor = str(r.request.url).rsplit("/characters/", 1)[1].split("/", 1)[0]
                if (who, actor) not in (("ana", "a"), ("bea", "b")):
                    assert r.status_code == 403, (who, template, actor)
                    continue
            assert r.status_code == 200, (who, template, r.text)
            out.append((template, r.text, r.json()))
        # Each viewer counts event ids over what they may see, so their own version is their head.
        head = session.call("GET", f"/api/campaigns/{campaign}", tokens[who]).json()["version"]
        events = session.stream(campaign, tokens[who], head)
        out.extend(("events", str(e), e) for e in events)
        seen[who] = out
    return seen


@settings(
    max_examples=12,
    phases=_NO_SHRINK,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(a=sheets(), b=sheets(), ops=histories, prompt=st.booleans())
def test_no_player_ever_sees_an_unknown_stat(
    live: ThreadServer, a: dict[str, Any], b: dict[str, Any], ops: list[Any], prompt: bool
) -> None:
    session = Session(live.url)
    campaign, tokens = _setup(session, "vi-viii-x", {"a": a, "b": b}, "*" if prompt else None)
    _play(session, campaign, tokens["gm"], ops)
    secret_names = {*a["us"], *b["us"]}
    mine = {"ana": {"a"}, "bea": {"b"}, "obi": set()}
    for who, answers in _read_everything(session, campaign, tokens).items():
        for where, text, body in answers:
            for name in secret_names:
                assert not re.search(rf"\b{name}\b", text, re.IGNORECASE), (who, where, name, text)
            _check_player_copy(
                body if where != "/api/campaigns/{campaign}/pending" else {"pending": body}, mine[who], where
            )
    # The GM does see them (so the search above would have found a leak).
    gm_text = session.call("GET", f"/api/campaigns/{campaign}/characters", tokens["gm"]).text
    assert any(name.lower() in gm_text.lower() for name in secret_names)


_SENSES = st.fixed_dictionaries(
    {
        "sense": st.sampled_from(["vision", "hearing"]),
        "dangerous": st.booleans(),
        "danger_sense": st.booleans(),
        "comprehension": st.sampled_from(["none", "iq"]),
        "modifier": st.integers(-6, 2),
    }
)


@settings(
    max_examples=8, phases=_NO_SHRINK, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    senses=st.lists(st.tuples(st.sampled_from(["a", "b"]), _SENSES, st.booleans()), min_size=1, max_size=6),
    prompt=st.sampled_from([None, "gurps.sense.danger", "*"]),
)
def test_no_player_ever_learns_of_a_danger_sense_roll(
    live: ThreadServer, senses: list[tuple[str, dict[str, Any], bool]], prompt: str | None
) -> None:
    session = Session(live.url)
    sheet = {"iq": 11, "per": 12, "ht": 10}
    campaign, tokens = _setup(
        session, "gurps", {"a": {**sheet, "name": "Ana's"}, "b": {**sheet, "name": "Bea's"}}, prompt
    )
    for actor, params, resolve in senses:
        session.call(
            "POST",
            f"/api/campaigns/{campaign}/gurps/actions/sense",
            tokens["gm"],
            json={"actor": actor, "params": params},
        )
        if resolve:
            for p in session.call("GET", f"/api/campaigns/{campaign}/pending", tokens["gm"]).json():
                session.call("POST", f"/api/campaigns/{campaign}/pending/{p['id']}/resolve", tokens["gm"], json={})
    mine = {"ana": {"a"}, "bea": {"b"}, "obi": set()}
    for who, answers in _read_everything(session, campaign, tokens).items():
        for where, text, body in answers:
            for word in ("Danger Sense", "senses danger", "sense of danger", "dangerous", "danger_s"):
                assert word not in text, (who, where, word, text)
            _check_player_copy(
                body if where != "/api/campaigns/{campaign}/pending" else {"pending": body},
                mine[who],
                where,
                odds_are_secret=False,
            )
