"""A character's turn for its player's phone (issue 27): the legal actions, the sheet's
weapons, the one-tap rolls and, when an attack waits, the defences with their odds. Built by
``web/pages/turn.py`` from the ruleset's answer and the action specs; only the character's
player and the GM may ask."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from rulekeeper.web.auth import Access, member
from rulekeeper.web.commands import viewer_in
from rulekeeper.web.pages.turn import turn_json, turn_of
from rulekeeper.web.problems import PROBLEM_RESPONSES
from rulekeeper.web.server import Server, server_of

__all__ = ["router"]

router = APIRouter(responses=PROBLEM_RESPONSES, tags=["characters"])
ServerDep = Annotated[Server, Depends(server_of)]
MemberDep = Annotated[Access, Depends(member)]
Actor = Annotated[str, Path(min_length=1, max_length=200, description="Character id.")]


@router.get("/api/campaigns/{campaign}/characters/{actor}/turn")
def character_turn(actor: Actor, access: MemberDep, server: ServerDep) -> dict[str, Any]:
    """What ``actor`` may do on their turn: actions with their fields (choices from the sheet),
    taps ready to post (rolls, defences, spends) with exact odds, and what waits for them."""
    with server.pool.use(access.record) as campaign:
        return turn_json(turn_of(campaign, viewer_in(campaign, access), actor))
