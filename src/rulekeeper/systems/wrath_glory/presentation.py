"""What the front ends show of a Wrath & Glory character, its standing, and a pool test's odds.

Read from a (projected) view: Wounds and Shock fill as harm is taken (seed 003, "Wounds",
"Shock"); Resilience and Defence when the sheet has them; Wrath only for a player's character,
since Wrath is a player resource (an NPC's side is the GM's Ruin).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.odds import MODIFIER, TARGET, Odds
from rulekeeper.core.presentation import Bar, Standing, Stat, Vitals, number
from rulekeeper.core.state import GameState
from rulekeeper.limits import MAX_PARAM_NUMBER, MAX_POOL
from rulekeeper.systems.wrath_glory.simulation import WrathGloryCombat

__all__ = ["ODDS_PARAMS", "WrathGloryPresentation", "odds", "standing", "vitals"]

ODDS_PARAMS: tuple[ParamSpec, ...] = (
    TARGET,
    MODIFIER,
    # Pool and Wrath dice are bounded by odds() itself, with one message for both.
    ParamSpec("pool", "int", "dice in the pool", minimum=-MAX_PARAM_NUMBER),
    ParamSpec("dn", "int", "Difficulty Number", default=3),
    ParamSpec("wrath_dice", "int", "Wrath dice (more while Dying)", default=1, minimum=-MAX_PARAM_NUMBER),
)


def _line(view: Mapping[str, Any], npc: bool) -> str:
    if number(view, "wounds") is None or number(view, "shock") is None:
        return ""
    text = f"Wounds {view['wounds']}/{view['max_wounds']}  Shock {view['shock']}/{view['max_shock']}"
    if not npc and number(view, "wrath") is not None:
        text += f"  Wrath {view['wrath']}"
    if number(view, "resilience") is not None:
        text += f"  Res {view['resilience']}"
    return text


def vitals(view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
    bars: list[Bar] = []
    stats: list[Stat] = []
    marks: list[str] = []
    for key, label in (("wounds", "Wounds"), ("shock", "Shock")):
        cur, most = number(view, key), number(view, f"max_{key}")
        if cur is not None and most is not None:
            bars.append(Bar(label, cur, most, harm=True))
    if not npc and number(view, "wrath") is not None:
        stats.append(Stat("Wrath", str(view["wrath"])))
    for key, label in (("resilience", "Resilience"), ("defence", "Defence")):
        if number(view, key) is not None:
            stats.append(Stat(label, str(view[key])))
    trauma = [str(t) for t in view.get("traumatic_injuries") or ()]
    if "traumatic_injuries" in view:
        stats.append(Stat("Trauma", ", ".join(trauma) or "none", alert=bool(trauma)))
    for flag, text in (("dying", "Dying"), ("dead", "dead"), ("exhausted", "exhausted")):
        if view.get(flag):
            marks.append(text)
    return Vitals(tuple(bars), tuple(stats), tuple(marks), _line(view, npc))


def standing(state: GameState[Any], actor: str) -> Standing:
    c = state.characters[actor]
    health = int(c.max_wounds - c.wounds)
    if c.dead:
        return Standing("dead", True, health)
    if c.dying:
        return Standing("dying", True, health)
    return Standing("wounded" if c.wounds > 0 else "unhurt", False, health)


def odds(values: Mapping[str, Any]) -> Odds:
    from rulekeeper.core.dice_pool import PoolTest, pool_distribution
    from rulekeeper.errors import InputError

    pool, dn, wrath_dice = values.get("pool"), int(values.get("dn") or 0), int(values.get("wrath_dice") or 0)
    if pool is None:
        raise InputError("a Wrath & Glory check needs a pool", expected="check wg --pool 6 --dn 4")
    if values.get("target") is not None:
        raise InputError(
            "a Wrath & Glory test takes a pool, not a target", expected=f"check wg --pool {values['target']}"
        )
    modifier = int(values.get("modifier") or 0)
    if modifier:
        # A test is modified by bonus dice or by DN, never by a target number (seed 003, "Dice
        # pool"; "Difficulty"): say which, rather than guess.
        raise InputError(
            f"-m {modifier} has no meaning for a Wrath & Glory pool test",
            expected=f"--dn {max(0, dn + modifier)} for a harder or easier test, "
            f"or --pool {max(1, int(pool) + modifier)} for bonus or lost dice",
        )
    if not (1 <= pool <= MAX_POOL and dn >= 0 and 0 <= wrath_dice <= MAX_POOL):
        raise InputError(
            f"pool {pool}, DN {dn}, {wrath_dice} Wrath dice",
            expected=f"a pool of 1 to {MAX_POOL} dice, DN 0+, 0 to {MAX_POOL} Wrath dice (docs/limits.md)",
        )
    check = PoolTest(kind="wg.test", label="Test", pool=int(pool), dn=dn, wrath_dice=wrath_dice)
    rows = tuple((f"{icons:>2} icons", p) for icons, p in sorted(pool_distribution(check.dice_count).items()))
    return Odds(check, rows)


class WrathGloryPresentation:
    """The answers a W&G ruleset gives the front ends (mixed into ``WrathGloryRuleset``)."""

    odds_params = ODDS_PARAMS
    vitals = staticmethod(vitals)
    standing = staticmethod(standing)
    odds = staticmethod(odds)
    combat = WrathGloryCombat
