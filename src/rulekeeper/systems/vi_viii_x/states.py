"""The states of the character (seed 001, VIII.4) as data: what each does and where it comes from.

Three sources: states the rules derive from the sheet (injured, burdened, fatigued ...), states
a KS at 0 or below brings after the fatality countdown starts (death, paralysis, coma,
vegetative), and states the GM sets (blind, prone, slowed ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from rulekeeper.core.citation import Rule
from rulekeeper.core.state import Condition
from rulekeeper.systems.vi_viii_x.character import Burden, Character
from rulekeeper.systems.vi_viii_x.deprivation import GRACE_DAYS
from rulekeeper.systems.vi_viii_x.rules import state_rule

__all__ = [
    "DERIVED_STATES",
    "GM_STATES",
    "INCAPACITATING",
    "NO_CLIMB",
    "NO_JUMP",
    "STATES",
    "STATE_AT_ZERO",
    "StateInfo",
    "derived_states",
    "jump_blocker",
]


@dataclass(frozen=True)
class StateInfo:
    name: str
    effect: str
    rule: Rule
    source: Literal["derived", "zero", "gm", "rules"]


def _s(name: str, heading: str, source: Literal["derived", "zero", "gm", "rules"], effect: str) -> StateInfo:
    return StateInfo(name=name, effect=effect, rule=state_rule(heading), source=source)


STATES: Mapping[str, StateInfo] = {
    s.name: s
    for s in (
        _s(
            "blind", "Blind", "gm", "an action that needs sight succeeds only on a 1 on 1d6, rolled per action and turn"
        ),
        _s("burdened", "Burdened/Overloaded", "derived", "carries more than normal clothes; jumps shorten by rank"),
        _s("overloaded", "Burdened/Overloaded", "derived", "beyond a full burden: slower, cannot run or jump"),
        _s("coma", "Coma", "zero", "IN at 0 or below: temporary for the fatality countdown, then permanent"),
        _s("deafened", "Deafened", "gm", "cannot cast spells or counterspells; hearing checks may take a GM malus"),
        _s("death", "Death", "zero", "BU at 0 or below: temporary for the fatality countdown, then permanent"),
        _s("exalted", "Exalted", "derived", "SOM 10: Reaction checks succeed outright and every check gains a bonus"),
        _s("fatigued", "Fatigued", "derived", "-1 to every check per level; 1 turn of rest removes each level"),
        _s("grappled", "Grappled/Entangled", "gm", "no use of arms and legs: cannot climb or jump"),
        _s("entangled", "Grappled/Entangled", "gm", "legs or arms blocked: no jump with legs, no climb with either"),
        _s("injured", "Injured", "derived", "a lowered stat; the character acts with the lowered value until healed"),
        _s("panicked", "Panicked", "derived", "SOM 1: Reaction checks likely fail and every check takes a malus"),
        _s("paralysis", "Paralysis", "zero", "CO at 0 or below: temporary for the fatality countdown, then permanent"),
        _s("prone", "Prone", "gm", "a disadvantage the GM turns into a malus (other adjustments)"),
        _s("slowed", "Slowed/Hasted", "gm", "MOV and actions halved, casting times and similar spans doubled"),
        _s("hasted", "Slowed/Hasted", "gm", "MOV and actions doubled, casting times and similar spans halved"),
        _s("starving", "Starving/dehydrated", "derived", "4 days or more without food"),
        _s("dehydrated", "Starving/dehydrated", "derived", "2 days or more without water"),
        _s("stunned", "Stunned", "rules", "unconscious after a stunning blow until a Stamina ARCT succeeds"),
        _s("surprised", "Surprised/under pressure", "gm", "circumstances that call for a Reaction check"),
        _s("vegetative", "Vegetative state", "zero", "EM at 0 or below: temporary for the countdown, then permanent"),
    )
}

# The state a KS brings at 0 or below (rules brief, "States at 0 or below"; VIII.1 and VIII.4).
STATE_AT_ZERO: Mapping[str, str] = {"BU": "death", "CO": "paralysis", "IN": "coma", "EM": "vegetative"}

GM_STATES: tuple[str, ...] = tuple(n for n, s in STATES.items() if s.source == "gm")
DERIVED_STATES: tuple[str, ...] = tuple(n for n, s in STATES.items() if s.source == "derived")

# Reading: unconscious or dead characters take no action; a paralysed one cannot climb or jump.
INCAPACITATING: frozenset[str] = frozenset({"death", "coma", "vegetative", "stunned"})
NO_CLIMB: frozenset[str] = frozenset({"paralysis", "grappled", "entangled"})
NO_JUMP: frozenset[str] = frozenset({"paralysis", "grappled", "overloaded"})


def jump_blocker(conditions: Iterable[Condition]) -> str | None:
    """The state that rules a jump out, if any: the NO_JUMP states, or legs entangled."""
    for condition in conditions:
        if condition.name in NO_JUMP or (condition.name == "entangled" and condition.data.get("limbs") == "legs"):
            return condition.name
    return None


def derived_states(character: Character) -> frozenset[str]:
    """The states a character is in by the numbers on its sheet alone."""
    out: set[str] = set()
    if character.is_injured:
        out.add("injured")
    if character.burden is Burden.OVERLOADED:
        out.add("overloaded")
    elif character.burden is not Burden.NONE:
        out.add("burdened")
    if character.som >= 10:
        out.add("exalted")
    elif character.som <= 1:
        out.add("panicked")
    if character.fatigue > 0:
        out.add("fatigued")
    if (character.days_without_food or 0) >= GRACE_DAYS["food"]:
        out.add("starving")
    if (character.days_without_water or 0) >= GRACE_DAYS["water"]:
        out.add("dehydrated")
    return frozenset(out)
