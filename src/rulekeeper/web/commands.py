"""The one path every command request takes: concurrency headers in, projected result out.

``If-Match`` carries the campaign version the client based its command on (the ``ETag`` of
any earlier response); a stale one is refused with 412 and the list of what changed since
(the facade's ``CampaignConflict``). ``Idempotency-Key`` makes a retried request apply once:
the retry gets the first answer, with ``retried: true``. A player's key is kept in a space of
their own (``Viewer.key``), the GM's as sent.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Header, Response

from rulekeeper.campaign import Campaign, CommandResult
from rulekeeper.campaign.facade import Planned
from rulekeeper.campaign.seat import Seat
from rulekeeper.errors import InputError, RuleRefusal, RulesError
from rulekeeper.store.base import AwaitedStore, AwaitedUnavailable
from rulekeeper.web.auth import Access
from rulekeeper.web.problems import Problem
from rulekeeper.web.projections import Viewer, command_json, redact_error
from rulekeeper.web.server import Server

__all__ = [
    "IdempotencyKey",
    "IfMatch",
    "Presume",
    "execute",
    "execute_awaited",
    "expected_for",
    "expected_version",
    "seat_of",
    "viewer_in",
]

IfMatch = Annotated[
    str | None,
    Header(
        alias="If-Match",
        description='The campaign version this command is based on (an ETag such as "12"); 412 if it moved on.',
        max_length=40,
        pattern=r'^\s*((W/)?"?[0-9]{1,12}"?|\*)\s*$',
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="Any text up to 200 characters; a retry with the same key applies the command once.",
        min_length=1,
        max_length=200,
    ),
]


def expected_version(if_match: str | None) -> int | None:
    """``"12"``, ``W/"12"`` or ``12``; ``*`` means any version."""
    if if_match is None or not if_match.strip() or if_match.strip() == "*":
        return None
    text = if_match.strip().removeprefix("W/").strip().strip('"')
    if not text.isdigit() or len(text) > 12:
        raise InputError(f"If-Match {if_match[:40]!r} is not a campaign version", expected='a version such as "12"')
    return int(text)


def viewer_in(campaign: Campaign, access: Access, *, read: bool = True) -> Viewer:
    """Who is asking, counting seqs, versions and check ids as they may (see ``Viewer``);
    ``read=False``: ``NotPresumed`` rather than read the store to count them."""
    viewer = Viewer.of(access.identity, campaign.roles)
    return viewer if viewer.is_gm else viewer.seeing(campaign.player_timeline(read=read))


def expected_for(campaign: Campaign, viewer: Viewer, expected: int | None) -> int | None:
    """The table's version of the ``If-Match`` version ``viewer`` sent: a player who has seen
    every command they may see is up to date, whatever the GM did in secret since."""
    if expected is None or viewer.is_gm:
        return expected
    if expected == viewer.seq(campaign.version):
        return campaign.version
    return viewer.actual(expected)


def seat_of(viewer: Viewer) -> Seat:
    """The campaign layer's view of who sends a command (``campaign.seat`` judges it)."""
    return Seat(viewer.name, viewer.characters, is_gm=viewer.is_gm, role=viewer.role)


def execute(
    server: Server,
    access: Access,
    response: Response,
    command: Callable[[Campaign, int | None, str | None], CommandResult],
    *,
    if_match: str | None,
    key: str | None,
    allowed: Callable[[Campaign, Viewer], str | None] | None = None,
) -> dict[str, Any]:
    """Run ``command(campaign, expected_version, key)`` for ``access`` and answer with its
    projection; ``allowed`` returns why this viewer may not (403), or ``None``."""
    expected = expected_version(if_match)
    # The writer's lock before the campaign's, always in this order (see Server.writing).
    with server.writing(), server.pool.use(access.record, fresh=not access.identity.is_gm) as campaign:
        viewer = viewer_in(campaign, access)
        expected = expected_for(campaign, viewer, expected)
        if allowed is not None:
            refusal = allowed(campaign, viewer)
            if refusal is not None:
                raise Problem(403, "forbidden", refusal)
        try:
            result = command(campaign, expected, viewer.key(key))
        except RulesError as exc:  # a stale version (CampaignConflict) included
            shown = redact_error(campaign, viewer, exc)
            if shown is exc:
                raise
            raise shown from None
        viewer = viewer_in(campaign, access)
        body = command_json(campaign, result, viewer)
    server.broker.poke()
    response.headers["ETag"] = f'"{viewer.seq(result.version)}"'
    return body


#: ``(campaign, seat, expected_version, key)`` to the command worked out on the held campaign
#: and not yet written (``Campaign.presume_act``), or None: run it with :func:`execute`. The seat
#: is the requester's as :func:`execute_awaited` found it (:func:`seat_of`).
Presume = Callable[[Campaign, Seat, "int | None", "str | None"], "Planned | None"]


async def execute_awaited(
    server: Server, awaited: AwaitedStore, access: Access, presume: Presume, *, if_match: str | None, key: str | None
) -> tuple[dict[str, Any], str] | None:
    """:func:`execute` for an ordinary command on a store the event loop awaits: worked out on
    the campaign as this process holds it, and written with one awaited statement, which also
    checks that the member still stands (``access`` may be as this process last read it:
    ``auth.awaited_access``). Returns the projection and the ``ETag``; None, with nothing
    written, whenever anything is out of the ordinary (the campaign busy or not open, the
    command needing the stored history, the store moved on, the member gone): :func:`execute`
    then does it as always, with the member read afresh."""
    expected = expected_version(if_match)
    async with server.pool.held_soon(access.record) as campaign:
        if campaign is None:
            return None
        try:
            # On a campaign this process holds (a player's command may find it behind the
            # store: then the write below is refused, and execute() catches up first).
            viewer = viewer_in(campaign, access, read=False)
            planned = presume(campaign, seat_of(viewer), expected_for(campaign, viewer, expected), viewer.key(key))
        except Exception:
            return None  # execute() says what is wrong, on the stored history
        if planned is None:
            return None
        if (planned.snapshot is not None and not awaited.keeps_snapshots) or (
            planned.drop_snapshots_from is not None and not awaited.drops_snapshots
        ):
            # One command in a hundred keeps a snapshot, and one that finds a damaged snapshot
            # forgets it. Where the awaited statement cannot (PostgreSQL's forgets none), it is
            # worked out again by execute(), in a worker thread -- never awaited from here:
            # while the loop holds the campaign, nothing it awaits may need a thread, since
            # threads queued on this campaign could hold every one there is.
            return None
        try:
            # Waits at most for other requests' statements (never for a thread, nor for a
            # connection being opened: ``AwaitedStore.connected``); on PostgreSQL, written in
            # one transaction with the other requests' writes that come meanwhile.
            written = await awaited.append_if_head(
                access.record.id,
                planned.event,
                standing=access.identity.token_id,
                now=time.time(),
                snapshot=planned.snapshot,
                drop_snapshots_from=planned.drop_snapshots_from,
            )
        except AwaitedUnavailable:
            return None  # nothing written: execute() writes it on the blocking store
        result = campaign.settle_presumed(planned, written)
        if result is None:
            return None
        # No store read: the player's numbering was current before the write (read=False
        # above), and the one event since is this object's own. An action changes nobody's
        # seat, so only the numbering is new; the GM's is the table's own.
        if not viewer.is_gm:
            viewer = viewer.seeing(campaign.player_timeline())
        body = command_json(campaign, result, viewer)
    server.broker.poke()
    return body, f'"{viewer.seq(result.version)}"'


def gm_only(_campaign: Campaign, viewer: Viewer) -> str | None:
    return None if viewer.is_gm else f"only the GM may do this; you are {viewer.role} {viewer.name}"


def refuse(message: str) -> RuleRefusal:
    return RuleRefusal(message)
