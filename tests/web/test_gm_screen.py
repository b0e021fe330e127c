"""The GM's screen and the cards (issue 27, items 5 and 6), in process on a real SQLite file:
screen-share shows no GM secret in any system, the combat tracker, members on the dashboard,
cards carrying what the ruleset declares, timers in rounds or minutes, words instead of code
names wherever a player looks."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import count
from typing import Any

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core import get_ruleset
from rulekeeper.web.auth import cookie_name
from rulekeeper.web.pages.context import entry_heading, spoken_duration

from .web_support import SCREEN_CAST, SCREEN_HURT, InProcess, bearer

_NAMES = count(1)


@dataclass
class Screen:
    api: InProcess
    name: str
    system: str
    gm: str
    alias: str
    tokens: dict[str, str] = field(default_factory=dict)

    def url(self, rest: str = "") -> str:
        return f"/api/campaigns/{self.name}{rest}"

    def call(self, method: str, rest: str, token: str | None = None, **kw: Any) -> Any:
        r = self.api.request(method, self.url(rest), headers=bearer(token or self.gm), **kw)
        assert r.status_code < 300, (rest, r.status_code, r.text)
        return r.json() if r.content else None

    def act(self, action: str, actor: str | None, **params: Any) -> Any:
        body: dict[str, Any] = {"params": params}
        if actor:
            body["actor"] = actor
        return self.call("POST", f"/{self.system}/actions/{action}", json=body)

    def page(self, path: str = "", who: str | None = None, status: int = 200) -> str:
        token = self.tokens[who] if who else self.gm
        r = self.api.get(f"/campaigns/{self.name}{path}", headers={"Cookie": f"{cookie_name(self.name)}={token}"})
        assert r.status_code == status, (path, r.status_code, r.text[:300])
        return r.text

    def campaign(self) -> Campaign:
        path = str(self.api.app.state.rulekeeper.store.url).removeprefix("sqlite:///")
        with open_store(path) as store:
            return Campaign.open(store, self.name)


def _text(page: str) -> str:
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def _new(api: InProcess, system: str, *, blind: bool = False) -> Screen:
    name = f"screen-{system}-{next(_NAMES)}"
    r = api.post("/api/campaigns", json={"name": name, "system": system, "seed": 7})
    assert r.status_code == 201, r.text
    table = Screen(api, name, r.json()["campaign"]["system"], r.json()["gm_token"], system)
    (pc, pc_sheet), (npc, npc_sheet) = SCREEN_CAST[system]
    table.call("POST", "/characters", json={"actor": pc, "sheet": pc_sheet, "player": "ana"})
    table.call("POST", "/characters", json={"actor": npc, "sheet": npc_sheet, "npc": True})
    settings: dict[str, Any] = {"automation": {"*": "prompt"}}
    if blind:
        settings["roll_modes"] = dict.fromkeys(get_ruleset(system).check_kinds, "blind")
    table.call("PATCH", "/settings", json=settings)
    for who, role in (("ana", "player"), ("tv", "observer")):
        table.tokens[who] = table.call("POST", "/members", json={"name": who, "role": role})["token"]
    return table


@pytest.fixture(params=sorted(SCREEN_CAST))
def blind_table(request: pytest.FixtureRequest, api: InProcess) -> Iterator[Screen]:
    table = _new(api, request.param, blind=True)
    pc, npc = SCREEN_CAST[request.param][0][0], SCREEN_CAST[request.param][1][0]
    table.act("damage", pc, **SCREEN_HURT[request.param])
    table.act("damage", npc, **SCREEN_HURT[request.param])
    if request.param == "6810":  # damage asks no roll there; an ARC on the unknown stat does
        table.act("arc", pc, ks="bu", us="VIG", threshold="easy")
    table.call("POST", "/advance", json={"duration": "10m"})
    yield table


def test_screen_share_shows_no_secret_the_gm_holds(blind_table: Screen) -> None:
    """Every pending check is blind here, the NPC is hurt and the log has GM-only lines: none of
    it, nor a secret word the ruleset declares, nor any character's numbers, reaches the screen,
    while the GM's own dashboard holds them (so this could fail)."""
    table = blind_table
    gm_view = table.call("GET", "")
    secret_checks = [p for p in gm_view["pending"] if p["secret"]]
    assert secret_checks, "the setup must leave a blind check waiting"
    log = table.call("GET", "/log")
    gm_only = [s["text"] for e in log for s in e["explanation"] if s.get("gm_only")]
    campaign = table.campaign()
    words = sorted(campaign.ruleset.secret_words(campaign.state))
    npc = SCREEN_CAST[table.alias][1][0]
    npc_vitals = campaign.ruleset.vitals(campaign.ruleset.view(campaign.state, npc), npc=True)

    dashboard = _text(table.page())
    screen_page = table.page("/screen")
    live = table.api.get(
        f"/campaigns/{table.name}/screen/live", headers={"Cookie": f"{cookie_name(table.name)}={table.gm}"}
    ).json()
    screens = [_text(screen_page), *(_text(v) for v in live["sections"].values())]
    for p in secret_checks:
        assert p["check"] in dashboard
        for text in screens:
            assert p["check"] not in text, p["check"]
    for line in gm_only:
        for text in screens:
            assert line not in text, line
    for word in words:
        assert word in dashboard
        for text in screens:
            assert not re.search(rf"\b{re.escape(word)}\b", text), word
    # No character's numbers at all: the screen is the table's view (names and conditions).
    assert npc_vitals.stats or npc_vitals.bars
    assert 'class="bar-row"' not in screen_page and '<dl class="stats">' not in screen_page
    assert '<dl class="stats">' in table.page()
    assert "Version" not in screens[0]
    # The GM opens it, or an observer's link on the TV (which sees the same: no GM sign-in
    # there); a player gets a page saying so, and its data is refused.
    assert "Not for you" in table.page("/screen", "ana", status=403)
    for who, status in (("ana", 403), ("tv", 200)):
        r = table.api.get(
            f"/campaigns/{table.name}/screen/live", headers={"Cookie": f"{cookie_name(table.name)}={table.tokens[who]}"}
        )
        assert r.status_code == status, r.text
    tv_page = table.page("/screen", "tv")
    assert '<dl class="stats">' not in tv_page and 'class="bar-row"' not in tv_page


def test_screen_share_is_what_an_observer_sees(api: InProcess) -> None:
    """The same projection as an observer's page: the same cards and log headings."""
    table = _new(api, "gurps")
    table.act("damage", "hero", amount=5)
    screen = _text(table.page("/screen"))
    observer = _text(table.page("", "tv"))
    for heading in ("Damage · hero", "joins the table · orc"):
        assert heading in screen and heading in observer
    assert "hero" in screen and "Orc" in screen


def test_the_tracker_says_the_round_whose_turn_and_who_waits_for_what(api: InProcess) -> None:
    table = _new(api, "gurps")
    table.act("start_combat", None)
    table.act("damage", "hero", amount=14)  # asks hero's player for HT rolls
    table.call("POST", "/round", json={})
    gm = _text(table.page())
    player = _text(table.page("", "ana"))
    screen = _text(table.page("/screen"))
    for text in (gm, player, screen):
        assert "Round 2" in text and "Hero's turn" in text, text[:400]
    pending = table.call("GET", "")["pending"]
    assert pending
    for p in pending:  # each waiting roll, by character, in the words of core.waiting
        assert f"(#{p['id']})" in gm
    assert "waiting for hero's roll to stay conscious" in gm
    mine = table.call("GET", "", token=table.tokens["ana"])["pending"]
    for p in mine:
        assert f"(#{p['id']})" in player
    assert "waiting for hero's roll" not in screen  # private checks: its player's and the GM's
    # The player's own timers, in rounds (a GURPS round is a second), never in seconds.
    assert re.search(r"Hero: shock, \d+ rounds? left", player), player
    assert not re.search(r"\b\d+s left", player)


def test_spoken_durations_count_rounds_then_minutes_never_seconds() -> None:
    assert spoken_duration(0, 6) == "now"
    assert spoken_duration(1, 1) == "1 round"
    assert spoken_duration(18, 6) == "3 rounds"
    assert spoken_duration(20, 6) == "4 rounds"  # a part round still has to be played
    assert spoken_duration(45, 1) == "45 rounds"
    assert spoken_duration(60, 6) == "1 min"
    assert spoken_duration(90, 6) == "2 min"
    assert spoken_duration(3600, 6) == "1 h"
    assert spoken_duration(3 * 3600 + 120, 6) == "3 h 2 min"
    assert spoken_duration(86400 + 3600, 6) == "1 day 1 h"
    for seconds in (1, 7, 59, 61, 3599, 3601, 90000):
        assert not re.search(r"\d+ ?s\b|second", spoken_duration(seconds, 6))


def test_cards_carry_the_vitals_each_ruleset_declares(api: InProcess) -> None:
    gurps = _new(api, "gurps")
    hero_card = _card(gurps.page("", "ana"), "hero")
    for label in ("ST", "DX", "IQ", "HT", "Move", "Dodge", "Parry", "Block", "DR"):
        assert f"<dt>{label}</dt>" in hero_card, label
    assert "sword" in hero_card.lower()  # Parry with its weapon
    orc_card = _card(gurps.page(), "orc")  # no weapon, no shield: nothing to show for them
    assert "<dt>Dodge</dt>" in orc_card and "<dt>Parry</dt>" not in orc_card and "<dt>Block</dt>" not in orc_card
    wg = _new(api, "wg")
    ari = _card(wg.page("", "ana"), "ari")
    assert "<dt>Resilience</dt>" in ari and "<dt>Defence</dt><dd>3</dd>" in ari and "<dt>Wrath</dt>" in ari
    bo = _card(wg.page(), "bo")
    assert "<dt>Resilience</dt>" in bo and "Wrath" not in bo and "Glory" not in bo
    gm = _new(api, "gm")
    assert 'data-vital="Verve"' in _card(gm.page(), "toro")
    gob = _card(gm.page(), "gob")
    assert 'data-vital="Survival"' in gob and "Verve" not in gob  # NPCs have no verve


def test_each_condition_shows_once(api: InProcess) -> None:
    table = _new(api, "gurps")
    table.call("PATCH", "/settings", json={"automation": {"*": "auto"}})
    table.act("damage", "hero", amount=8)  # below a third of HP: reeling, a mark and a condition
    for page in (table.page(), table.page("", "ana")):
        card = _card(page, "hero")
        shown = re.findall(r'class="(?:chip|mark)">([^<]+)<', card)
        assert "reeling" in shown
        assert len(shown) == len(set(shown)), shown


def test_no_code_name_or_version_where_a_player_looks(api: InProcess) -> None:
    for system in sorted(SCREEN_CAST):
        table = _new(api, system)
        pc = SCREEN_CAST[system][0][0]
        table.act("damage", pc, **SCREEN_HURT[system])
        specs = get_ruleset(system).actions()
        for who in ("ana", "tv"):
            page = table.page("", who)
            text = _text(page)
            assert "Version" not in text, (system, who)
            for code in ("add_character", "set_settings", "act damage", "feat.sense", "_", "automation", "prompt"):
                assert code not in text, (system, who, code)
            assert "Damage · " + pc in text and "joins the table" in text
            live = table.api.get(
                f"/campaigns/{table.name}/live", headers={"Cookie": f"{cookie_name(table.name)}={table.tokens[who]}"}
            ).json()
            assert "Version" not in live["sections"]["status"]
        assert specs["damage"].title == "Damage"


def test_log_headings_are_titles_and_words() -> None:
    actions = get_ruleset("gurps").actions()
    assert actions["lose_fp"].title == "Lose fp"
    assert entry_heading({"kind": "act", "action": "lose_fp"}, actions) == "Lose fp"
    assert entry_heading({"kind": "act", "action": "gone.away"}, actions) == "gone away"
    assert entry_heading({"kind": "add_character"}, actions) == "joins the table"
    assert entry_heading({"kind": "set_settings"}, actions) == "the table's settings change"
    assert entry_heading({"kind": "something_new"}, actions) == "something new"


def test_members_are_listed_with_what_they_play_and_revoked_from_the_dashboard(api: InProcess) -> None:
    table = _new(api, "gm")
    table.tokens["cai"] = table.call(
        "POST", "/members", json={"name": "cai", "role": "player", "characters": ["toro"]}
    )["token"]
    members = _section(table, "members")
    for name in ("ana", "tv", "cai"):
        assert f'data-member="{name}"' in members
    assert "plays toro" in members  # cai by the invite, ana by the campaign's record
    assert members.count("plays toro") == 2
    assert 'aria-label="revoke cai"' in members
    gm_row = re.search(r'<li class="member" data-member="gm".*?</li>', members, re.S)
    assert gm_row is not None and "Revoke" not in gm_row.group(0)  # not oneself
    token_id = re.search(r'data-endpoint="[^"]*/members/([^"]+)" aria-label="revoke cai"', members)
    assert token_id is not None
    assert table.page("", "cai")
    r = api.request("DELETE", table.url(f"/members/{token_id.group(1)}"), headers=bearer(table.gm))
    assert r.status_code == 200 and r.json()["revoked"] == 1
    assert 'data-member="cai"' not in _section(table, "members")
    assert "invite link" in table.page("", "cai", status=401)


def _section(table: Screen, name: str) -> str:
    r = table.api.get(f"/campaigns/{table.name}/live", headers={"Cookie": f"{cookie_name(table.name)}={table.gm}"})
    assert r.status_code == 200
    sections: Mapping[str, str] = r.json()["sections"]
    return sections[name]


def _card(page: str, actor: str) -> str:
    found = re.search(rf'<article class="card[^"]*" data-actor="{actor}".*?</article>', page, re.S)
    assert found is not None, actor
    return found.group(0)
