"""Members and their tokens on every backend: only hashes stored, constant-time checks, revocation,
expiry, and deletion with the campaign."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.campaign.members import TokenProblem, identify, invite, revoke
from rulekeeper.errors import InputError, UnknownNameError


def test_tokens_identify_their_member_until_revoked(any_url: str, toy: None) -> None:
    with open_store(any_url) as store:
        campaign = Campaign.create(store, "c", "toy", seed=1)
        campaign.add_character("hero", {"max_hp": 10}, player="ana")
        gm = invite(store, campaign.record, "gm", "gm")
        ana = invite(store, campaign.record, "ana", "player", characters=["hero"], known_characters=["hero"])
        assert gm.token != ana.token and len(ana.token.split(".")[2]) >= 43
        who = identify(store, ana.token)
        assert (who.name, who.role, who.characters, who.campaign_id) == ("ana", "player", ("hero",), campaign.record.id)
        assert identify(store, gm.token).is_gm
        with pytest.raises(UnknownNameError):
            invite(store, campaign.record, "bea", "player", characters=["ghost"], known_characters=["hero"])
        with pytest.raises(InputError):
            invite(store, campaign.record, "obi", "observer", characters=["hero"])
        forged = ana.token[:-4] + ("AAAA" if not ana.token.endswith("AAAA") else "BBBB")
        for bad in (forged, "rk1.nope.nope", "hello", ""):
            with pytest.raises(TokenProblem):
                identify(store, bad)
        later = invite(store, campaign.record, "eve", "observer", expires=time.time() + 60)
        assert identify(store, later.token).role == "observer"
        with pytest.raises(TokenProblem, match="expired"):
            identify(store, later.token, now=time.time() + 61)
        assert revoke(store, campaign.record, "ana") == 1
        with pytest.raises(TokenProblem, match="revoked"):
            identify(store, ana.token)
        with pytest.raises(UnknownNameError):
            revoke(store, campaign.record, "ana")
        assert [m.name for m in store.members(campaign.record.id) if m.revoked is None] == ["gm", "eve"]
        store.delete_campaign("c")
        with pytest.raises(TokenProblem):
            identify(store, gm.token)


def test_only_a_hash_of_the_secret_is_stored(db_url: str, toy: None) -> None:
    with open_store(db_url) as store:
        campaign = Campaign.create(store, "c", "toy", seed=1)
        token = invite(store, campaign.record, "ana", "player").token
        secret = token.split(".")[2]
        engine = sa.create_engine(db_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(sa.text("SELECT * FROM members")).all()
        finally:
            engine.dispose()
        assert rows and all(secret not in str(value) for row in rows for value in row)
        assert any(token.split(".")[1] in str(value) for row in rows for value in row)


def test_standing_tokens_reads_many_at_once(any_url: str, toy: None) -> None:
    """The one read behind every live stream of a process: revoked, expired, deleted and unknown
    token ids are left out."""
    with open_store(any_url) as store:
        campaign = Campaign.create(store, "c", "toy", seed=1)
        soon = time.time() + 60
        tokens = {
            name: invite(store, campaign.record, name, "observer", expires=soon if name == "eve" else None)
            for name in ("ana", "bea", "eve", "obi")
        }
        ids = {name: t.token.split(".")[1] for name, t in tokens.items()}
        revoke(store, campaign.record, "bea")
        asked = [*ids.values(), "no-such-token"]
        assert store.standing_tokens(asked, time.time()) == {ids["ana"], ids["eve"], ids["obi"]}
        assert store.standing_tokens(asked, soon + 1) == {ids["ana"], ids["obi"]}
        many = [f"unknown-{i}" for i in range(2500)] + [ids["obi"]]  # past one statement's chunk
        assert store.standing_tokens(many, time.time()) == {ids["obi"]}
        assert store.standing_tokens([], time.time()) == set()
        store.delete_campaign("c")
        assert store.standing_tokens(asked, time.time()) == set()
