"""What an action command takes on the command line, derived once from its :class:`ActionSpec`.

The Typer command (``cli/action_commands.py``) and the quick path (``cli/quick.py``) are both
built from :func:`action_params` and both run :func:`run_action_command`, so an action reads and
does the same whichever of them serves it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.grammar import Param

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context
    from rulekeeper.core import ActionSpec, ParamSpec

__all__ = ["action_params", "positional_param", "run_action_command"]

_KINDS = {"int": "int", "float": "float", "bool": "switch"}


def positional_param(spec: ActionSpec) -> ParamSpec | None:
    """A rest's ``kind`` reads best as a word after the command (``rest night toromeen``)."""
    if spec.kind != "rest":
        return None
    for p in spec.params:
        if p.name == "kind" and p.kind == "choice":
            return p
    return None


def _help(p: ParamSpec) -> str:
    text = p.help or p.name.replace("_", " ")
    if p.kind == "choice":
        text += f" [{'|'.join(p.choices)}]"
    elif p.kind not in ("int", "float", "bool", "str"):
        text += f" ({p.expected})"
    if p.default is not None and p.kind != "bool":
        text += f" (default {p.default})"
    return text


def action_params(spec: ActionSpec) -> tuple[Param, ...]:
    """The action's arguments and options, in the order ``--help`` lists them."""
    positional = positional_param(spec)
    params: list[Param] = []
    if positional is not None:
        params.append(Param(positional.name, help=_help(positional)))
    if spec.actor != "none":
        params.append(Param("actor", help="Character id."))
    for p in spec.params:
        if p is positional:
            continue
        flag = "--" + p.name.replace("_", "-")
        kind = _KINDS.get(p.kind, "str")
        off = (f"--no-{p.name.replace('_', '-')}",) if kind == "switch" else ()
        params.append(Param(p.name, flag, kind=kind, off_flags=off, help=_help(p)))
    # Leading underscores keep these clear of any action parameter name (a damage action may take `dice`).
    params += [
        Param("_rolled", "--rolled", help="Dice rolled at the table for this action, e.g. 4,6,2 or 4 6 2 or 4+6+2."),
        Param("_base_version", "--base-version", kind="int", help="Refuse if the campaign has moved on."),
        Param("_key", "--key", help="Idempotency key: a retry with the same key applies once."),
        Param("_as_json", "--json", kind="flag", help="Machine-readable JSON output."),
        Param("_explain", "--explain", kind="flag", help="Full rule citations instead of short tags."),
    ]
    return tuple(params)


def run_action_command(spec: ActionSpec, context: Context, values: Mapping[str, Any]) -> None:
    """Run the action with the values its command line gave (keyed by :func:`action_params` names)."""
    from rulekeeper.cli.play_commands import run_action

    positional = positional_param(spec)
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
        dice=values.get("_rolled"),  # read by the campaign, as the API's and the pages' are
        base_version=values.get("_base_version"),
        key=values.get("_key"),
        as_json=bool(values.get("_as_json")),
    )
