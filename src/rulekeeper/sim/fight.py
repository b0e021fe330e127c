"""One fight, played round by round through the real engine.

Each fighter's turn becomes ordinary actions (``maneuver``, ``attack`` in GURPS; ``damage`` in
the other systems) passed to :func:`rulekeeper.core.engine.apply_action`; the end of each round
is :func:`rulekeeper.core.engine.next_round`, which fires the rules' own timers (consciousness
and stun rolls, death checks). The only choices made here are the tactic's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekeeper.core import get_ruleset
from rulekeeper.core.action import Action
from rulekeeper.core.arc import ArcThreshold
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.engine import apply_action, next_round
from rulekeeper.core.roll_under import RollUnder
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import GameState
from rulekeeper.dice import roll as roll_dice
from rulekeeper.dice.source import DiceSource
from rulekeeper.errors import RuleRefusal
from rulekeeper.sim.encounter import Encounter, Fighter
from rulekeeper.sim.status import health, is_out, status
from rulekeeper.sim.tactics import HitCheck, Tactic

__all__ = ["FightResult", "fight"]


@dataclass(frozen=True)
class FightResult:
    winner: str | None  # the side still standing; None for a draw (everyone out, or rounds ran out)
    rounds: int
    status: tuple[str, ...]  # per fighter, in encounter order
    health: tuple[int, ...]


class _Table:
    """The engine calls of one fight, with the explanation switched off when nobody will read it."""

    def __init__(self, ruleset: Ruleset[Any], dice: DiceSource, explain: bool) -> None:
        self.ruleset = ruleset
        self.dice = dice
        self.explain = explain

    def act(self, state: GameState[Any], name: str, actor: str | None, **params: Any) -> GameState[Any]:
        action = Action(name=name, actor=actor, params=params)
        return apply_action(self.ruleset, state, action, self.dice, explain=self.explain).state

    def round_ends(self, state: GameState[Any]) -> GameState[Any]:
        return next_round(self.ruleset, state, self.dice, explain=self.explain).state


def fight(encounter: Encounter, dice: DiceSource, *, explain: bool = False) -> FightResult:
    """Fight the encounter once; ``explain=True`` takes the ordinary (fully explained) engine path."""
    ruleset = get_ruleset(encounter.system)
    table = _Table(ruleset, dice, explain)
    state = encounter.start_state()
    fighters = encounter.fighters
    order = list(fighters)
    if encounter.system == "gurps":
        outcome = apply_action(
            ruleset,
            state,
            Action("start_combat", None, {"characters": ",".join(f.id for f in fighters)}),
            dice,
            explain=explain,
        )
        state = outcome.state
        by_id = {f.id: f for f in fighters}
        order = [by_id[i] for i in outcome.result["order"]]
    rounds = 0
    winner: str | None = None
    while rounds < encounter.max_rounds:
        rounds += 1
        for f in order:
            if is_out(state, f.id):
                continue
            foes = [g for g in fighters if g.side != f.side and not is_out(state, g.id)]
            if not foes:
                break
            if encounter.system == "gurps":
                state = _gurps_turn(table, state, f, foes, fighters)
            else:
                state = _attack_turn(table, state, f, foes)
        state = table.round_ends(state)
        standing = {f.side for f in fighters if not is_out(state, f.id)}
        if len(standing) <= 1 and encounter.until == "side-out":
            winner = next(iter(standing)) if standing else None
            break
    else:
        standing = {f.side for f in fighters if not is_out(state, f.id)}
        winner = next(iter(standing)) if len(standing) == 1 else None
    return FightResult(
        winner=winner,
        rounds=rounds,
        status=tuple(status(state, f.id) for f in fighters),
        health=tuple(health(state, f.id) for f in fighters),
    )


def _pick(state: GameState[Any], tactic: Tactic, foes: list[Fighter], dice: DiceSource) -> Fighter:
    how = tactic.target
    if how == "first":
        return foes[0]
    if how == "random":
        return foes[dice.roll(len(foes)) - 1] if len(foes) > 1 else foes[0]
    if how in ("weakest", "strongest"):
        sign = 1 if how == "weakest" else -1
        return min(foes, key=lambda g: sign * health(state, g.id))
    # A named foe; once they are out, fall back on the first foe still standing.
    return next((g for g in foes if g.id == how), foes[0])


# -- GURPS ----------------------------------------------------------------------------------


def _gurps_defense(state: GameState[Any], defender: Fighter) -> str:
    choice = defender.tactic.defense
    if choice != "best":
        return choice
    c = state.characters[defender.id]
    options = [(c.dodge, "dodge")]
    parries = c.weapon_parries
    if parries:
        options.append((max(parries.values()), "parry"))
    if c.block is not None:
        options.append((c.block, "block"))
    return max(options)[1]


def _all_out_now(state: GameState[Any], f: Fighter, target: Fighter, fighters: tuple[Fighter, ...]) -> bool:
    aoa = f.tactic.all_out_attack
    if aoa is None:
        return f.tactic.maneuver == "all-out-attack"
    if aoa.when == "always":
        return True
    if aoa.when == "outnumbering":
        up = [g.side for g in fighters if not is_out(state, g.id)]
        return up.count(f.side) > len(up) - up.count(f.side)
    if aoa.when == "foe-stunned":
        return state.has_condition(target.id, "stunned")
    if aoa.when == "foe-hp":
        return bool(state.characters[target.id].current_hp <= (aoa.foe_hp_at_most or 0))
    return bool(state.characters[f.id].current_hp <= (aoa.own_hp_at_most or 0))


def _gurps_turn(
    table: _Table, state: GameState[Any], f: Fighter, foes: list[Fighter], fighters: tuple[Fighter, ...]
) -> GameState[Any]:
    tactic = f.tactic
    must_wait = state.has_condition(f.id, "stunned") or state.has_condition(f.id, "surprised")
    if must_wait or tactic.maneuver == "do-nothing":
        return table.act(state, "maneuver", f.id, choice="do-nothing")
    target = _pick(state, tactic, foes, table.dice)
    try:
        if _all_out_now(state, f, target, fighters):
            state = table.act(
                state,
                "maneuver",
                f.id,
                choice="all-out-attack",
                option=tactic.option,
                weapon=tactic.weapon,
                target=target.id,
            )
            attacks = int(state.characters[f.id].turn.attacks_allowed)
        else:
            attacks = 1
        for _ in range(attacks):
            if is_out(state, target.id):
                alive = [g for g in foes if not is_out(state, g.id)]
                if not alive:
                    break
                target = _pick(state, tactic, alive, table.dice)
            state = _gurps_attack(table, state, f, target, tactic)
    except RuleRefusal:
        pass  # the rules forbid the turn (collapsed, say): the fighter loses it, as at the table
    return state


def _gurps_attack(table: _Table, state: GameState[Any], f: Fighter, target: Fighter, tactic: Tactic) -> GameState[Any]:
    defense = _gurps_defense(state, target)
    extra = {} if tactic.damage is None else {"damage": tactic.damage}
    try:
        return table.act(state, "attack", f.id, target=target.id, weapon=tactic.weapon, defense=defense, **extra)
    except RuleRefusal:
        if defense in ("dodge", "none"):
            raise
        # The chosen parry or block is not allowed against this attack; a dodge always is.
        return table.act(state, "attack", f.id, target=target.id, weapon=tactic.weapon, defense="dodge", **extra)


# -- the other systems: who attacks whom, with what damage ---------------------------------------


def _hits(system: str, hit: HitCheck | None, actor: str, dice: DiceSource) -> bool:
    if hit is None:
        return True
    label = f"{actor} attacks"
    if system == "wrath-and-glory":
        return PoolTest(kind="wg.attack", label=label, pool=hit.pool or 1, dn=hit.dn or 3).resolve(dice).success
    if system == "gods-and-monsters":
        return RollUnder(kind="gm.attack", label=label, score=hit.score or 10).resolve(dice).success

    return (
        ArcThreshold(kind="vi-viii-x.arc", label=label, stats=hit.stats or 0, threshold=hit.threshold or 0)
        .resolve(dice)
        .success
    )


def _attack_turn(table: _Table, state: GameState[Any], f: Fighter, foes: list[Fighter]) -> GameState[Any]:
    tactic = f.tactic
    if tactic.maneuver == "do-nothing":
        return state
    target = _pick(state, tactic, foes, table.dice)
    if not _hits(state.system, tactic.hit, f.id, table.dice):
        return state
    params: dict[str, Any] = dict(tactic.params)
    assert tactic.damage is not None
    if state.system == "wrath-and-glory":
        params.setdefault("dice", tactic.damage)
    else:
        params.setdefault("amount", roll_dice(tactic.damage, table.dice).total)
        if state.system == "gods-and-monsters":
            params.setdefault("in_combat", True)
    try:
        return table.act(state, "damage", target.id, **params)
    except RuleRefusal:
        return state
