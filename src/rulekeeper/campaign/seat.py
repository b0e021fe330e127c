"""Who may do what: the one decision of whether a member's command applies, waits for the GM,
or is refused -- from everything the command touches, not only its actor.

Every front end (the HTTP API, the pages, the CLI) asks :func:`judge_action` or
:func:`judge_resolve` through the campaign facade, so a route cannot forget a rule:

* the GM may do anything;
* a player acts only *as* a character they play (the actor);
* a parameter that names a GM secret (``ParamSpec.gm_only``) or overrides what the rules
  compute (``ParamSpec.overrides_rules``: damage, skill, DR, a threshold, a roll modifier ...)
  is the GM's: a player who sets one is refused, whatever its value;
* every other character the command names (``ParamSpec.names_character``: target, targets,
  subject, healer, a list of ids ...) must be the player's own too; if it is not, the command
  becomes a *request* the GM approves, amends or declines, unless the table's
  ``actions_on_others`` option allows it (``npcs``: on NPCs; ``everyone``); so does an action
  that cannot do without a parameter only the GM gives (a cure's threshold), which the GM
  fills in when approving; an override at its default value changes nothing and is let through;
  a choice that is the other character's own (``ParamSpec.target_decides``: the defence a
  target makes) is refused when the action would apply without the GM;
* dice typed at the table feed only checks the player's own characters roll: an action that
  touches another character takes the campaign's dice, and a pending check can be resolved
  only by the player who rolls it. That is judged again from the checks the command actually
  raises (:class:`SeatDice`), not only from which parameters name whom: a player's own action
  or roll can lead to another character's check (a defence, a roll its consequences ask), and
  a typed die reaching it refuses the whole command.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.core.action import Action, ActionSpec, ParamSpec
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import GameState, PendingCheck
from rulekeeper.dice.source import ScriptedSource
from rulekeeper.errors import RuleRefusal

__all__ = [
    "OTHERS_CHOICES",
    "OTHERS_OPTION",
    "Seat",
    "SeatDice",
    "SeatRefusal",
    "TypedDiceRefused",
    "Verdict",
    "judge_action",
    "judge_resolve",
    "named_characters",
]

#: The table's choice of what a player's action on a character they do not play does.
OTHERS_CHOICES = ("ask", "npcs", "everyone")
OTHERS_OPTION = ParamSpec(
    "actions_on_others",
    kind="choice",
    choices=OTHERS_CHOICES,
    default="ask",
    help="a player's action on a character they do not play: ask the GM, allow it on NPCs, or allow it always",
)
_SPLIT = re.compile(r"[\s,]+")


class SeatRefusal(RuleRefusal):
    """A member asked for what their seat does not allow (HTTP 403)."""


@dataclass(frozen=True)
class Seat:
    """Who sends a command: the GM, or a member (player or observer) and the characters they play."""

    name: str
    characters: frozenset[str] = frozenset()
    is_gm: bool = False
    role: str = "player"

    def plays(self, actor: str | None) -> bool:
        return actor is not None and actor in self.characters


@dataclass(frozen=True)
class Verdict:
    """What a command from a seat does: apply now, wait for the GM (``others`` it touches), or
    nothing (``refusal`` says why)."""

    refusal: str | None = None
    others: tuple[str, ...] = ()
    request: bool = False

    def refuse(self) -> None:
        if self.refusal is not None:
            raise SeatRefusal(self.refusal)


def named_characters(spec: ActionSpec, params: Mapping[str, Any]) -> tuple[str, ...]:
    """Every character id the parameters name (a list parameter's ids one by one), in order."""
    found: list[str] = []
    for p in spec.params:
        value = params.get(p.name)
        if not p.names_character or value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else _SPLIT.split(str(value))
        found += [str(v).strip() for v in values if str(v).strip() and str(v).strip() not in found]
    return tuple(found)


def _gm_params(spec: ActionSpec) -> str:
    return ", ".join(p.name for p in spec.params if p.required and (p.overrides_rules or p.gm_only))


def _is_default(spec: ParamSpec, value: Any) -> bool:
    """A value that changes nothing (a form sending ``modifier: 0``) is no override."""
    if spec.default is None:
        return False
    try:
        return bool(spec.coerce(value, spec.name) == spec.coerce(spec.default, spec.name))
    except (TypeError, ValueError):
        return False


def _others_allowed(state: GameState[Any], npcs: Collection[str], others: Sequence[str]) -> bool:
    policy = str(state.settings.option(OTHERS_OPTION.name, OTHERS_OPTION.default))
    if policy == "everyone":
        return True
    return policy == "npcs" and all(o in npcs for o in others)


def judge_action(
    ruleset: Ruleset[Any],
    state: GameState[Any],
    npcs: Collection[str],
    seat: Seat,
    action: Action,
    *,
    typed_dice: bool = False,
) -> Verdict:
    """May ``seat`` play ``action`` now, only as a request to the GM, or not at all?"""
    if seat.is_gm:
        return Verdict()
    spec = ruleset.actions().get(action.name)
    if spec is None:
        return Verdict()  # the rules refuse an unknown action themselves, in their own words
    given = [p for p in spec.params if action.params.get(p.name) is not None]
    secret = [p.name for p in given if p.gm_only]
    if secret:  # refused whatever the value, so a right guess and a wrong one read the same
        return Verdict(f"only the GM may set {', '.join(secret)}; it names what only the GM knows")
    overrides = [p.name for p in given if p.overrides_rules and not _is_default(p, action.params[p.name])]
    if overrides:
        return Verdict(
            f"only the GM may set {', '.join(overrides)}: it overrides what the rules work out; "
            "leave it out and the rules decide"
        )
    actor = action.actor
    if seat.role != "player" or not seat.plays(actor):
        whose = f"for {actor}" if actor else "without a character"
        return Verdict(f"{seat.role} {seat.name} may not act {whose}; players act only for their own characters")
    others = tuple(c for c in named_characters(spec, action.params) if not seat.plays(c))
    # A parameter only the GM gives that the action cannot do without (a cure's threshold): the
    # player asks, and the GM fills it in when approving.
    needs_gm = any(p.required and (p.overrides_rules or p.gm_only) for p in spec.params)
    if not others and not needs_gm:
        return Verdict()
    if typed_dice and others:
        return Verdict(
            f"dice typed by {seat.name} feed only their own characters' checks, and this touches "
            f"{', '.join(others)}; send it without dice and the campaign rolls"
        )
    if typed_dice:
        return Verdict(f"{action.name} needs the GM's {_gm_params(spec)}: send it without dice and ask the GM")
    if not needs_gm and _others_allowed(state, npcs, others):
        chosen = [p.name for p in given if p.target_decides and not _is_default(p, action.params[p.name])]
        if chosen:
            return Verdict(
                f"{', '.join(chosen)} is for {', '.join(others)} to choose (their player or the GM), "
                "not the one acting; leave it out and they choose when it comes"
            )
        return Verdict(others=others)
    return Verdict(others=others, request=True)


def judge_resolve(ruleset: Ruleset[Any], state: GameState[Any], seat: Seat, pending_id: int) -> Verdict:
    """A pending check is resolved by the GM, or by the player whose character rolls it (not one
    the table's roll modes keep from players); any other answer reads the same, so it tells
    nothing about the check."""
    if seat.is_gm:
        return Verdict()
    pending = state.find_pending(pending_id)
    if pending is not None and seat.plays(pending.actor) and not ruleset.is_secret(pending, state.settings):
        return Verdict()
    return Verdict(f"{seat.role} {seat.name} has no pending check #{pending_id}")


class TypedDiceRefused(Exception):
    """A typed die reached a check the player may not type: raised from inside the rules, so it
    is no ``RuleRefusal`` (rule code that catches one, as a system's defences may, would carry on);
    the campaign turns it into a :class:`SeatRefusal` once the command is abandoned."""


class SeatDice(ScriptedSource):
    """Dice a player typed, which feed only checks their own characters roll.

    The engine names each check before its dice are rolled (``before_check``); a typed die
    asked for by a check another character rolls -- or by a roll no check announced -- refuses
    the command, so nothing of it applies. Dice the campaign rolls after the typed ones run out
    are not judged (they are nobody's choice)."""

    __slots__ = ("_check", "_seat")

    def __init__(self, values: Sequence[int], seat: Seat, *, label: str) -> None:
        super().__init__(values, label=label)
        self._seat = seat
        self._check: PendingCheck | None = None

    def before_check(self, check: object) -> None:
        self._check = check if isinstance(check, PendingCheck) else None

    def roll(self, sides: int) -> int:
        check = self._check
        if self.remaining and (check is None or not self._seat.plays(check.actor)):
            whose = f"{check.actor}'s" if check is not None and check.actor else "no character's"
            what = check.check.describe() if check is not None else "a roll"
            raise TypedDiceRefused(
                f"dice typed by {self._seat.name} feed only their own characters' checks, and the "
                f"next one is {whose} ({what}); nothing was applied: type only the dice of your own "
                "rolls, or send it without dice and the campaign rolls"
            )
        return super().roll(sides)
