"""Subcommands generated from a ruleset's action definitions (``damage``, ``fall``, ``rest`` ...).

Nothing here is written per system: each :class:`~rulekeeper.core.ActionSpec` becomes a Typer
command whose options come from its parameter specs, so a new rule shows up in the CLI, with
``--help`` and completion, the moment its ruleset declares it.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context
    from rulekeeper.core import ActionSpec, ParamSpec

__all__ = ["build_action_command", "parse_typed_dice", "positional_param"]

_TYPES: dict[str, type] = {"int": int, "float": float, "bool": bool}


def positional_param(spec: ActionSpec) -> ParamSpec | None:
    """A rest's ``kind`` reads best as a word after the command (``rest night toromeen``)."""
    if spec.kind != "rest":
        return None
    for p in spec.params:
        if p.name == "kind" and p.kind == "choice":
            return p
    return None


def parse_typed_dice(text: str | None) -> list[int] | None:
    if text is None:
        return None
    from rulekeeper.errors import InputError

    try:
        return [int(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise InputError(f"cannot read dice {text!r}", expected="comma-separated die values such as 4,6,2") from None


def _help(p: ParamSpec) -> str:
    text = p.help or p.name.replace("_", " ")
    if p.kind == "choice":
        text += f" [{'|'.join(p.choices)}]"
    elif p.kind not in ("int", "float", "bool", "str"):
        text += f" ({p.expected})"
    if p.default is not None and p.kind != "bool":
        text += f" (default {p.default})"
    return text


def build_action_command(spec: ActionSpec, context: Context) -> Callable[..., None]:
    """A function with a synthetic signature that Typer turns into the action's command."""
    positional = positional_param(spec)
    params: list[inspect.Parameter] = []
    annotations: dict[str, Any] = {}

    def add(name: str, annotation: Any, default: Any) -> None:
        params.append(inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default))
        annotations[name] = annotation

    if positional is not None:
        add(positional.name, str | None, typer.Argument(None, help=_help(positional), show_default=False))
    if spec.actor != "none":
        add("actor", str | None, typer.Argument(None, help="Character id.", show_default=False))
    for p in spec.params:
        if p is positional:
            continue
        flag = "--" + p.name.replace("_", "-")
        if p.kind == "bool":
            add(p.name, bool | None, typer.Option(None, f"{flag}/--no-{p.name.replace('_', '-')}", help=_help(p)))
        else:
            add(p.name, _TYPES.get(p.kind, str) | None, typer.Option(None, flag, help=_help(p), show_default=False))
    # Leading underscores keep these clear of any action parameter name (W&G and GURPS damage take `dice`).
    add(
        "_rolled",
        str | None,
        typer.Option(None, "--rolled", help="Dice rolled at the table for this action, e.g. 4,6,2."),
    )
    add("_base_version", int | None, typer.Option(None, "--base-version", help="Refuse if the campaign has moved on."))
    add(
        "_key", str | None, typer.Option(None, "--key", help="Idempotency key: a retry with the same key applies once.")
    )
    add("_as_json", bool, typer.Option(False, "--json", help="Machine-readable JSON output."))
    add("_explain", bool, typer.Option(False, "--explain", help="Full rule citations instead of short tags."))

    def command(**values: Any) -> None:
        from rulekeeper.cli.play_commands import run_action

        if positional is not None:
            # `rest ingrid night` means `rest night ingrid`: the kind is whichever word is one.
            kind, actor = values.get(positional.name), values.get("actor")
            choices = {c.casefold(): c for c in positional.choices}
            if isinstance(actor, str) and actor.casefold() in choices and (kind is None or kind not in choices):
                values = {**values, positional.name: choices[actor.casefold()], "actor": kind}
            elif isinstance(kind, str) and kind.casefold() in choices:
                values = {**values, positional.name: choices[kind.casefold()]}
        raw = {p.name: values.get(p.name) for p in spec.params if values.get(p.name) is not None}
        context.explain = context.explain or bool(values.get("_explain"))
        run_action(
            context,
            spec.name,
            values.get("actor"),
            raw,
            dice=parse_typed_dice(values.get("_rolled")),
            base_version=values.get("_base_version"),
            key=values.get("_key"),
            as_json=bool(values.get("_as_json")),
        )

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = annotations
    command.__doc__ = spec.help
    command.__name__ = spec.name.replace("-", "_")
    return command
