"""``campaign invite``, ``campaign revoke``, ``campaign members``: who may reach a campaign
through ``rulekeeper serve``, and ``serve`` itself. Tokens are printed once and stored only as
hashes (:mod:`rulekeeper.campaign.members`)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import console, emit_json
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign
    from rulekeeper.campaign.members import Invitation, Role
    from rulekeeper.cli.context import Context

__all__ = [
    "campaign_invite",
    "campaign_members",
    "campaign_revoke",
    "gm_secret",
    "link_base",
    "print_link",
]


def link_base(context: Context, base_url: str | None) -> tuple[str, str]:
    """Where join links point and where that came from (:func:`rulekeeper.links.link_base`):
    the ``--url`` given, ``RULEKEEPER_BASE_URL``, a ``rulekeeper serve`` running on this
    database, or serve's default. Asked before anything is made, so a bad address changes nothing."""
    from rulekeeper import links
    from rulekeeper.store import resolve_url

    return links.link_base(base_url, resolve_url(context.db))


def print_link(link: str, source: str) -> None:
    """The link on a line of its own (to copy whole), and a word on its address when no server
    told us where it is."""
    out = console()
    out.print(link, highlight=False, soft_wrap=True)
    if source == "default":
        out.print(
            "(No 'rulekeeper serve' is running on this database, so the link assumes serve's default"
            " address; give --url http://HOST:PORT, or start serve first.)",
            highlight=False,
        )


def gm_secret(campaign: Campaign) -> Invitation:
    """The GM's token for a new campaign (``campaign new``)."""
    from rulekeeper.campaign.members import invite

    return invite(campaign.store, campaign.record, campaign.gm, "gm")


def _campaign(context: Context, name: str | None) -> Campaign:
    from rulekeeper.campaign import Campaign

    if name is None:
        return context.open()
    return Campaign.open(context.store(), name)


def campaign_invite(
    context: Context,
    name: str | None,
    *,
    player: str | None,
    observer: str | None,
    gm: str | None,
    characters: Sequence[str],
    expires: str | None,
    base_url: str | None,
    as_json: bool,
) -> None:
    from rulekeeper.campaign.members import invite
    from rulekeeper.links import join_link

    chosen = [(r, n) for r, n in (("player", player), ("observer", observer), ("gm", gm)) if n is not None]
    if len(chosen) != 1:
        raise InputError("say whom to invite", expected="one of --player NAME, --observer NAME or --gm NAME")
    role_name, who = chosen[0]
    role: Role = "player" if role_name == "player" else "observer" if role_name == "observer" else "gm"
    until = None
    if expires is not None:
        from rulekeeper.core import parse_duration

        lasts = parse_duration(expires)
        if lasts < 1:  # a token that has ended before it is handed over (the API asks 1 s or more)
            raise InputError(f"--expires {expires!r} ends the token at once", expected="a time such as 8h or 30d")
        until = time.time() + lasts
    base, source = link_base(context, base_url)
    campaign = _campaign(context, name)
    made = invite(
        campaign.store,
        campaign.record,
        str(who),
        role,
        characters=characters,
        known_characters=campaign.state.characters,
        expires=until,
    )
    link = join_link(base, campaign.name, made.token)
    if as_json:
        emit_json({"campaign": campaign.name, "member": _member_json(made.member), "token": made.token, "link": link})
        return
    bound = f" playing {', '.join(made.member.characters)}" if made.member.characters else ""
    console().print(
        f"Invited {made.member.name} as {role}{bound} to {campaign.name!r}. Send them this link (shown once):"
    )
    print_link(link, source)


def campaign_revoke(context: Context, name: str | None, who: str, *, as_json: bool) -> None:
    from rulekeeper.campaign.members import revoke

    if not who.strip():
        raise InputError("say whose tokens to end", expected="--member NAME or --member TOKEN_ID")
    campaign = _campaign(context, name)
    count = revoke(campaign.store, campaign.record, who)
    if as_json:
        emit_json({"campaign": campaign.name, "revoked": count, "member": who})
        return
    console().print(f"Revoked {count} token{'s' if count != 1 else ''} of {who} in {campaign.name!r}.")


def _member_json(m: Any) -> dict[str, Any]:
    return {
        "name": m.name,
        "role": m.role,
        "characters": list(m.characters),
        "token_id": m.token_id,
        "expires": m.expires,
        "revoked": m.revoked,
    }


def campaign_members(context: Context, name: str | None, *, as_json: bool) -> None:
    campaign = _campaign(context, name)
    members = [m for m in campaign.store.members(campaign.record.id) if m.revoked is None]
    roles = campaign.roles
    if as_json:
        emit_json(
            {
                "campaign": campaign.name,
                "members": [_member_json(m) for m in members],
                "players": dict(roles.players),
            }
        )
        return
    out = console()
    if not members:
        out.print(f"No one holds a token for {campaign.name!r}; 'campaign invite --player NAME' makes one.")
        return
    for m in members:
        chars = set(m.characters) | set(roles.characters_of(m.name)) if m.role == "player" else set()
        plays = f" plays {', '.join(sorted(chars))}" if chars else ""
        ends = f", expires {time.strftime('%Y-%m-%d %H:%M', time.gmtime(m.expires))} UTC" if m.expires else ""
        out.print(f"{m.name:<16} {m.role:<9}{plays}  (token {m.token_id}{ends})", highlight=False)
