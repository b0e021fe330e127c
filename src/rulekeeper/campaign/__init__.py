"""Campaigns that never lose a thing: event-sourced history, undo with consequences, safe writes.

    store = open_store()                      # SQLite in the user's data directory
    c = Campaign.create(store, "saturday", system, seed=7)
    c.add_character("kira", {...}, player="ana")
    c.act(Action("damage", "kira", {"amount": 5}))
    c.undo()                                  # the wound and all it caused are gone
    c.log(actor="kira")

See docs/campaigns.md for the semantics (undo dependencies, concurrency, durability, formats).
"""

from __future__ import annotations

from rulekeeper.campaign.document import FORMAT, FORMAT_VERSION
from rulekeeper.campaign.facade import SNAPSHOT_EVERY, Campaign
from rulekeeper.campaign.results import CampaignConflict, CommandResult, LogEntry, Roles
from rulekeeper.campaign.sheet_sources import SheetSource
from rulekeeper.store import CampaignInfo, Store, open_store

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "SNAPSHOT_EVERY",
    "Campaign",
    "CampaignConflict",
    "CampaignInfo",
    "CommandResult",
    "LogEntry",
    "Roles",
    "SheetSource",
    "Store",
    "open_store",
]
