"""VI·VIII·X (the "KUP RPG"), seed 001: chapter VIII of the core rules.

Damage to known and unknown stats, the fatality countdown, recovery and healing, the non-combat
cases and the states of the character -- with the GM's secrets (unknown stats) kept out of every
player projection (:mod:`.visibility`).
"""

from __future__ import annotations

from rulekeeper.systems.vi_viii_x.character import Character
from rulekeeper.systems.vi_viii_x.ruleset import ViViiiXRuleset
from rulekeeper.systems.vi_viii_x.visibility import PlayerCharacterView

__all__ = ["Character", "PlayerCharacterView", "ViViiiXRuleset"]
