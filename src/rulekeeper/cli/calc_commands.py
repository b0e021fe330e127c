"""Commands that need no campaign: ``check`` odds for each system and ``feat`` calculators."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rulekeeper.cli.dice_commands import bar_chart, percent
from rulekeeper.cli.output import console, emit_json
from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_CHECK_NUMBER, MAX_POOL

__all__ = ["check_command", "feat_command", "parse_extra_options"]


def parse_extra_options(args: Sequence[str]) -> dict[str, Any]:
    """``["--basic-move", "6", "--running"]`` -> ``{"basic_move": "6", "running": "true"}``."""
    out: dict[str, Any] = {}
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg.startswith("--") or len(arg) == 2:
            raise InputError(f"unexpected {arg!r}", expected="--name value pairs, e.g. --basic-move 6")
        name, sep, value = arg[2:].partition("=")
        if not sep:
            if i + 1 < len(args) and not args[i + 1].startswith("--"):
                value = args[i + 1]
                i += 1
            else:
                value = "true"
        out[name.replace("-", "_")] = value
        i += 1
    return out


def feat_command(system: str, name: str | None, extra: Sequence[str], *, as_json: bool) -> None:
    from rulekeeper.core import get_ruleset, validate_params

    ruleset = get_ruleset(system)
    calculators = ruleset.calculators()
    if name is None or name in ("-h", "--help", "help"):
        out = console()
        out.print(f"Calculators for {ruleset.name} (rulekeeper feat {ruleset.name} NAME --param value):")
        for calc in calculators.values():
            params = " ".join(f"--{p.name.replace('_', '-')}" for p in calc.params)
            out.print(f"  {calc.name:<18} {calc.help}  [{params}]", highlight=False)
        return
    found = calculators.get(name) or calculators.get(name.replace("-", "_")) or calculators.get(name.replace("_", "-"))
    if found is None:
        raise InputError(
            f"unknown {ruleset.name} calculator {name!r}", expected="one of " + ", ".join(sorted(calculators))
        )
    calc = found
    raw = parse_extra_options(extra)
    if raw.pop("help", None) is not None:
        out = console()
        out.print(f"{calc.name}: {calc.help}")
        for p in calc.params:
            req = " (required)" if p.required else ""
            out.print(f"  --{p.name.replace('_', '-'):<20} {p.help} — {p.expected}{req}", highlight=False)
        return
    values = validate_params(calc.params, raw, f"feat {ruleset.name} {calc.name}")
    calculation = calc.compute(values)
    if as_json:
        from rulekeeper.cli.render import step_json

        emit_json(
            {
                "system": ruleset.name,
                "feat": calc.name,
                "params": dict(values),
                "values": dict(calculation.values),
                "explanation": [step_json(s) for s in calculation.steps],
            }
        )
        return
    from rulekeeper.cli.render import print_steps

    out = console()
    for key, value in calculation.values.items():
        out.print(f"[bold]{key}[/bold]: {value}", highlight=False)
    print_steps(calculation.steps)


def _gurps(target: int, modifier: int) -> tuple[Any, list[tuple[str, Fraction]]]:
    from rulekeeper.core import Modifier, SuccessRoll
    from rulekeeper.core.success_roll import THREE_D6, judge_success_roll

    mods = (Modifier(modifier, "modifier"),) if modifier else ()
    check = SuccessRoll(kind="gurps.skill", label="Skill", base=target, modifiers=mods)
    rows = []
    for roll, ways in THREE_D6.items():
        ok, crit = judge_success_roll(roll, check.effective)
        tag = ("crit " if crit.value != "none" else "") + ("S" if ok else "F")
        rows.append((f"{roll:>2} {tag:>6}", Fraction(ways, 216)))
    return check, rows


def _short(number: int) -> str:
    text = str(number) if abs(number) < 10**30 else f"a number of {len(str(abs(number)))} digits"
    return text


def _check_bounds(**numbers: int | None) -> None:
    for name, value in numbers.items():
        if value is not None and abs(value) > MAX_CHECK_NUMBER:
            raise InputError(
                f"{name} {_short(value)} is out of range",
                expected=f"a {name} from -{MAX_CHECK_NUMBER:,} to {MAX_CHECK_NUMBER:,} (docs/limits.md)",
            )


def check_command(
    system: str,
    target: int | None,
    *,
    modifier: int,
    pool: int | None,
    dn: int,
    wrath_dice: int,
    threshold: int | None,
    as_json: bool,
) -> None:
    from rulekeeper.core import ArcThreshold, Modifier, PoolTest, RollUnder, canonical_system_name
    from rulekeeper.core.dice_pool import pool_distribution

    name = canonical_system_name(system)
    _check_bounds(target=target, modifier=modifier, dn=dn, threshold=threshold)
    rows: list[tuple[str, Fraction]]
    check: Any
    if name == "wrath-and-glory":
        if pool is None:
            raise InputError("a Wrath & Glory check needs a pool", expected="check wg --pool 6 --dn 4")
        if modifier:
            # A W&G test is modified by dice or by DN, never by a target number: say which, rather than guess.
            raise InputError(
                f"-m {modifier} has no meaning for a Wrath & Glory pool test",
                expected=f"--dn {max(0, dn + modifier)} for a harder or easier test, "
                f"or --pool {max(1, pool + modifier)} for bonus or lost dice",
            )
        if not (1 <= pool <= MAX_POOL and dn >= 0 and 0 <= wrath_dice <= MAX_POOL):
            raise InputError(
                f"pool {_short(pool)}, DN {_short(dn)}, {_short(wrath_dice)} Wrath dice",
                expected=f"a pool of 1 to {MAX_POOL} dice, DN 0+, 0 to {MAX_POOL} Wrath dice (docs/limits.md)",
            )
        check = PoolTest(kind="wg.test", label="Test", pool=pool, dn=dn, wrath_dice=wrath_dice)
        rows = [(f"{icons:>2} icons", p) for icons, p in sorted(pool_distribution(check.dice_count).items())]
    elif target is None:
        raise InputError(f"a {name} check needs a target", expected=f"check {system} 12")
    elif pool is not None:
        raise InputError(f"--pool is for Wrath & Glory; a {name} check takes a target", expected=f"check {system} 12")
    elif name == "gurps":
        check, rows = _gurps(target, modifier)
    elif name == "gods-and-monsters":
        mods = (Modifier(modifier, "modifier"),) if modifier else ()
        check = RollUnder(kind="gm.roll", label="Roll", score=target, modifiers=mods)
        rows = [(f"{r:>2} {'S' if check.succeeds_on(r) else 'F'}", Fraction(1, 20)) for r in range(1, 21)]
    else:
        if threshold is None:
            raise InputError("an ARC needs a threshold", expected="check 6810 8 --threshold 6")
        mods = (Modifier(modifier, "GM modifier"),) if modifier else ()
        check = ArcThreshold(kind="6810.arc", label="ARC", stats=target, threshold=threshold, modifiers=mods)
        # Each face judged by the check itself, so the chart and the odds share one success rule.
        results: dict[tuple[int, bool], Fraction] = {}
        for face in range(1, check.table.sides + 1):
            judged = check.judge(face)
            key = (judged.total, judged.success)
            results[key] = results.get(key, Fraction(0)) + Fraction(1, check.table.sides)
        rows = [(f"{total:>3} {'S' if ok else 'F'}", p) for (total, ok), p in sorted(results.items())]
    p_success = check.probability()
    crit = check.critical_probability()
    if as_json:
        emit_json(
            {
                "system": name,
                "check": check.describe(),
                "probability": float(p_success),
                "probability_exact": str(p_success),
                "critical_probability": None if crit is None else float(crit),
                "distribution": [{"label": label.strip(), "p": float(p)} for label, p in rows],
            }
        )
        return
    lines = [check.describe(), f"success: {p_success} = {percent(p_success)}"]
    if crit is not None:
        lines.append(f"critical: {percent(crit)}")
    if name == "gurps":
        lines.append(f"critical failure: {percent(check.critical_failure_probability())}")
    lines.extend(bar_chart(rows))
    sys.stdout.write("\n".join(lines) + "\n")
