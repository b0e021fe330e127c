"""Subcommands generated from a ruleset's action definitions (``damage``, ``fall``, ``rest`` ...).

Nothing here is written per system: each :class:`~rulekeeper.core.ActionSpec` becomes a Typer
command whose arguments and options are its :func:`~rulekeeper.cli.action_grammar.action_params`,
so a new rule shows up in the CLI, with ``--help`` and completion, the moment its ruleset
declares it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

from rulekeeper.cli.action_grammar import action_params, run_action_command

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context
    from rulekeeper.cli.grammar import Param
    from rulekeeper.core import ActionSpec

__all__ = ["build_action_command"]

_TYPES: dict[str, type] = {"int": int, "float": float}


def _typer_param(p: Param) -> tuple[Any, Any]:
    """The annotation and the Typer default that declare ``p``."""
    if not p.flags:
        return str | None, typer.Argument(None, help=p.help, show_default=False)
    if p.kind == "flag":
        return bool, typer.Option(False, *p.flags, help=p.help)
    if p.kind == "switch":
        return bool | None, typer.Option(None, f"{p.flags[0]}/{p.off_flags[0]}", help=p.help)
    return _TYPES.get(p.kind, str) | None, typer.Option(None, *p.flags, help=p.help, show_default=False)


def build_action_command(spec: ActionSpec, context: Context) -> Callable[..., None]:
    """A function with a synthetic signature that Typer turns into the action's command."""
    params: list[inspect.Parameter] = []
    annotations: dict[str, Any] = {}
    for p in action_params(spec):
        annotation, default = _typer_param(p)
        params.append(inspect.Parameter(p.dest, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
        annotations[p.dest] = annotation

    def command(**values: Any) -> None:
        run_action_command(spec, context, values)

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = annotations
    command.__doc__ = spec.help
    command.__name__ = spec.name.replace("-", "_")
    return command
