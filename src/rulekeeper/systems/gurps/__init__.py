"""GURPS 4th edition (Lite / Basic Set), seed 004.

Public names: :class:`GurpsRuleset` (the system), :class:`GurpsCharacter` (the sheet),
:func:`new_character` (a sheet mapping -> character) and :func:`import_gcs` (a GURPS
Character Sheet ``.gcs`` file's JSON -> sheet mapping and the fields it could not use).
"""

from __future__ import annotations

from rulekeeper.systems.gurps.character import GurpsCharacter, Weapon
from rulekeeper.systems.gurps.gcs import import_gcs
from rulekeeper.systems.gurps.ruleset import GurpsRuleset
from rulekeeper.systems.gurps.sheet import new_character

__all__ = ["GurpsCharacter", "GurpsRuleset", "Weapon", "import_gcs", "new_character"]
