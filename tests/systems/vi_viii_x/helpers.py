"""Drivers for VI·VIII·X tests: a table of characters and steps with fixed dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

from rulekeeper.core import Outcome, get_ruleset
from rulekeeper.systems.vi_viii_x import Character, ViViiiXRuleset
from support.table import DiceTable, Sheets, TableSettings

RULESET: ViViiiXRuleset = get_ruleset("vi-viii-x")  # type: ignore[assignment]

RANGER: dict[str, Any] = {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}}

# A fuller sheet: a US under every KS and the skills the rules ask for.
ADEPT: dict[str, Any] = {
    "name": "Adept",
    "BU": 6,
    "CO": 4,
    "IN": 5,
    "EM": 5,
    "us": {
        "VIG": 3,
        "REF": {"ks": "CO", "value": 3},
        "MEM": {"ks": "IN", "value": 4},
        "EMP": {"ks": "EM", "value": 2},
    },
    "es": {
        "stamina": {"us": "VIG", "level": 3},
        "body-control": {"us": "REF", "level": 2},
        "education-medicine": {"us": "MEM", "level": 4},
        "education-alchemy": {"us": "MEM", "level": 2},
        "education-literature": {"us": "MEM", "level": 5, "language": "common"},
    },
    "agility": 7,
    "age": 30,
    "mov": 10,
}


class Table(DiceTable[Character]):
    """A VI·VIII·X game in progress; every step asserts that all the dice it was given were used."""

    def __init__(self, characters: Sheets, **settings: Unpack[TableSettings]) -> None:
        super().__init__(RULESET, characters, **settings)

    def turns(self, count: int, dice: Sequence[int] = ()) -> Outcome[Character]:
        return self.round(count, dice)


def face(modifier: int) -> int:
    """The die face giving ``modifier`` on the default placeholder d14 (face f gives f - 4)."""
    return modifier + 4
