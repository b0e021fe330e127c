"""Single table rolls (d6 on an injury table), explained with the die beside the rule.

These are table look-ups, not checks, so they come straight from the injected dice source.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule
from rulekeeper.core.play import Play
from rulekeeper.systems.wrath_glory.character import WrathGloryCharacter

__all__ = ["WGPlay", "roll_d6"]

WGPlay = Play[WrathGloryCharacter]


def roll_d6(play: WGPlay, reason: str, rule: Rule, *, actor: str | None = None) -> int:
    value = play.dice.roll(6)
    play.explain(f"{reason}: {value}", rule, actor=actor, roll=f"1d6 ({value}) = {value}", dice=(value,))
    return value
