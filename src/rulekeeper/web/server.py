"""What one server process holds: the store, the warm campaigns and the live-event broker."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from rulekeeper.campaign import Store
from rulekeeper.web.broker import EventBroker
from rulekeeper.web.pool import CampaignPool

__all__ = ["Server", "server_of"]


@dataclass
class Server:
    store: Store
    pool: CampaignPool
    broker: EventBroker
    #: Where join links point (``rulekeeper serve`` sets it from its host and port).
    base_url: str = "http://127.0.0.1:8000"


def server_of(request: Request) -> Server:
    """The process's :class:`Server`, a FastAPI dependency."""
    server: Server = request.app.state.rulekeeper
    return server
