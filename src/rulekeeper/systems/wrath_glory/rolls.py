"""The play type of Wrath & Glory rules.

Every roll of the system is a check kind (the injury tables' d6 and damage dice are ``DiceRoll``
checks, see :mod:`.injuries`); nothing takes dice from the source directly.
"""

from __future__ import annotations

from rulekeeper.core.play import Play
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter

__all__ = ["WGPlay"]

WGPlay = Play[WrathGloryCharacter]
