"""What a character may do on their own turn, as the ruleset declares it (issue 27, item 1).

A player's phone offers the character's turn without knowing the system: the ruleset answers
:meth:`~rulekeeper.core.ruleset.Ruleset.turn` with

* :class:`TurnAction` s -- actions of its own specs the character takes on a turn (a GURPS
  maneuver and attack, a rest, a Wrath spend), each naming which of the spec's parameters the
  page asks for (the rest are left to the rules);
* :class:`Choice` lists for parameters whose values come from the sheet (the weapons a GURPS
  attack may use, with their skill, damage and range), so a phone shows a pick-list, not a text
  field;
* :class:`Tap` s -- an action with every parameter already chosen, sent with one tap: a roll of
  a skill, attribute or feat from the sheet with its exact odds, or, when an attack waits for
  the character, each legal defence with its odds.

Everything sent is an ordinary action of the system's specs, posted to the same API as any
client's, so the player's-seat rules (``campaign/seat.py``) judge it like any other command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rulekeeper.errors import RulesError

if TYPE_CHECKING:
    from rulekeeper.core.ruleset import Ruleset

__all__ = ["Choice", "Tap", "TurnAction", "TurnOffer", "odds_chance", "percent"]


@dataclass(frozen=True)
class Choice:
    """One entry of a pick-list: the value sent and what the player reads."""

    value: str
    label: str


@dataclass(frozen=True)
class TurnAction:
    """An action a character takes on their turn, and which of its parameters the page asks.

    ``group`` places it on the page: ``turn`` (what the character does now), ``spend`` (a
    resource), ``rest``.
    """

    action: str
    label: str
    group: str = "turn"
    params: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tap:
    """An action ready to send with one tap (``params`` are all chosen).

    ``group``: ``roll`` (from the sheet), ``defend`` (an attack waits), ``spend``.
    ``chance`` is the exact chance of success of the roll it makes, when the rules know it now.
    """

    label: str
    action: str
    params: Mapping[str, Any] = field(default_factory=dict)
    group: str = "roll"
    detail: str = ""
    chance: Fraction | None = None


@dataclass(frozen=True)
class TurnOffer:
    """Everything one character's turn offers: forms, sheet pick-lists and taps."""

    actor: str
    actions: tuple[TurnAction, ...] = ()
    #: parameter name -> its values from the acting character's sheet
    picks: Mapping[str, tuple[Choice, ...]] = field(default_factory=dict)
    taps: tuple[Tap, ...] = ()
    #: What waits for this character now (an attack to defend), in words; empty when nothing.
    waiting: tuple[str, ...] = ()


def percent(chance: Fraction | None) -> str:
    """A chance as the pages print odds (two decimals), or empty when not known."""
    return "" if chance is None else f"{float(chance) * 100:.2f}%"


def odds_chance(ruleset: Ruleset[Any], **values: Any) -> Fraction | None:
    """The chance of success of one of the ruleset's checks, asked as ``rulekeeper check`` asks
    it (``Ruleset.odds``), or None when the system cannot state it from these values."""
    from rulekeeper.core.odds import odds_values

    try:
        chance = ruleset.odds(odds_values(ruleset, values, "turn odds")).check.probability()
    except RulesError:
        return None
    return Fraction(chance)
