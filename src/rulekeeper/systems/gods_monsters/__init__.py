"""Gods & Monsters (Jerry Stratton): survival, verve, injuries, dying and recovery (seed 000),
and actions and consequences (seed 002, in :mod:`.consequences`)."""

from rulekeeper.systems.gods_monsters.character import BonusPool, GmCharacter
from rulekeeper.systems.gods_monsters.ruleset import GodsMonstersRuleset

__all__ = ["BonusPool", "GmCharacter", "GodsMonstersRuleset"]
