"""Commands that need no campaign: ``check`` odds and ``feat`` calculators, as each ruleset declares them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rulekeeper.cli.dice_commands import bar_chart, percent
from rulekeeper.cli.output import console, emit_json
from rulekeeper.errors import InputError

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


def check_command(system: str, target: str | None, *, modifier: int, extra: Sequence[str], as_json: bool) -> None:
    """Exact odds of one of ``system``'s checks; each system declares what its odds take."""
    from rulekeeper.core import get_ruleset
    from rulekeeper.core.odds import odds_values

    ruleset = get_ruleset(system)
    raw: dict[str, Any] = {**parse_extra_options(extra), "target": target, "modifier": modifier or None}
    odds = ruleset.odds(odds_values(ruleset, raw, f"check {ruleset.name}"))
    check = odds.check
    p_success = check.probability()
    crit = check.critical_probability()
    if as_json:
        emit_json(
            {
                "system": ruleset.name,
                "check": check.describe(),
                "probability": float(p_success),
                "probability_exact": str(p_success),
                "critical_probability": None if crit is None else float(crit),
                "distribution": [{"label": label.strip(), "p": float(p)} for label, p in odds.rows],
            }
        )
        return
    lines = [check.describe(), f"success: {p_success} = {percent(p_success)}"]
    if crit is not None:
        lines.append(f"critical: {percent(crit)}")
    lines.extend(f"{label}: {percent(p)}" for label, p in odds.extra)
    lines.extend(bar_chart(list(odds.rows)))
    sys.stdout.write("\n".join(lines) + "\n")
