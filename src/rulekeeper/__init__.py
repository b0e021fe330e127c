"""rulekeeper: a rules engine and game-master companion for GURPS, Gods & Monsters,
Wrath & Glory and VI·VIII·X."""

__version__ = "0.1.0"
