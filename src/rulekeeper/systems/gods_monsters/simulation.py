"""A Gods & Monsters fighter's turn in a simulated fight: a d20 attack roll, then damage in combat.

The attack roll is built by :func:`~rulekeeper.systems.gods_monsters.checks.gm_roll`, as every
roll at the table is, so the injury penalty and the table's natural-extremes option apply.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.check import Check
from rulekeeper.core.combat import Combat, FightTable, HitCheck, Tactic
from rulekeeper.core.play import Play
from rulekeeper.systems.gods_monsters.checks import gm_roll

__all__ = ["GodsMonstersCombat"]


class GodsMonstersCombat(Combat):
    health_name = "Survival"

    def hit_check(self, play: Play[Any], actor: str, hit: HitCheck) -> Check:
        score = hit.score or 10
        return gm_roll(play, play.char(actor), kind="gm.attack", label=f"{actor} attacks", score=score)

    def damage_params(self, table: FightTable, tactic: Tactic) -> dict[str, Any]:
        params = super().damage_params(table, tactic)
        params.setdefault("in_combat", True)
        return params
