"""What the front ends show of a VI·VIII·X character, its standing, and an ARC's odds.

Read from a (projected) view: the four known stats, injured ones marked, and -- only because
only the GM's view carries them -- the unknown stats (chapter II). A fatality's countdown
(chapter VII) shows on the status line.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.odds import MODIFIER, TARGET, Odds
from rulekeeper.core.presentation import Standing, Stat, Vitals, number
from rulekeeper.core.state import GameState
from rulekeeper.systems.vi_viii_x.simulation import ViViiiXCombat

__all__ = ["ODDS_PARAMS", "ViViiiXPresentation", "odds", "standing", "vitals"]

ODDS_PARAMS: tuple[ParamSpec, ...] = (TARGET, MODIFIER, ParamSpec("threshold", "int", "the ARC threshold"))
_KNOWN = ("bu", "co", "in", "em")
#: States that take a character out of a fight while alive (chapter VIII).
_DOWN = frozenset({"coma", "vegetative", "stunned"})


def _line(view: Mapping[str, Any]) -> str:
    parts = []
    for ks in _KNOWN:
        if ks in view:
            current, original = view[ks], view.get(f"{ks}_original", view[ks])
            parts.append(f"{ks.upper()} {current}/{original}" if current != original else f"{ks.upper()} {current}")
    for name, fatality in (view.get("fatalities") or {}).items():
        if isinstance(fatality, Mapping) and not fatality.get("permanent"):
            parts.append(f"{name}: {fatality.get('state')} in {fatality.get('turns')} turns")
    return "  ".join(parts)


def vitals(view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
    stats: list[Stat] = []
    marks: list[str] = []
    for key in _KNOWN:
        cur, orig = number(view, key), number(view, f"{key}_original")
        if cur is None:
            continue
        injured = orig is not None and cur < orig
        stats.append(Stat(key.upper(), f"{cur}/{orig} injured" if injured else str(cur), alert=injured))
    # Only the GM's view carries the unknown stats; the player projection has no such field.
    for name, us in sorted((view.get("unknown_stats") or {}).items()):
        cur, orig = us.get("current"), us.get("original")
        stats.append(Stat(f"US {name} ({us.get('ks')})", f"{cur}/{orig}", alert=cur != orig, secret=True))
    if view.get("injured"):
        marks.append("injured")
    return Vitals((), tuple(stats), tuple(marks), _line(view))


def standing(state: GameState[Any], actor: str) -> Standing:
    c = state.characters[actor]
    health = int(c.ks["BU"].current)
    if c.permanently_dead:
        return Standing("dead", True, health)
    names = {x.name for x in state.conditions_of(actor)}
    if "death" in names or health <= 0:
        return Standing("dying", True, health)
    if names & _DOWN:
        return Standing("unconscious", True, health)
    return Standing("wounded" if c.is_injured else "unhurt", "paralysis" in names, health)


def odds(values: Mapping[str, Any]) -> Odds:
    from rulekeeper.core.arc import ArcThreshold
    from rulekeeper.core.check import Modifier
    from rulekeeper.errors import InputError

    if values.get("target") is None:
        raise InputError("an ARC needs a target (KS+US)", expected="check 6810 8 --threshold 6")
    if values.get("threshold") is None:
        raise InputError("an ARC needs a threshold", expected="check 6810 8 --threshold 6")
    modifier = int(values.get("modifier") or 0)
    mods = (Modifier(modifier, "GM modifier"),) if modifier else ()
    check = ArcThreshold(
        kind="vi-viii-x.arc",
        label="ARC",
        stats=int(values["target"]),
        threshold=int(values["threshold"]),
        modifiers=mods,
    )
    # Each face judged by the check itself, so the chart and the odds share one success rule.
    results: dict[tuple[int, bool], Fraction] = {}
    for face in range(1, check.table.sides + 1):
        judged = check.judge(face)
        key = (judged.total, judged.success)
        results[key] = results.get(key, Fraction(0)) + Fraction(1, check.table.sides)
    return Odds(check, tuple((f"{total:>3} {'S' if ok else 'F'}", p) for (total, ok), p in sorted(results.items())))


class ViViiiXPresentation:
    """The answers a VI·VIII·X ruleset gives the front ends (mixed into ``ViViiiXRuleset``)."""

    odds_params = ODDS_PARAMS
    vitals = staticmethod(vitals)
    standing = staticmethod(standing)
    odds = staticmethod(odds)
    combat = ViViiiXCombat
