"""A GURPS fighter's turn in a simulated fight: maneuvers, All-Out Attack and active defenses.

The tactic only chooses (the maneuver, the defense); the turn is played through the table's own
actions (``start_combat``, ``maneuver``, ``attack``), so every roll and rule is the table's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulekeeper.core.combat import Combat, FightTable, Tactic
from rulekeeper.core.state import GameState
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gurps.status import STUNS

__all__ = ["GurpsCombat"]


def _defense(state: GameState[Any], defender: str, tactic: Tactic) -> str:
    """The defense the defender's tactic picks: ``best`` is the highest of dodge, parry and block."""
    if tactic.defense != "best":
        return tactic.defense
    c = state.characters[defender]
    options = [(c.dodge, "dodge")]
    parries = c.weapon_parries
    if parries:
        options.append((max(parries.values()), "parry"))
    if c.block is not None:
        options.append((c.block, "block"))
    return str(max(options)[1])


def _all_out_now(table: FightTable, state: GameState[Any], actor: str, target: str) -> bool:
    tactic = table.tactics[actor]
    aoa = tactic.all_out_attack
    if aoa is None:
        return tactic.maneuver == "all-out-attack"
    if aoa.when == "always":
        return True
    if aoa.when == "outnumbering":
        up = [side for f, side in table.sides.items() if not table.is_out(state, f)]
        mine = up.count(table.sides[actor])
        return mine > len(up) - mine
    if aoa.when == "foe-stunned":
        return any(state.has_condition(target, name) for name in STUNS)
    if aoa.when == "foe-hp":
        return bool(state.characters[target].current_hp <= (aoa.foe_hp_at_most or 0))
    return bool(state.characters[actor].current_hp <= (aoa.own_hp_at_most or 0))


class GurpsCombat(Combat):
    tactic_keys = frozenset({"target", "weapon", "maneuver", "option", "all_out_attack", "defense", "damage"})
    health_name = "HP"
    needs_damage = False

    def start(
        self, table: FightTable, state: GameState[Any], fighters: Sequence[str]
    ) -> tuple[GameState[Any], Sequence[str]]:
        from rulekeeper.core.action import Action
        from rulekeeper.core.engine import apply_action

        action = Action("start_combat", None, {"characters": ",".join(fighters)})
        outcome = apply_action(table.ruleset, state, action, table.dice, explain=table.explain)
        return outcome.state, [str(a) for a in outcome.result["order"]]

    def turn(self, table: FightTable, state: GameState[Any], actor: str, foes: Sequence[str]) -> GameState[Any]:
        tactic = table.tactics[actor]
        must_wait = any(state.has_condition(actor, name) for name in (*STUNS, "surprised"))
        if must_wait or tactic.maneuver == "do-nothing":
            return table.act(state, "maneuver", actor, choice="do-nothing")
        target = table.pick(state, tactic, foes)
        try:
            if _all_out_now(table, state, actor, target):
                state = table.act(
                    state,
                    "maneuver",
                    actor,
                    choice="all-out-attack",
                    option=tactic.option,
                    weapon=tactic.weapon,
                    target=target,
                )
                attacks = int(state.characters[actor].turn.attacks_allowed)
            else:
                attacks = 1
            for _ in range(attacks):
                if table.is_out(state, target):
                    alive = [g for g in foes if not table.is_out(state, g)]
                    if not alive:
                        break
                    target = table.pick(state, tactic, alive)
                state = self._attack(table, state, actor, target, tactic)
        except RuleRefusal:
            pass  # the rules forbid the turn (collapsed, say): the fighter loses it, as at the table
        return state

    def _attack(
        self, table: FightTable, state: GameState[Any], actor: str, target: str, tactic: Tactic
    ) -> GameState[Any]:
        defense = _defense(state, target, table.tactics[target])
        extra = {} if tactic.damage is None else {"damage": tactic.damage}
        try:
            return table.act(state, "attack", actor, target=target, weapon=tactic.weapon, defense=defense, **extra)
        except RuleRefusal:
            if defense in ("dodge", "none"):
                raise
            # The chosen parry or block is not allowed against this attack; a dodge always is.
            return table.act(state, "attack", actor, target=target, weapon=tactic.weapon, defense="dodge", **extra)
