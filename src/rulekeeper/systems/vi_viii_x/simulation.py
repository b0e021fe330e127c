"""A VI·VIII·X fighter's turn in a simulated fight: an ARC against a threshold, then damage.

The ARC carries what every ARC of the character carries at the table (fatigue, state of mind,
states; ``checks.state_modifiers``) and the campaign's roll-modifier table (``checks.roll_table``).
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.arc import ArcThreshold
from rulekeeper.core.check import Check
from rulekeeper.core.combat import Combat, HitCheck
from rulekeeper.core.play import Play
from rulekeeper.systems.vi_viii_x.checks import roll_table, state_modifiers

__all__ = ["ViViiiXCombat"]


class ViViiiXCombat(Combat):
    health_name = "BU"

    def hit_check(self, play: Play[Any], actor: str, hit: HitCheck) -> Check:
        return ArcThreshold(
            kind="vi-viii-x.attack",
            label=f"{actor} attacks",
            stats=hit.stats or 0,
            threshold=hit.threshold or 0,
            modifiers=state_modifiers(play, actor),
            table=roll_table(play),
        )
