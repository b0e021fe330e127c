"""A small test harness: a GURPS game state driven through the engine with scripted dice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core import get_ruleset
from rulekeeper.systems.gurps import GurpsCharacter
from support import table

RULES = get_ruleset("gurps")


class Table(table.Table[GurpsCharacter]):
    """Characters are keyword arguments: ``Table(automation={"gurps": "prompt"}, hero={"ht": 12})``."""

    def __init__(
        self,
        automation: Mapping[str, str] | None = None,
        options: Mapping[str, Any] | None = None,
        **sheets: dict[str, Any],
    ) -> None:
        super().__init__(RULES, sheets, automation=automation, options=options)
