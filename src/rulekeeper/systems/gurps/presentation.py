"""What the front ends show of a GURPS character, and the odds of a plain success roll.

Read from a (projected) view only: a card shows the attributes, HP and FP with the death-check
marks at multiples of −HP (Lite p. 30), Move, Dodge, Parry, Block and DR.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.odds import MODIFIER, TARGET, Odds
from rulekeeper.core.presentation import Bar, Standing, Stat, Vitals, number
from rulekeeper.core.state import GameState
from rulekeeper.systems.gurps.simulation import GurpsCombat

__all__ = ["ODDS_PARAMS", "GurpsPresentation", "odds", "standing", "vitals"]

ODDS_PARAMS: tuple[ParamSpec, ...] = (TARGET, MODIFIER)
#: The condition that marks a fighter in a fight and records the fight's order.
IN_COMBAT = "in combat"


def _line(view: Mapping[str, Any]) -> str:
    if number(view, "current_hp") is None or number(view, "current_fp") is None:
        return ""
    text = f"HP {view['current_hp']}/{view['hp']}  FP {view['current_fp']}/{view['fp']}"
    if view.get("posture") not in (None, "standing"):
        text += f"  {view['posture']}"
    if view.get("maneuver"):
        text += f"  {view['maneuver']}"
    return text


def vitals(view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
    bars: list[Bar] = []
    stats: list[Stat] = []
    marks: list[str] = []
    hp, cur = number(view, "hp"), number(view, "current_hp")
    checks_at = [int(v) for v in view.get("death_checks_at") or ()]
    if hp is not None and cur is not None:
        bars.append(Bar("HP", cur, hp, tuple((v, f"death check at {v}") for v in checks_at)))
        if cur <= -hp:
            marks.append("at −HP or below")
        elif cur <= 0:
            marks.append("at 0 HP or below")
    fp, cur_fp = number(view, "fp"), number(view, "current_fp")
    if fp is not None and cur_fp is not None:
        bars.append(Bar("FP", cur_fp, fp))
    for flag, text in (("reeling", "reeling"), ("very_tired", "very tired"), ("dead", "dead")):
        if view.get(flag):
            marks.append(text)
    if cur is not None and checks_at and cur <= checks_at[0]:
        marks.append(f"death checks passed: {sum(1 for v in checks_at if cur <= v)}")
    if view.get("combat_place"):
        stats.append(Stat("Acts", f"#{view['combat_place']} in the turn order"))
    if view.get("maneuver"):
        stats.append(Stat("Maneuver", str(view["maneuver"])))
    for key in ("st", "dx", "iq", "ht"):
        if number(view, key) is not None:
            stats.append(Stat(key.upper(), str(view[key])))
    for key, label in (("move", "Move"), ("dodge", "Dodge")):
        if number(view, key) is not None:
            stats.append(Stat(label, str(view[key])))
    parries = view.get("parry")
    if isinstance(parries, Mapping) and parries:
        stats.append(Stat("Parry", ", ".join(f"{w} {v}" for w, v in parries.items())))
    for key, label in (("block", "Block"), ("dr", "DR")):
        if number(view, key) is not None:
            stats.append(Stat(label, str(view[key])))
    return Vitals(tuple(bars), tuple(stats), tuple(marks), _line(view))


def standing(state: GameState[Any], actor: str) -> Standing:
    c = state.characters[actor]
    health = int(c.current_hp)
    if c.dead:
        return Standing("dead", True, health)
    if state.has_condition(actor, "unconscious"):
        return Standing("unconscious", True, health)
    collapsed = state.has_condition(actor, "collapsed")
    return Standing("wounded" if c.current_hp < c.hp else "unhurt", collapsed, health)


def odds(values: Mapping[str, Any]) -> Odds:
    from rulekeeper.core.check import Modifier
    from rulekeeper.core.success_roll import THREE_D6, SuccessRoll, judge_success_roll
    from rulekeeper.errors import InputError

    if values.get("target") is None:
        raise InputError("a GURPS check needs a target", expected="check gurps 12")
    modifier = int(values.get("modifier") or 0)
    mods = (Modifier(modifier, "modifier"),) if modifier else ()
    check = SuccessRoll(kind="gurps.skill", label="Skill", base=int(values["target"]), modifiers=mods)
    rows = []
    for roll, ways in THREE_D6.items():
        ok, crit = judge_success_roll(roll, check.effective)
        tag = ("crit " if crit.value != "none" else "") + ("S" if ok else "F")
        rows.append((f"{roll:>2} {tag:>6}", Fraction(ways, 216)))
    return Odds(check, tuple(rows), (("critical failure", check.critical_failure_probability()),))


def turn_order(state: GameState[Any], views: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], str | None]:
    """The fight's order (``start_combat`` records it on the ``in combat`` condition) and who acts
    next: the first of those with the fewest turns taken."""
    order: list[str] = []
    for c in state.conditions:
        found = c.data.get("order") if isinstance(c.data, Mapping) else None
        if c.name == IN_COMBAT and isinstance(found, list):
            order = [str(a) for a in found if a in views]
            break
    if not order:
        return [], None
    turns = {a: views[a].get("turn") for a in order}
    if all(isinstance(t, int) for t in turns.values()):
        low = min(t for t in turns.values() if isinstance(t, int))
        return order, next(a for a in order if turns[a] == low)
    return order, None


class GurpsPresentation:
    """The answers a GURPS ruleset gives the front ends (mixed into ``GurpsRuleset``)."""

    odds_params = ODDS_PARAMS
    bookkeeping_conditions = frozenset({IN_COMBAT})
    turn_order = staticmethod(turn_order)
    vitals = staticmethod(vitals)
    standing = staticmethod(standing)
    odds = staticmethod(odds)
    combat = GurpsCombat
