"""A Wrath & Glory fighter's turn in a simulated fight: a pool test to hit, then damage dice.

The test is built by :func:`~rulekeeper.systems.wrath_glory.pool_tests.build_test`, as the
table's ``test`` action builds it, so Wounded, Traumatic Injuries and Dying apply.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.check import Check
from rulekeeper.core.combat import Combat, FightTable, HitCheck, Tactic
from rulekeeper.core.play import Play
from rulekeeper.systems.wrath_glory import options
from rulekeeper.systems.wrath_glory.pool_tests import PoolRequest, build_test

__all__ = ["WrathGloryCombat"]


class WrathGloryCombat(Combat):
    health_name = "Wounds left"

    def hit_check(self, play: Play[Any], actor: str, hit: HitCheck) -> Check:
        request = PoolRequest(pool=hit.pool or 1, dn=hit.dn or 3, label=f"{actor} attacks")
        return build_test(
            play.char(actor),
            request,
            torso_dn=options.torso_dn(play),
            eye_dn=options.eye_dn(play),
            blinded_dn=options.blinded_dn(play),
            count_replaced=options.count_replaced_injuries(play),
        )

    def damage_params(self, table: FightTable, tactic: Tactic) -> dict[str, Any]:
        params: dict[str, Any] = dict(tactic.params)
        params.setdefault("dice", tactic.damage)
        return params
