"""Small drivers for tests: one table, characters, and steps with fixed dice."""

from __future__ import annotations

from typing import Any, Unpack

from rulekeeper.core import get_ruleset
from rulekeeper.systems.gods_monsters import GmCharacter, GodsMonstersRuleset
from support.table import DiceTable, Sheets, TableSettings

RULESET: GodsMonstersRuleset = get_ruleset("gods-and-monsters")  # type: ignore[assignment]

TOROMEEN: dict[str, Any] = {
    "name": "Toromeen",
    "archetype": "warrior",
    "level": 2,
    "survival": 7,
    "verve": 17,
    "fortitude": 11,
    "endurance": 15,
}


class Table(DiceTable[GmCharacter]):
    """A Gods & Monsters game in progress; every step asserts all the dice it was given were used."""

    def __init__(self, characters: Sheets, **settings: Unpack[TableSettings]) -> None:
        super().__init__(RULESET, characters, **settings)
