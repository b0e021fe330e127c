"""A hostile player against a real ``rulekeeper serve`` process, trying to infer the GM's secrets
(issue 26, "Secrets can be inferred"): an unknown stat found by probing thresholds, a secret
name told apart by its error, a secret stat read off the log's numbers, and a secret roll
spotted by the gaps it leaves in ids, versions and undo lines.

The strongest form of each check is a pair of tables that differ only in the secret: whatever
the player can read must then be the same at both.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from .web_support import EventStream, ServeProcess, bearer, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("seat")
    with serving(str(tmp / "campaigns.db"), tmp) as running:
        yield running


class Table:
    """One campaign on the server: the GM's token and ana's (a player)."""

    def __init__(self, server: ServeProcess, name: str, system: str, sheets: Mapping[str, Mapping[str, Any]]) -> None:
        self.base = f"{server.url}/api/campaigns/{name}"
        self.system = system
        r = httpx.post(f"{server.url}/api/campaigns", json={"name": name, "system": system, "seed": 7}, timeout=30)
        assert r.status_code == 201, r.text
        self.gm = r.json()["gm_token"]
        for actor, sheet in sheets.items():
            r = self.call("POST", "/characters", self.gm, json={"actor": actor, "sheet": dict(sheet), "player": "ana"})
            assert r.status_code == 200, r.text
        r = self.call("POST", "/members", self.gm, json={"name": "ana", "role": "player"})
        assert r.status_code == 201, r.text
        self.ana = r.json()["token"]

    def call(self, method: str, path: str, token: str, **kw: Any) -> httpx.Response:
        headers = {**bearer(token), **kw.pop("headers", {})}
        return httpx.request(method, self.base + path, headers=headers, timeout=30, **kw)

    def act(self, token: str, action: str, actor: str, **body: Any) -> httpx.Response:
        return self.call("POST", f"/{self.system}/actions/{action}", token, json={"actor": actor, **body})

    def ok(self, r: httpx.Response) -> dict[str, Any]:
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


_BY_DESIGN = ("wall_time", "campaign", "instance")


def _campaign_name(key: str, value: Any) -> bool:
    return key == "name" and isinstance(value, str) and value.startswith("sense-")


def _stripped(value: Any) -> Any:
    """``value`` without what differs between two tables by design (names, wall clocks)."""
    if isinstance(value, dict):
        return {k: _stripped(v) for k, v in value.items() if k not in _BY_DESIGN and not _campaign_name(k, v)}
    if isinstance(value, list):
        return [_stripped(v) for v in value]
    return value


# -- VI·VIII·X: an unknown stat -----------------------------------------------------------------
def _ranger(vig: int = 3, ref: int = 3) -> dict[str, Any]:
    return {
        "name": "Ranger",
        "BU": 6,
        "CO": 4,
        "IN": 4,
        "EM": 5,
        "us": {"VIG": vig, "REF": {"ks": "CO", "value": ref}},
        "es": {"body-control": {"us": "REF", "level": 4}},
    }


def test_a_player_cannot_search_for_an_unknown_stat_with_thresholds(server: ServeProcess) -> None:
    """With a threshold (or an opponent, or a roll modifier) of their choosing and dice they type,
    each success or failure halves the range of their own unknown stat: refused, whatever value."""
    t = Table(server, "probe-threshold", "vi-viii-x", {"ranger": _ranger()})
    probes: list[dict[str, Any]] = [
        {"ks": "bu", "threshold": "5"},
        {"ks": "bu", "threshold": "easy", "roll_modifier": 0},
        {"ks": "bu", "opponent_stats": 9, "roll_modifier": 0, "opponent_roll_modifier": 0},
        {"skill": "body-control", "threshold": "12"},
    ]
    for params in probes:
        r = t.act(t.ana, "arc", "ranger", params=params)
        assert r.status_code == 403, (params, r.text)
        assert "only the GM may set" in r.json()["detail"], r.text
    r = t.act(t.ana, "exert", "ranger", params={"threshold": "hard", "step": 0})
    assert r.status_code == 403, r.text
    # The GM still sets them: the rules run as before.
    assert t.act(t.gm, "arc", "ranger", params={"ks": "bu", "threshold": "5"}).status_code == 200
    # Nothing the player tried reached the history.
    assert [e["kind"] for e in t.ok(t.call("GET", "/log", t.gm))] == ["add_character", "act"]


def test_right_and_wrong_unknown_stat_names_read_the_same(server: ServeProcess) -> None:
    """Guessing names: the ranger's unknown stats (VIG, REF) and a made-up one answer alike, apart
    from the player's own word echoed back."""
    t = Table(server, "probe-names", "vi-viii-x", {"ranger": _ranger()})
    answers = {}
    for word in ("VIG", "REF", "QZX"):
        for action, params in (
            ("arc", {"skill": word, "threshold": "easy"}),
            ("damage", {"amount": 1, "us": word}),
        ):
            r = t.act(t.ana, action, "ranger", params=params)
            text = re.sub(rf"\b{word}\b", "WORD", r.text, flags=re.IGNORECASE)
            answers.setdefault(action, set()).add((r.status_code, text))
    for action, seen in answers.items():
        assert len(seen) == 1, (action, seen)


def _player_lines(t: Table) -> list[str]:
    return [s["text"] for e in t.ok(t.call("GET", "/log", t.ana)) for s in e["explanation"]]


def test_a_fall_tells_the_player_nothing_about_the_stat_under_body_control(server: ServeProcess) -> None:
    """A fall's relief is the Body Control ARCT's margin: with the threshold (the fall band) and
    the die the player typed, it gave REF exactly. Two rangers that differ only in REF must read
    the same log (VIG is deep enough to take either damage, so BU does not move)."""
    logs = []
    for ref in (3, 4):
        t = Table(server, f"fall-ref-{ref}", "vi-viii-x", {"ranger": _ranger(vig=9, ref=ref)})
        r = t.act(t.ana, "fall", "ranger", params={"metres": 8, "body_control": True}, rolled=[6])
        assert r.status_code == 200, r.text
        gm = t.ok(t.call("GET", "/log", t.gm))[-1]
        assert gm["result"]["relief"] == ref  # the rules did find different relief
        logs.append(_player_lines(t))
    assert logs[0] == logs[1], logs
    assert any("Body Control" in line for line in logs[0]), logs


def test_damage_lines_carry_only_numbers_the_players_sheet_shows(server: ServeProcess) -> None:
    """ "ranger takes 5 damage: BU 6 → 4" says VIG took 3. Every number in the player's lines must
    be one their own sheet shows (KS values before and after)."""
    t = Table(server, "damage-lines", "vi-viii-x", {"ranger": _ranger(vig=3)})
    shown = set()
    for amount in (2, 8):  # the first only VIG takes; the second goes through to BU
        view = t.ok(t.call("GET", "/characters/ranger", t.ana))["view"]
        shown |= {str(v) for v in _numbers_in(view)}
        t.ok(t.act(t.gm, "damage", "ranger", params={"amount": amount}))
    view = t.ok(t.call("GET", "/characters/ranger", t.ana))["view"]
    shown |= {str(v) for v in _numbers_in(view)}
    lines = _player_lines(t)
    assert any("BU" in line for line in lines), lines
    for line in lines:
        numbers = set(re.findall(r"-?\d+", line))
        assert numbers <= shown, (line, numbers - shown)


def _numbers_in(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _numbers_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _numbers_in(v)


# -- GURPS: a secret roll ----------------------------------------------------------------------
def _what_ana_reads(server: ServeProcess, name: str, dangerous: bool) -> list[Any]:
    """Play one scene where the GM may roll Danger Sense in secret; return all ana can read."""
    t = Table(server, name, "gurps", {"hero": {"name": "Hero", "per": 12, "iq": 11, "ht": 10}})
    settings = {"automation": {"gurps.sense.vision": "prompt", "gurps.sense.danger": "prompt"}}
    assert t.call("PATCH", "/settings", t.gm, json=settings).status_code == 200
    seen: list[Any] = []

    def read(r: httpx.Response) -> dict[str, Any]:
        body = t.ok(r)
        seen.append(("etag", r.headers.get("ETag")))
        seen.append(_stripped(body))
        return body

    def ana_rolls(dice: list[int]) -> None:
        """Ana rolls her own waiting check, If-Match the version she last saw."""
        (waiting,) = read(t.call("GET", "/pending", t.ana))
        mine = read(t.call("GET", "", t.ana))
        headers = {"If-Match": f'"{mine["version"]}"'}
        read(t.call("POST", f"/pending/{waiting['id']}/resolve", t.ana, json={"dice": dice}, headers=headers))

    first = t.ok(t.act(t.gm, "sense", "hero", params={"dangerous": dangerous, "danger_sense": True}))
    ana_rolls([6, 6, 6])  # she misses her Vision roll: the GM may now owe a secret roll
    secret = t.ok(t.call("GET", "/pending", t.gm))
    assert [p["secret"] for p in secret] == ([True] if dangerous else [])  # the GM owes a secret roll
    for p in secret:
        t.ok(t.call("POST", f"/pending/{p['id']}/resolve", t.gm, json={}))
    # Another Vision roll: its id must follow ana's last one, whatever the GM rolled between.
    t.ok(t.act(t.gm, "sense", "hero", params={"dangerous": False, "danger_sense": True}))
    ana_rolls([3, 3, 3])
    # The GM takes the first sense back, and what hung on it.
    t.ok(t.call("POST", "/undo", t.gm, json={"seq": first["seq"]}))
    read(t.call("GET", "", t.ana))
    read(t.call("GET", "/log", t.ana))
    # The live stream, from the start and resumed half-way.
    head = t.ok(t.call("GET", "", t.ana))["version"]
    events = f"{t.base}/events"
    for resume in (0, head // 2):
        stream = EventStream(events, t.ana, last_event_id=resume)
        try:
            seen.append([(e.id, _stripped(e.data)) for e in stream.until(head)])
        finally:
            stream.close()
    return seen


def test_a_secret_roll_leaves_no_trace_a_player_can_see(server: ServeProcess) -> None:
    """GURPS Danger Sense is rolled by the GM in secret (seed 004, "Sense Roll"). Two scenes that
    differ only in whether the danger was real -- so whether the GM rolled it -- read the same
    to the player: the same pending ids, seqs, versions, ETags, log, undo lines and stream ids."""
    calm = _what_ana_reads(server, "sense-calm", dangerous=False)
    danger = _what_ana_reads(server, "sense-danger", dangerous=True)
    assert len(calm) == len(danger)
    for a, b in zip(calm, danger, strict=True):
        assert a == b, (a, b)
    text = repr(danger)
    for word in ("dangerous", "danger_sense", "Danger Sense"):
        assert word not in text, word


def test_the_gm_still_counts_every_command(server: ServeProcess, tmp_path: Path) -> None:
    """The GM's numbers are the table's own: the secret roll is there, and If-Match and
    Last-Event-ID keep working by them."""
    t = Table(server, "gm-counts", "gurps", {"hero": {"name": "Hero", "per": 12}})
    settings = {"automation": {"gurps.sense.vision": "prompt", "gurps.sense.danger": "prompt"}}
    assert t.call("PATCH", "/settings", t.gm, json=settings).status_code == 200
    t.ok(t.act(t.gm, "sense", "hero", params={"dangerous": True, "danger_sense": True}))
    (vision,) = t.ok(t.call("GET", "/pending", t.gm))
    t.ok(t.call("POST", f"/pending/{vision['id']}/resolve", t.gm, json={"dice": [6, 6, 6]}))  # missed
    (secret,) = t.ok(t.call("GET", "/pending", t.gm))
    assert secret["secret"] and secret["id"] == vision["id"] + 1
    gm_version = t.ok(t.call("GET", "", t.gm))["version"]
    r = t.call("POST", f"/pending/{secret['id']}/resolve", t.gm, json={}, headers={"If-Match": f'"{gm_version}"'})
    assert r.status_code == 200 and r.headers["ETag"] == f'"{gm_version + 1}"', r.text
    ana_version = t.ok(t.call("GET", "", t.ana))["version"]
    assert ana_version == gm_version  # the secret resolution is not counted for ana...
    stream = EventStream(f"{t.base}/events", t.gm, last_event_id=gm_version)
    try:
        (event,) = stream.until(gm_version + 1)  # ...but is the GM's next event
        assert event.data["action"] is None and event.data["kind"] == "resolve"
    finally:
        stream.close()


# -- roll modes --------------------------------------------------------------------------------
def test_the_gm_chooses_who_sees_each_kind_of_check(server: ServeProcess) -> None:
    """Public, private, blind: the rules' own mode holds until the GM changes it per kind."""
    t = Table(server, "roll-modes", "gurps", {"hero": {"name": "Hero", "per": 12}})
    r = t.call("POST", "/characters", t.gm, json={"actor": "brute", "sheet": {"name": "Brute"}, "player": "bea"})
    assert r.status_code == 200, r.text
    r = t.call("POST", "/members", t.gm, json={"name": "bea", "role": "player"})
    assert r.status_code == 201, r.text
    bea_token = r.json()["token"]
    prompt = {"automation": {"gurps.sense": "prompt"}}
    assert t.call("PATCH", "/settings", t.gm, json=prompt).status_code == 200
    shown = t.ok(t.call("GET", "/settings", t.gm))
    assert shown["options"].get("roll_modes") is None  # the rules' own: Danger Sense blind, the rest private

    # Danger Sense made private: ana sees it waiting and rolls it herself.
    r = t.call("PATCH", "/settings", t.gm, json={"roll_modes": {"gurps.sense.danger": "private"}})
    assert r.status_code == 200, r.text
    t.ok(t.act(t.gm, "sense", "hero", params={"dangerous": True, "danger_sense": True}))
    (vision,) = t.ok(t.call("GET", "/pending", t.ana))
    t.ok(t.call("POST", f"/pending/{vision['id']}/resolve", t.ana, json={"dice": [6, 6, 6]}))
    (danger,) = t.ok(t.call("GET", "/pending", t.ana))
    assert danger["kind"] == "gurps.sense.danger"
    t.ok(t.call("POST", f"/pending/{danger['id']}/resolve", t.ana, json={"dice": [3, 3, 3]}))

    # Vision made blind: ana no longer sees it waiting, nor may roll it; the GM does.
    t.ok(t.call("PATCH", "/settings", t.gm, json={"roll_modes": {"gurps.sense.vision": "blind"}}))
    t.ok(t.act(t.gm, "sense", "hero", params={}))
    assert t.ok(t.call("GET", "/pending", t.ana)) == []
    (hidden,) = t.ok(t.call("GET", "/pending", t.gm))
    assert hidden["secret"] is True
    t.ok(t.call("POST", f"/pending/{hidden['id']}/resolve", t.gm, json={"dice": [3, 3, 3]}))
    assert not any("notices it" in line for line in _player_lines(t)), _player_lines(t)

    # Vision made public: bea reads ana's hero's roll; private again, she does not.
    t.ok(t.call("PATCH", "/settings", t.gm, json={"roll_modes": {"gurps.sense.vision": "public"}}))
    t.ok(t.act(t.gm, "sense", "hero", params={}))
    (vision,) = t.ok(t.call("GET", "/pending", t.ana))
    t.ok(t.call("POST", f"/pending/{vision['id']}/resolve", t.ana, json={"dice": [3, 3, 3]}))
    bea_lines = [s["text"] for e in t.ok(t.call("GET", "/log", bea_token)) for s in e["explanation"]]
    assert any("Hero's Vision" in line for line in bea_lines), bea_lines
    # Back to the rules' own; a mode that is not one is refused in our words.
    t.ok(t.call("PATCH", "/settings", t.gm, json={"roll_modes": {"gurps.sense.vision": None}}))
    assert t.ok(t.call("GET", "/settings", t.gm))["options"]["roll_modes"] == {"gurps.sense.danger": "private"}
    r = t.call("PATCH", "/settings", t.gm, json={"options": {"roll_modes": {"gurps.sense.vision": "loud"}}})
    assert r.status_code == 400 and "public, private, blind" in r.text, r.text
    assert t.call("PATCH", "/settings", t.ana, json={"roll_modes": {"*": "public"}}).status_code == 403


def _ids_around_an_auto_roll(server: ServeProcess, name: str, dangerous: bool) -> tuple[list[Any], list[str]]:
    """ana's pending ids before and after a GM ``sense`` whose rolls the engine makes at once;
    a missed Vision roll (Per 3) brings the secret Danger Sense roll when the danger is real."""
    t = Table(server, name, "gurps", {"hero": {"name": "Hero", "per": 3, "iq": 11, "ht": 10}})
    prompt = {"automation": {"gurps.sense.vision": "prompt", "gurps.sense.danger": "auto"}}
    assert t.call("PATCH", "/settings", t.gm, json=prompt).status_code == 200
    seen: list[Any] = []

    def ana_rolls() -> None:
        t.ok(t.act(t.gm, "sense", "hero", params={}))
        (waiting,) = t.ok(t.call("GET", "/pending", t.ana))
        seen.append(waiting["id"])
        r = t.call("POST", f"/pending/{waiting['id']}/resolve", t.ana, json={"dice": [3, 3, 3]})
        seen.append((r.status_code, r.headers.get("ETag")))

    ana_rolls()
    auto = {"automation": {"gurps.sense.vision": "auto"}}
    assert t.call("PATCH", "/settings", t.gm, json=auto).status_code == 200
    t.ok(t.act(t.gm, "sense", "hero", params={"dangerous": dangerous, "danger_sense": True}))
    assert t.call("PATCH", "/settings", t.gm, json=prompt).status_code == 200
    ana_rolls()
    seen.append([s["text"] for e in t.ok(t.call("GET", "/log", t.ana)) for s in e["explanation"]])
    gm_lines = [s["text"] for e in t.ok(t.call("GET", "/log", t.gm)) for s in e["explanation"]]
    return seen, gm_lines


def test_an_auto_rolled_secret_check_takes_no_number_a_player_counts(server: ServeProcess) -> None:
    """A hostile player notes her pending check's id, the GM makes a ``sense`` whose Vision roll
    the engine rolls at once, and she notes the id of her next one. The engine rolled Danger
    Sense in secret only when the danger was real; her ids must not say which (issue 26: an
    auto-rolled blind check took an id and left a gap). Her ids also follow on one from the
    other: a roll she never saw waiting takes no number of hers."""
    calm, calm_gm = _ids_around_an_auto_roll(server, "auto-calm", dangerous=False)
    danger, danger_gm = _ids_around_an_auto_roll(server, "auto-danger", dangerous=True)
    assert any("Danger Sense" in line for line in danger_gm), danger_gm  # the GM's secret roll happened
    assert not any("Danger Sense" in line for line in calm_gm), calm_gm
    assert calm == danger, (calm, danger)
    first, _, second, _, _ = danger
    assert second == first + 1, danger


def test_time_passing_names_only_the_waiting_checks_a_player_was_shown(server: ServeProcess) -> None:
    """The engine's "still waiting for dice" line as time passes lists pending checks by id. A
    hostile player reading it must find neither a blind check's id (its existence is the GM's
    secret) nor the GM's own numbering: the line lists what she was shown, counted her way, and
    is gone from her log when it would name only hidden checks."""
    t = Table(server, "waiting-list", "gurps", {"hero": {"name": "Hero", "per": 10, "iq": 11, "ht": 10}})
    blind = {"automation": {"gurps.sense": "prompt"}, "roll_modes": {"gurps.sense.vision": "blind"}}
    assert t.call("PATCH", "/settings", t.gm, json=blind).status_code == 200
    t.ok(t.act(t.gm, "sense", "hero", params={}))  # a blind Vision roll waits, for the GM alone
    (hidden,) = t.ok(t.call("GET", "/pending", t.gm))
    assert t.ok(t.call("GET", "/pending", t.ana)) == []
    t.ok(t.call("POST", "/advance", t.gm, json={"duration": "1m"}))
    gm_lines = [s["text"] for e in t.ok(t.call("GET", "/log", t.gm)) for s in e["explanation"]]
    assert any(f"#{hidden['id']}" in line and "waiting" in line for line in gm_lines), gm_lines
    assert not any("waiting for dice" in line for line in _player_lines(t)), _player_lines(t)

    # A check she was shown waits beside a blind one (asked first: a command given once the clock
    # has run past a waiting check waits behind it): the line names hers alone, as she counts it.
    t = Table(server, "waiting-list-2", "gurps", {"hero": {"name": "Hero", "per": 10, "iq": 11, "ht": 10}})
    modes = {"automation": {"gurps.sense": "prompt"}, "roll_modes": {"gurps.sense.hearing": "blind"}}
    assert t.call("PATCH", "/settings", t.gm, json=modes).status_code == 200
    t.ok(t.act(t.gm, "sense", "hero", params={}))  # Vision: private, hers to roll
    (mine,) = t.ok(t.call("GET", "/pending", t.ana))
    t.ok(t.act(t.gm, "sense", "hero", params={"sense": "hearing"}))  # Hearing: blind
    assert len(t.ok(t.call("GET", "/pending", t.gm))) == 2 and len(t.ok(t.call("GET", "/pending", t.ana))) == 1
    t.ok(t.call("POST", "/advance", t.gm, json={"duration": "1m"}))
    waiting = [line for line in _player_lines(t) if "waiting for dice" in line]
    assert any(line.endswith(f"pending check(s) #{mine['id']}") for line in waiting), waiting
    assert not any("Hearing" in line or f"#{mine['id'] + 1}" in line for line in _player_lines(t)), waiting


def test_time_waiting_behind_a_secret_roll_is_not_told_to_the_player(server: ServeProcess) -> None:
    """A blind check waits; a shock of the player's own character falls due behind it. Neither the
    log's line naming the timers that wait (with their labels) nor the page's "ends once #N is
    rolled" may tell the player that a roll she never saw holds time (an independent review)."""
    t = Table(server, "held-timers", "gurps", {"hero": {"name": "Hero", "per": 10, "iq": 11, "ht": 10}})
    blind = {"automation": {"gurps.sense": "prompt"}, "roll_modes": {"gurps.sense.vision": "blind"}}
    assert t.call("PATCH", "/settings", t.gm, json=blind).status_code == 200
    t.ok(t.act(t.gm, "sense", "hero", params={}))  # a blind Vision roll waits, for the GM alone
    (hidden,) = t.ok(t.call("GET", "/pending", t.gm))
    t.ok(t.act(t.gm, "damage", "hero", params={"amount": 3}))  # shock until her next turn
    t.ok(t.call("POST", "/advance", t.gm, json={"duration": "1m"}))
    gm_lines = [s["text"] for e in t.ok(t.call("GET", "/log", t.gm)) for s in e["explanation"]]
    assert any("timer(s) due by now wait" in line for line in gm_lines), gm_lines
    assert not any("timer(s) due" in line for line in _player_lines(t)), _player_lines(t)
    from rulekeeper.web.auth import cookie_name

    base = t.base.replace("/api/campaigns/", "/campaigns/")

    def live(token: str) -> httpx.Response:
        return httpx.get(f"{base}/live", cookies={cookie_name("held-timers"): token}, timeout=30)

    gm_page = live(t.gm)
    assert gm_page.status_code == 200 and f"ends once #{hidden['id']} is rolled" in gm_page.text, gm_page.text
    page = live(t.ana)
    assert page.status_code == 200, page.text
    assert "ends once" not in page.text and "is rolled" not in page.text, page.text
