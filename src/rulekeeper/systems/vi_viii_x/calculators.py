"""Rules usable without a campaign: ``feat vi-viii-x fall --metres 6``, ``jump``, ``starvation``,
``literacy`` and ``arc-odds``. Each uses the same pure functions as the actions."""

from __future__ import annotations

from fractions import Fraction

from rulekeeper.core.action import Calculation, CalculatorSpec, ParamSpec
from rulekeeper.core.arc import ArcOpposed, ArcThreshold
from rulekeeper.core.check import Modifier
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.section import Section
from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import Burden
from rulekeeper.systems.vi_viii_x.checks import parse_table, parse_threshold, threshold_name
from rulekeeper.systems.vi_viii_x.deprivation import GRACE_DAYS, NEEDS, deprivation_table
from rulekeeper.systems.vi_viii_x.falling import fall_result
from rulekeeper.systems.vi_viii_x.jumping import jump_distances
from rulekeeper.systems.vi_viii_x.literacy import LITERACY, literacy_level
from rulekeeper.systems.vi_viii_x.rules import ARC, DEHYDRATION, FALLING, JUMP, STARVATION
from rulekeeper.systems.vi_viii_x.rules import LITERACY as LITERACY_RULE

__all__ = ["CALCULATORS_SECTION", "calculators"]


def _fall(params: Params) -> Calculation:
    threshold = None if params.opt_str("threshold") is None else parse_threshold(params.opt_str("threshold"))
    r = fall_result(params.int("metres"), params.opt_int("result"), threshold)
    steps = [
        Step(f"a fall of {r.metres} m does {r.base} damage (1 a metre from the third on)", FALLING),
        Step(f"Body Control ARCT threshold: {threshold_name(r.threshold)}", FALLING),
    ]
    if params.opt_int("result") is not None:
        steps.append(
            Step(f"an ARC result of {params.opt_int('result')} takes off {r.relief}: {r.damage} damage", FALLING)
        )
    values = {"metres": r.metres, "base_damage": r.base, "threshold": r.threshold, "relief": r.relief}
    return Calculation(values={**values, "damage": r.damage}, steps=tuple(steps))


def _jump(params: Params) -> Calculation:
    burden = Burden(params.str("burden"))
    d = jump_distances(params.int("agility"), burden)
    if d is None:
        step = Step(f"with a {burden.value} burden no jump is possible", JUMP)
        return Calculation({"can_jump": False, "running": None, "standing": None}, (step,))
    step = Step(
        f"agility {params.int('agility')}, {burden.value} burden: running {d.running:g} m, standing {d.standing:g} m",
        JUMP,
    )
    return Calculation({"can_jump": True, "running": d.running, "standing": d.standing}, (step,))


def _starvation(params: Params) -> Calculation:
    need = params.str("need")
    rule = STARVATION if need == "food" else DEHYDRATION
    rows = deprivation_table(need, params.int("days"), params.int("bu"), params.int("vig"))
    steps = [Step(f"no harm for the first {GRACE_DAYS[need]} days without {need}", rule)]
    steps += [Step(f"day {r.day}: {r.damage} damage -> VIG {r.us}, BU {r.bu}", rule) for r in rows if r.damage]
    table = [{"day": r.day, "damage": r.damage, "vig": r.us, "bu": r.bu} for r in rows]
    last = rows[-1] if rows else None
    values = {"days": table, "vig": last.us if last else params.int("vig"), "bu": last.bu if last else params.int("bu")}
    return Calculation(values, tuple(steps))


def _literacy(params: Params) -> Calculation:
    row = literacy_level(params.int("level"))
    values = {
        "level": row.level,
        "description": row.description,
        "described_by_seed": row.described_by_seed,
        "scale": {n: r.description for n, r in LITERACY.items()},
    }
    return Calculation(values, (Step(f"Education literature {row.level}: {row.description}", LITERACY_RULE),))


def _arc_odds(params: Params) -> Calculation:
    table = parse_table(params.opt_ints("table"))
    mods = []
    if params.int("gm_modifier"):
        mods.append(Modifier(params.int("gm_modifier"), "GM modifier"))
    if params.int("fatigue"):
        mods.append(Modifier(-params.int("fatigue"), "fatigued"))
    threshold, opponent = params.opt_str("threshold"), params.opt_int("opponent_stats")
    check: ArcThreshold | ArcOpposed
    if threshold is not None and opponent is None:
        check = ArcThreshold(
            "vi-viii-x.arc", "ARCT", params.int("stats"), parse_threshold(threshold), tuple(mods), table
        )
    elif opponent is not None and threshold is None:
        check = ArcOpposed("vi-viii-x.arc", "ARCO", params.int("stats"), opponent, tuple(mods), (), table)
    else:
        raise InputError("give a threshold or the opponent's stats", expected="--threshold or --opponent-stats")
    p: Fraction = check.probability()
    values = {
        "probability": float(p),
        "exact": f"{p.numerator}/{p.denominator}",
        "table": table.name,
        "description": check.describe(),
    }
    return Calculation(values, (Step(f"{check.describe()}: {float(p):.1%} to succeed ({table.name})", ARC),))


def calculators() -> dict[str, CalculatorSpec]:
    return {
        "fall": CalculatorSpec(
            "fall",
            "Falling damage and the Body Control relief",
            _fall,
            (
                ParamSpec("metres", "int", "height of the fall in metres", required=True, minimum=0, maximum=10_000),
                ParamSpec("result", "int", "the Body Control ARC result, if rolled"),
                ParamSpec("threshold", "str", "threshold instead of the 3-metre band (a number or a name)"),
            ),
            FALLING,
        ),
        "jump": CalculatorSpec(
            "jump",
            "Longest running and standing jumps by burden",
            _jump,
            (
                ParamSpec("agility", "int", "the character's agility", required=True, minimum=0, maximum=30),
                ParamSpec("burden", "choice", "burden rank", default="none", choices=tuple(b.value for b in Burden)),
            ),
            JUMP,
        ),
        "starvation": CalculatorSpec(
            "starvation",
            "Day-by-day damage without food or water",
            _starvation,
            (
                ParamSpec("days", "int", "days without food or water", required=True, minimum=0, maximum=365),
                ParamSpec("bu", "int", "current BU", required=True, minimum=1, maximum=10),
                ParamSpec("vig", "int", "current VIG (BU's unknown stat)", default=0, minimum=0, maximum=10),
                ParamSpec("need", "choice", "what is missing", default="food", choices=NEEDS),
            ),
            STARVATION,
        ),
        "literacy": CalculatorSpec(
            "literacy",
            "What an Education literature score means",
            _literacy,
            (ParamSpec("level", "int", "skill score (0: no skill)", required=True, minimum=0, maximum=10),),
            LITERACY_RULE,
        ),
        "arc-odds": CalculatorSpec(
            "arc-odds",
            "Exact chance of an ARC against a threshold or an opponent",
            _arc_odds,
            (
                ParamSpec("stats", "int", "KS + US (plus other additions)", required=True, minimum=-20, maximum=40),
                ParamSpec("threshold", "str", "ARCT threshold (a number or a name such as easy)"),
                ParamSpec("opponent_stats", "int", "ARCO: the opponent's KS + US", minimum=-20, maximum=40),
                ParamSpec("gm_modifier", "int", "GM modifier", default=0, minimum=-10, maximum=10),
                ParamSpec("fatigue", "int", "fatigue level", default=0, minimum=0, maximum=20),
                ParamSpec("table", "ints", "roll-modifier table, one value per die face (default the placeholder)"),
            ),
            ARC,
        ),
    }


#: What the table can work out without a campaign.
CALCULATORS_SECTION = Section("calculators", calculators=calculators())
