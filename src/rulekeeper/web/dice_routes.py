"""What needs no campaign: the systems and their actions, dice, exact odds, checks, calculators."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request

from rulekeeper.core import get_ruleset, system_names
from rulekeeper.core.action import ParamSpec
from rulekeeper.web.problems import PROBLEM_RESPONSES

__all__ = ["router"]

router = APIRouter(responses=PROBLEM_RESPONSES, tags=["dice and rules"])
Expr = Annotated[str, Query(min_length=1, max_length=200, description="Dice notation, e.g. 3d6, 2d+1, 4d6kh3.")]
System = Annotated[
    str, Path(min_length=1, max_length=50, description="A game system's name or alias (see /api/systems).")
]
Small = Annotated[int | None, Query(ge=-1000, le=1000)]


def _param_json(p: ParamSpec) -> dict[str, Any]:
    return {
        "name": p.name,
        "kind": p.kind,
        "help": p.help,
        "required": p.required,
        "default": list(p.default) if isinstance(p.default, tuple) else p.default,
        "choices": list(p.choices),
        "minimum": p.minimum,
        "maximum": p.maximum,
        "expected": p.expected,
        "gm_only": p.gm_only,
        "names_character": p.names_character,
        "overrides_rules": p.overrides_rules,
    }


@router.get("/api/systems")
def systems() -> list[dict[str, Any]]:
    """Every game system: its actions with their parameters, check kinds, rule options, rests."""
    out = []
    for name in system_names():
        ruleset = get_ruleset(name)
        out.append(
            {
                "name": ruleset.name,
                "title": ruleset.title,
                "aliases": list(ruleset.aliases),
                "round_seconds": ruleset.round_seconds,
                "actions": [
                    {
                        "name": spec.name,
                        "help": spec.help,
                        "kind": spec.kind,
                        "actor": spec.actor,
                        "params": [_param_json(p) for p in spec.params],
                    }
                    for spec in ruleset.actions().values()
                ],
                "check_kinds": dict(ruleset.check_kinds),
                "rule_options": [_param_json(p) for p in ruleset.rule_options],
                "rest_kinds": list(ruleset.rest_kinds),
                "odds_params": [_param_json(p) for p in ruleset.odds_params],
                "calculators": [
                    {"name": c.name, "help": c.help, "params": [_param_json(p) for p in c.params]}
                    for c in ruleset.calculators().values()
                ],
            }
        )
    return out


@router.get("/api/roll")
def roll(expr: Expr, seed: Annotated[int | None, Query(ge=-(2**63), lt=2**63)] = None) -> dict[str, Any]:
    """Roll dice; every die is shown. ``seed`` makes the roll reproducible."""
    from rulekeeper.dice import SeededSource
    from rulekeeper.dice import roll as roll_dice

    result: dict[str, Any] = roll_dice(expr, SeededSource(seed)).to_json()
    return result


@router.get("/api/odds")
def odds(
    expr: Expr,
    at_least: Annotated[int | None, Query(ge=-(10**6), le=10**6)] = None,
    at_most: Annotated[int | None, Query(ge=-(10**6), le=10**6)] = None,
) -> dict[str, Any]:
    """The exact distribution of a dice expression, with at-least/at-most probabilities."""
    from rulekeeper.dice import parse
    from rulekeeper.dice.exact_odds import odds_json

    return odds_json(parse(expr), at_least, at_most)


@router.get("/api/check/{system}")
def check(
    system: System,
    request: Request,
    target: Small = None,
    modifier: Annotated[int, Query(ge=-100, le=100)] = 0,
) -> dict[str, Any]:
    """Exact odds of one of the system's checks: ``target`` and ``modifier``, and the system's own
    parameters (``/api/systems`` lists them as ``odds_params``) as further query parameters."""
    from rulekeeper.core.odds import odds_values

    ruleset = get_ruleset(system)
    raw = {**request.query_params, "target": target, "modifier": modifier or None}
    odds = ruleset.odds(odds_values(ruleset, raw, f"check {ruleset.name}"))
    p = odds.check.probability()
    crit = odds.check.critical_probability()
    return {
        "system": ruleset.name,
        "check": odds.check.describe(),
        "probability": float(p),
        "probability_exact": str(p),
        "critical_probability": None if crit is None else float(crit),
    }


@router.post("/api/systems/{system}/calculators/{name}")
def calculate(
    system: System,
    name: Annotated[str, Path(min_length=1, max_length=50, description="Calculator name (see /api/systems).")],
    params: Annotated[dict[str, Any], Body(description="The calculator's parameters (see /api/systems).")],
) -> dict[str, Any]:
    """A rule calculator that needs no campaign (a jump, a fall, a lift ...)."""
    from rulekeeper.core import validate_params
    from rulekeeper.errors import UnknownNameError

    ruleset = get_ruleset(system)
    calculators = ruleset.calculators()
    calc = calculators.get(name) or calculators.get(name.replace("-", "_")) or calculators.get(name.replace("_", "-"))
    if calc is None:
        raise UnknownNameError(
            f"unknown {ruleset.name} calculator {name!r}", expected="one of " + ", ".join(sorted(calculators))
        )
    values = validate_params(calc.params, params, f"{ruleset.name} {calc.name}")
    calculation = calc.compute(values)
    return {
        "system": ruleset.name,
        "calculator": calc.name,
        "params": values.as_json(),
        "values": dict(calculation.values),
        "explanation": [
            {"text": s.text, "actor": s.actor, "roll": s.roll, "rule": str(s.rule)} for s in calculation.steps
        ],
    }
