"""How a simulated fighter takes a turn: the tactic it follows and the system's way of fighting.

The simulation (``rulekeeper.sim``) only chooses and counts; what a turn *is* belongs to the
rules. A ruleset's :meth:`~rulekeeper.core.ruleset.Ruleset.combat` returns a :class:`Combat`:
this base class plays the plain turn (roll to hit, if the tactic gives one, then the system's
``damage`` action on the target); a system with maneuvers and active defenses overrides
:meth:`Combat.turn`. Every roll is built by the system's own check builder, the one its table
actions use, so modifiers (injuries, wounds, states) and table options apply alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rulekeeper.errors import InputError, RuleRefusal

if TYPE_CHECKING:
    from rulekeeper.core.check import Check
    from rulekeeper.core.play import Play
    from rulekeeper.core.ruleset import Ruleset
    from rulekeeper.core.state import GameState
    from rulekeeper.dice.source import DiceSource

__all__ = ["AllOutAttack", "Combat", "FightTable", "HitCheck", "Tactic"]


@dataclass(frozen=True)
class AllOutAttack:
    """When to switch from the tactic's maneuver to All-Out Attack."""

    when: str = "always"
    foe_hp_at_most: int | None = None
    own_hp_at_most: int | None = None


@dataclass(frozen=True)
class HitCheck:
    """The roll to hit; its fields name what the system's own attack check takes."""

    score: int | None = None
    pool: int | None = None
    dn: int | None = None
    stats: int | None = None
    threshold: int | None = None


@dataclass(frozen=True)
class Tactic:
    target: str = "first"
    weapon: str | None = None
    maneuver: str = "attack"
    option: str = "determined"
    all_out_attack: AllOutAttack | None = None
    defense: str = "best"
    damage: str | None = None
    hit: HitCheck | None = None
    params: Mapping[str, Any] = field(default_factory=dict)


class FightTable(Protocol):
    """What the simulation lends a turn: the engine's calls, its dice and its choices."""

    ruleset: Ruleset[Any]
    dice: DiceSource
    #: Whether the engine explains each step (off in bulk runs, where nobody reads them).
    explain: bool
    #: Each fighter's tactic and side, by id.
    tactics: Mapping[str, Tactic]
    sides: Mapping[str, str]

    def act(self, state: GameState[Any], name: str, actor: str | None, **params: Any) -> GameState[Any]: ...

    def is_out(self, state: GameState[Any], actor: str) -> bool: ...

    def pick(self, state: GameState[Any], tactic: Tactic, foes: Sequence[str]) -> str: ...


class Combat:
    """The plain turn: a roll to hit through the system's own check, then its ``damage`` action."""

    #: The tactic keys this system's turn reads (the encounter reference lists them per system).
    tactic_keys: ClassVar[frozenset[str]] = frozenset({"target", "maneuver", "damage", "hit", "params"})
    #: What the system's health figure is called in a report ("HP", "Survival" ...).
    health_name: ClassVar[str] = "health"
    #: The tactic must give damage dice (a system whose sheets carry weapons does not need them).
    needs_damage: ClassVar[bool] = True

    def check_tactic(self, fighter: str, tactic: Tactic) -> None:
        """Refuse a tactic this system cannot play, naming the fighter."""
        if "all_out_attack" not in self.tactic_keys and (
            tactic.maneuver == "all-out-attack" or tactic.all_out_attack is not None
        ):
            raise InputError(
                "All-Out Attack is not a maneuver of this system",
                expected="attack or do-nothing",
                where=f"tactics.{fighter}",
            )
        if self.needs_damage and tactic.damage is None and tactic.maneuver != "do-nothing":
            raise InputError(
                f"no damage for {fighter}'s attacks", expected="damage: dice, e.g. 2d6+3", where=f"tactics.{fighter}"
            )

    def start(
        self, table: FightTable, state: GameState[Any], fighters: Sequence[str]
    ) -> tuple[GameState[Any], Sequence[str]]:
        """The state the fight starts from and the order fighters act in (by default as listed)."""
        return state, fighters

    def turn(
        self,
        table: FightTable,
        state: GameState[Any],
        actor: str,
        foes: Sequence[str],
    ) -> GameState[Any]:
        """One fighter's turn against the ``foes`` still in the fight: whom it attacks, whether
        it hits, and the damage it deals."""
        from rulekeeper.core.play import Play

        tactic = table.tactics[actor]
        if tactic.maneuver == "do-nothing":
            return state
        target = table.pick(state, tactic, foes)
        if tactic.hit is not None:
            play: Play[Any] = Play(table.ruleset, state, table.dice, explain=False)
            check = self.hit_check(play, actor, tactic.hit)
            if not check.resolve(table.dice).success:
                return state
        try:
            return table.act(state, "damage", target, **self.damage_params(table, tactic))
        except RuleRefusal:
            return state

    def hit_check(self, play: Play[Any], actor: str, hit: HitCheck) -> Check:
        """The roll to hit, built as the system's table actions build their rolls."""
        raise InputError("this system has no roll to hit", expected="a tactic without hit", where="hit")

    def damage_params(self, table: FightTable, tactic: Tactic) -> dict[str, Any]:
        """The parameters of the ``damage`` action for one hit: by default the rolled amount."""
        from rulekeeper.dice import roll as roll_dice

        params: dict[str, Any] = dict(tactic.params)
        assert tactic.damage is not None
        params.setdefault("amount", roll_dice(tactic.damage, table.dice).total)
        return params
