"""Who may reach a campaign over the network: the GM, players bound to characters, observers.

A member holds a bearer token ``rk1.<token id>.<secret>``. The token id is public and finds
the member's row; the secret is high-entropy (256 bits from :mod:`secrets`), stored only as its
SHA-256 digest, and compared with :func:`hmac.compare_digest`, so neither a database dump nor
response timing gives a usable token away. A slow password hash would add nothing: the secret
is random, not chosen by a person.

``Campaign.create`` makes no member by itself; :func:`invite` with ``role="gm"`` makes the GM's
secret (``rulekeeper campaign new`` does so), and the same call makes player and observer tokens.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rulekeeper.errors import InputError, UnknownNameError
from rulekeeper.store.base import Store
from rulekeeper.store.records import CampaignRecord, MemberRecord, NewMember

__all__ = [
    "ROLES",
    "Identity",
    "Invitation",
    "Role",
    "TokenProblem",
    "identify",
    "identity_of",
    "invite",
    "revoke",
    "token_parts",
]

Role = Literal["gm", "player", "observer"]
ROLES: tuple[Role, ...] = ("gm", "player", "observer")
_PREFIX = "rk1"
_NAME_LIMIT = 200


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Invitation:
    """A member just made, with the token -- the only time the token exists in clear."""

    member: MemberRecord
    token: str


@dataclass(frozen=True)
class Identity:
    """Whom a request speaks for: a member of one campaign, in one role.

    ``characters`` are the characters the member was bound to when invited; the campaign's
    own record of who plays what (``char add --player``) is added when a request is served.
    """

    campaign_id: int
    name: str
    role: Role
    characters: tuple[str, ...]
    token_id: str

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"


class TokenProblem(Exception):
    """Why a token was not accepted; ``status`` is 401 (not a valid token at all)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _check_member_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise InputError("empty member name", expected="a name such as 'ana'")
    name = name.strip()
    if len(name) > _NAME_LIMIT or any(ord(ch) < 32 for ch in name):
        raise InputError(f"bad member name {name[:40]!r}", expected=f"up to {_NAME_LIMIT} printable characters")
    return name


def invite(
    store: Store,
    campaign: CampaignRecord,
    name: str,
    role: Role,
    *,
    characters: Iterable[str] = (),
    known_characters: Iterable[str] | None = None,
    expires: float | None = None,
) -> Invitation:
    """Make a member of ``campaign`` and its token.

    ``characters`` bind a player to characters; with ``known_characters`` each is checked to
    exist. ``expires`` is a Unix time after which the token is refused.
    """
    name = _check_member_name(name)
    if role not in ROLES:
        raise InputError(f"unknown role {role!r}", expected="gm, player or observer")
    bound = tuple(dict.fromkeys(c.strip() for c in characters if c.strip()))
    if bound and role != "player":
        article = "an" if role[:1] in "aeiou" else "a"
        raise InputError(
            f"{article} {role} is not bound to characters",
            expected='characters only for a player (--character, or "characters" over the API)',
        )
    if known_characters is not None:
        known = set(known_characters)
        for actor in bound:
            if actor not in known:
                listed = ", ".join(sorted(known)) or "none yet"
                raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {listed}")
    token_id = secrets.token_hex(8)
    secret = secrets.token_urlsafe(32)
    member = store.add_member(
        campaign.id,
        NewMember(
            name=name,
            role=role,
            characters=bound,
            token_id=token_id,
            token_hash=_digest(secret),
            created=time.time(),
            expires=expires,
        ),
    )
    return Invitation(member, f"{_PREFIX}.{token_id}.{secret}")


def revoke(store: Store, campaign: CampaignRecord, name: str) -> int:
    """End the tokens of member ``name`` (or the single token with that id); unknown is an error."""
    count = store.revoke_members(campaign.id, name, time.time())
    if count == 0:
        live = sorted({m.name for m in store.members(campaign.id) if m.revoked is None})
        raise UnknownNameError(
            f"no member with a live token named {name!r}", expected="one of: " + (", ".join(live) or "none")
        )
    return count


def identify(store: Store, token: str, *, now: float | None = None) -> Identity:
    """The identity a token stands for; :class:`TokenProblem` if it is malformed, forged,
    expired or revoked (the message says which, never anything about the secret)."""
    token_id, secret = token_parts(token)
    return identity_of(store.member_by_token_id(token_id), secret, now=now)


def token_parts(token: str) -> tuple[str, str]:
    """A token's public id and its secret; :class:`TokenProblem` if it is malformed."""
    parts = token.split(".") if isinstance(token, str) else []
    if len(parts) != 3 or parts[0] != _PREFIX or not parts[1] or not parts[2] or len(token) > 200:
        raise TokenProblem("malformed token")
    return parts[1], parts[2]


def identity_of(member: MemberRecord | None, secret: str, *, now: float | None = None) -> Identity:
    """The identity of the member found by a token's id (:func:`token_parts`), if ``secret`` is
    its own and it stands; else :class:`TokenProblem` (the second half of :func:`identify`,
    for a caller that looks the member up itself)."""
    # Compare against a digest even when the id is unknown, so both paths cost the same.
    expected = member.token_hash if member is not None else _digest("")
    matches = hmac.compare_digest(_digest(secret), expected)
    if member is None or not matches:
        raise TokenProblem("unknown token")
    if member.revoked is not None:
        raise TokenProblem("this token was revoked")
    moment = time.time() if now is None else now
    if member.expires is not None and member.expires <= moment:
        raise TokenProblem("this token has expired")
    role = member.role
    if role not in ROLES:
        raise TokenProblem("unknown role")
    return Identity(
        campaign_id=member.campaign_id,
        name=member.name,
        role=role,
        characters=member.characters,
        token_id=member.token_id,
    )
