"""The Typer application: every command except the fast ``roll`` path lands here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from rulekeeper.cli.errors import report_error

__all__ = ["app", "run_app"]

app = typer.Typer(
    name="rulekeeper",
    help="Rules engine and game-master companion for GURPS, Gods & Monsters, Wrath & Glory and VI·VIII·X.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
scenario_app = typer.Typer(help="Run replayable scenario files.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


@app.command()
def roll(
    expr: Annotated[str, typer.Argument(help="Dice notation, e.g. 3d6, 2d+1, 4d6kh3, 6d6[icons].")],
    seed: Annotated[int | None, typer.Option(help="Seed for reproducible dice.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll dice and show every die."""
    from rulekeeper.cli.dice_commands import roll_command

    roll_command(expr, seed=seed, as_json=as_json)


@app.command()
def odds(
    expr: Annotated[str, typer.Argument(help="Dice notation, e.g. 3d6 or 6d6[icons].")],
    at_least: Annotated[int | None, typer.Option("--at-least", help="Probability of at least this total.")] = None,
    at_most: Annotated[int | None, typer.Option("--at-most", help="Probability of at most this total.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact distribution of a dice expression, with a bar chart."""
    from rulekeeper.cli.dice_commands import odds_command

    if at_least is not None and at_most is not None:
        from rulekeeper.errors import InputError

        raise InputError("give --at-least or --at-most, not both", expected="one of the two options")
    odds_command(expr, at_least=at_least, at_most=at_most, as_json=as_json)


@scenario_app.command("run")
def scenario_run(
    files: Annotated[list[str], typer.Argument(help="Scenario files (YAML or JSON).")],
    as_json: JsonOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every explained step.")] = False,
) -> None:
    """Run scenario files: exit 0 if every expectation held, 1 if one failed, 2 if a file is invalid."""
    from rulekeeper.cli.scenario_commands import run_scenarios

    code = run_scenarios(files, as_json=as_json, verbose=verbose)
    if code:
        raise typer.Exit(code)


def run_app(args: Sequence[str]) -> int:
    """Run the Typer app and turn every outcome into an exit code (usage errors are 2)."""
    try:
        app(args=list(args), prog_name="rulekeeper")
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:
        return report_error(exc)
    return 0
