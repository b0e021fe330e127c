"""Which database and which campaign a command works on.

``--db`` or ``RULEKEEPER_DB`` picks the database (default: one SQLite file in the user's data
directory). ``--campaign``/``-c`` or ``RULEKEEPER_CAMPAIGN`` picks the campaign; otherwise the
one chosen with ``campaign use``, remembered per database in a small JSON file in the user's
config directory together with its system, so ``--help`` can list that system's actions
without opening the database.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.errors import InputError, UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, Store

__all__ = ["Context", "campaign_system", "current_selection", "forget_selection", "remember_selection"]


@dataclass
class Context:
    """Global options, filled in by the Typer callback before any command runs."""

    db: str | None = None
    campaign: str | None = None
    #: Full citations (source, section, page, reading) instead of short tags.
    explain: bool = False
    #: Keep the open campaign between commands (the interactive shell): each command then only
    #: catches up with what other processes wrote instead of loading the campaign again.
    keep_open: bool = False
    _store: Store | None = None
    _open: Campaign | None = None

    def db_key(self) -> str:
        return self.db or os.environ.get("RULEKEEPER_DB") or "<default>"

    def store(self) -> Store:
        if self._store is None:
            from rulekeeper.campaign import open_store

            self._store = open_store(self.db)
        return self._store

    def campaign_name(self) -> str:
        name = self.campaign or os.environ.get("RULEKEEPER_CAMPAIGN")
        if name:
            return name
        selected = current_selection(self.db_key())
        if selected is None:
            raise InputError(
                "no campaign selected",
                expected="'rulekeeper campaign use NAME', --campaign NAME, or 'rulekeeper demo' to make one",
            )
        return selected[0]

    def open(self) -> Campaign:
        from rulekeeper.campaign import Campaign

        name = self.campaign_name()
        if self._open is not None and self._open.name == name:
            from rulekeeper.errors import StoreError

            try:
                self._open.refresh()
                return self._open
            except StoreError:
                self._open = None  # deleted or replaced meanwhile: load it afresh below
        try:
            campaign = Campaign.open(self.store(), name)
        except UnknownNameError:
            selected = current_selection(self.db_key())
            if selected is not None and selected[0] == name:
                forget_selection(self.db_key())
            raise
        for warning in campaign.warnings:
            import sys

            print(f"rulekeeper: warning: {warning}", file=sys.stderr)
        if self.keep_open:
            self._open = campaign
        return campaign

    def open_campaign(self, *, refresh: bool = False) -> Campaign | None:
        """The campaign kept open, opening it if need be; None when there is none to open."""
        from rulekeeper.errors import RulesError

        if self._open is not None and not refresh:
            return self._open
        try:
            return self.open()
        except RulesError:
            return None

    def forget_open(self) -> None:
        self._open = None

    def close(self) -> None:
        self._open = None
        if self._store is not None:
            self._store.close()
            self._store = None


def _config_file() -> str:
    # Plain os.path, not pathlib: every command reads this file, and pathlib's imports cost more.
    override = os.environ.get("RULEKEEPER_CONFIG")
    if override:
        return override
    from platformdirs import user_config_dir

    return os.path.join(user_config_dir("rulekeeper"), "selection.json")


def _read() -> dict[str, Any]:
    path = _config_file()
    try:
        with open(path, encoding="utf-8") as file:
            data = json.loads(file.read())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def current_selection(db_key: str) -> tuple[str, str] | None:
    """The remembered (campaign name, system) for a database, if any."""
    entry = _read().get(db_key)
    if isinstance(entry, dict) and isinstance(entry.get("campaign"), str) and isinstance(entry.get("system"), str):
        return entry["campaign"], entry["system"]
    return None


def campaign_system(db: str | None, campaign: str | None) -> tuple[str, str] | None:
    """The campaign a command works on and its system, learnt without loading the campaign.

    A campaign named by ``--campaign`` or ``RULEKEEPER_CAMPAIGN`` takes one row of the database's
    campaign list (UnknownNameError if it has none by that name); otherwise it is the remembered
    selection, or None when there is none.
    """
    probe = Context(db=db, campaign=campaign)
    if campaign is None:
        return current_selection(probe.db_key())
    try:
        systems = {info.name: info.system for info in probe.store().list_campaigns()}
    finally:
        probe.close()
    if campaign not in systems:
        raise UnknownNameError(
            f"no campaign named {campaign!r}", expected="one of: " + (", ".join(sorted(systems)) or "none yet")
        )
    return campaign, systems[campaign]


def _write(data: dict[str, Any]) -> None:
    """Replace the file atomically; a temporary file of its own keeps two processes from mixing."""
    import tempfile

    path = _config_file()
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=directory, suffix=".tmp", delete=False, encoding="utf-8") as tmp:
        tmp.write(json.dumps(data, indent=2))
    os.replace(tmp.name, path)


def remember_selection(db_key: str, campaign: str, system: str) -> None:
    data = _read()
    data[db_key] = {"campaign": campaign, "system": system}
    _write(data)


def forget_selection(db_key: str) -> None:
    data = _read()
    if data.pop(db_key, None) is not None:
        _write(data)
