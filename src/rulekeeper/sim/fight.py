"""One fight, played round by round through the real engine.

Each fighter's turn is the system's own (``Ruleset.combat``): ordinary actions passed to
:func:`rulekeeper.core.engine.apply_action` and rolls built as the table builds them. The end of
each round is :func:`rulekeeper.core.engine.next_round`, which fires the rules' own timers
(consciousness and stun rolls, death checks). The only choices made here are the tactic's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.core import get_ruleset
from rulekeeper.core.action import Action
from rulekeeper.core.combat import Tactic
from rulekeeper.core.engine import apply_action, next_round
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import GameState
from rulekeeper.dice.source import DiceSource
from rulekeeper.sim.encounter import Encounter

__all__ = ["FightResult", "fight"]


@dataclass(frozen=True)
class FightResult:
    winner: str | None  # the side still standing; None for a draw (everyone out, or rounds ran out)
    rounds: int
    status: tuple[str, ...]  # per fighter, in encounter order
    health: tuple[int, ...]


class _Table:
    """The engine calls of one fight, with the explanation switched off when nobody will read it."""

    def __init__(
        self,
        ruleset: Ruleset[Any],
        dice: DiceSource,
        explain: bool,
        tactics: Mapping[str, Tactic],
        sides: Mapping[str, str],
    ) -> None:
        self.ruleset = ruleset
        self.dice = dice
        self.explain = explain
        self.tactics = tactics
        self.sides = sides

    def act(self, state: GameState[Any], name: str, actor: str | None, **params: Any) -> GameState[Any]:
        action = Action(name=name, actor=actor, params=params)
        return apply_action(self.ruleset, state, action, self.dice, explain=self.explain).state

    def round_ends(self, state: GameState[Any]) -> GameState[Any]:
        return next_round(self.ruleset, state, self.dice, explain=self.explain).state

    def is_out(self, state: GameState[Any], actor: str) -> bool:
        return self.ruleset.standing(state, actor).out

    def health(self, state: GameState[Any], actor: str) -> int:
        return self.ruleset.standing(state, actor).health

    def pick(self, state: GameState[Any], tactic: Tactic, foes: Sequence[str]) -> str:
        how = tactic.target
        if how == "first":
            return foes[0]
        if how == "random":
            return foes[self.dice.roll(len(foes)) - 1] if len(foes) > 1 else foes[0]
        if how in ("weakest", "strongest"):
            sign = 1 if how == "weakest" else -1
            return min(foes, key=lambda g: sign * self.health(state, g))
        # A named foe; once they are out, fall back on the first foe still standing.
        return how if how in foes else foes[0]


def fight(encounter: Encounter, dice: DiceSource, *, explain: bool = False) -> FightResult:
    """Fight the encounter once; ``explain=True`` takes the ordinary (fully explained) engine path."""
    ruleset = get_ruleset(encounter.system)
    fighters = encounter.fighters
    sides = {f.id: f.side for f in fighters}
    table = _Table(ruleset, dice, explain, {f.id: f.tactic for f in fighters}, sides)
    combat = ruleset.combat()
    state, order = combat.start(table, encounter.start_state(), [f.id for f in fighters])
    rounds = 0
    winner: str | None = None
    while rounds < encounter.max_rounds:
        rounds += 1
        for actor in order:
            if table.is_out(state, actor):
                continue
            foes = [g.id for g in fighters if g.side != sides[actor] and not table.is_out(state, g.id)]
            if not foes:
                break
            state = combat.turn(table, state, actor, foes)
        state = table.round_ends(state)
        standing = {f.side for f in fighters if not table.is_out(state, f.id)}
        if len(standing) <= 1 and encounter.until == "side-out":
            winner = next(iter(standing)) if standing else None
            break
    else:
        standing = {f.side for f in fighters if not table.is_out(state, f.id)}
        winner = next(iter(standing)) if len(standing) == 1 else None
    final = [ruleset.standing(state, f.id) for f in fighters]
    return FightResult(
        winner=winner,
        rounds=rounds,
        status=tuple(s.level for s in final),
        health=tuple(s.health for s in final),
    )
