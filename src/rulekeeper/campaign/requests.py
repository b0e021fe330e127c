"""Requests: a player's action on a character they do not play, waiting for the GM.

A request is recorded with the campaign like any command (so it survives a restart and undo
takes it back); nothing of the action applies until the GM approves it, possibly amended, and it
then applies as the GM's own action with the dice of that moment. A declined request stays in
the list with its answer, so the player sees what became of it.

Each request is a JSON mapping on the table (``Table.requests``)::

    {"id": 1, "by": "ana", "action": {...}, "others": ["goblin"], "status": "waiting"}

``status`` becomes ``approved`` (with ``params``, as applied) or ``declined`` (with ``note``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.campaign.table import Table
from rulekeeper.errors import RuleRefusal, UnknownNameError

__all__ = ["REQUEST_STATUSES", "add_request", "answer_request", "waiting_request"]

REQUEST_STATUSES = ("waiting", "approved", "declined")


def add_request(table: Table, by: str, action: Mapping[str, Any], others: list[str]) -> tuple[Table, dict[str, Any]]:
    """``table`` with a new waiting request; its id follows the highest ever given on this table."""
    number = max((int(r["id"]) for r in table.requests), default=0) + 1
    request = {"id": number, "by": by, "action": dict(action), "others": list(others), "status": "waiting"}
    return replace(table, requests=(*table.requests, request)), request


def waiting_request(table: Table, number: int) -> Mapping[str, Any]:
    """Request ``number``, which must still be waiting for the GM."""
    for request in table.requests:
        if request["id"] == number:
            if request["status"] != "waiting":
                raise RuleRefusal(f"request #{number} is already {request['status']}")
            return request
    waiting = ", ".join(f"#{r['id']}" for r in table.requests if r["status"] == "waiting") or "none"
    raise UnknownNameError(f"no request #{number}", expected=f"a waiting request: {waiting}")


def answer_request(table: Table, number: int, status: str, **answer: Any) -> Table:
    """``table`` with request ``number`` answered (``approved`` or ``declined``)."""
    requests = tuple(
        {**r, "status": status, **{k: v for k, v in answer.items() if v is not None}} if r["id"] == number else r
        for r in table.requests
    )
    return replace(table, requests=requests)
