"""What the front ends show of a Gods & Monsters character, its standing, and the odds of a roll.

Read from a (projected) view: Survival and Verve as bars, injuries and their penalty, and the
countdown to death (seed 000, "Injury points", "Dying").
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.odds import MODIFIER, TARGET, Odds
from rulekeeper.core.presentation import Bar, Standing, Stat, Vitals, number
from rulekeeper.core.state import GameState
from rulekeeper.systems.gods_monsters.simulation import GodsMonstersCombat

__all__ = ["ODDS_PARAMS", "GodsMonstersPresentation", "odds", "standing", "vitals"]

ODDS_PARAMS: tuple[ParamSpec, ...] = (TARGET, MODIFIER)


def _line(view: Mapping[str, Any]) -> str:
    if number(view, "survival") is None or number(view, "verve") is None:
        return ""
    text = f"surv {view['survival']}/{view['max_survival']}  verve {view['verve']}/{view['max_verve']}"
    if view.get("injuries"):
        text += f"  inj {view['injuries']}"
    if view.get("death_in") is not None:
        text += f"  dies in {view['death_in']}"
    return text


def vitals(view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
    bars: list[Bar] = []
    stats: list[Stat] = []
    marks: list[str] = []
    # NPCs have no verve (seed 000, "Non-player characters"): their card shows Survival alone.
    npc = npc or bool(view.get("is_npc"))
    for key, label in (("survival", "Survival"), ("verve", "Verve")):
        cur, most = number(view, key), number(view, f"max_{key}")
        if npc and key == "verve":
            continue
        if cur is not None and most is not None:
            bars.append(Bar(label, cur, most))
    injuries = number(view, "injuries")
    if injuries is not None:
        stats.append(Stat("Injuries", str(injuries), alert=injuries > 0))
    if view.get("injury_penalty"):
        stats.append(Stat("Injury penalty", str(view["injury_penalty"]), alert=True))
    if view.get("death_in"):
        marks.append(f"dies in {view['death_in']}")
    if view.get("at_risk_of_death"):
        marks.append("at risk of death")
    if view.get("alive") is False:
        marks.append("dead")
    return Vitals(tuple(bars), tuple(stats), tuple(marks), _line(view))


def standing(state: GameState[Any], actor: str) -> Standing:
    c = state.characters[actor]
    health = int(c.survival)
    for level in ("dead", "dying", "unconscious"):
        if state.has_condition(actor, level):
            return Standing(level, True, health)
    hurt = c.injuries > 0 or c.survival < c.max_survival or c.verve < c.max_verve
    return Standing("wounded" if hurt else "unhurt", False, health)


def odds(values: Mapping[str, Any]) -> Odds:
    from rulekeeper.core.check import Modifier
    from rulekeeper.core.roll_under import RollUnder
    from rulekeeper.errors import InputError

    if values.get("target") is None:
        raise InputError("a Gods & Monsters roll needs a target", expected="check gm 14")
    modifier = int(values.get("modifier") or 0)
    mods = (Modifier(modifier, "modifier"),) if modifier else ()
    check = RollUnder(kind="gm.roll", label="Roll", score=int(values["target"]), modifiers=mods)
    rows = tuple((f"{r:>2} {'S' if check.succeeds_on(r) else 'F'}", Fraction(1, 20)) for r in range(1, 21))
    return Odds(check, rows)


class GodsMonstersPresentation:
    """The answers a G&M ruleset gives the front ends (mixed into ``GodsMonstersRuleset``)."""

    odds_params = ODDS_PARAMS
    vitals = staticmethod(vitals)
    standing = staticmethod(standing)
    odds = staticmethod(odds)
    combat = GodsMonstersCombat
