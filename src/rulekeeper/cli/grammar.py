"""The argument grammar of the commands served without Typer, and a strict reader for it.

Typer's command tree costs more to import and build than a table command costs to run, so the
commands typed most at the table are read here instead (``cli/quick.py``). This reader accepts
only the plain forms (``--name value``, ``--name=value``, ``-c value``, flags, positional words)
and answers None for anything else -- ``--help``, ``--``, an unknown or repeated-looking option, a
missing or odd value -- so that Typer reads it and its help, errors and edge cases stay the only
ones. Whatever it does accept, it reads exactly as Click would; a test holds every grammar here
against the Typer definition of the same command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["BUILTIN_COMMANDS", "ROOT_OPTIONS", "Param", "read_args", "split_root"]

#: Every command the Typer app defines itself; any other word is one of the campaign system's actions.
BUILTIN_COMMANDS = frozenset(
    {
        "roll",
        "actions",
        "odds",
        "check",
        "feat",
        "scenario",
        "campaign",
        "char",
        "pending",
        "resolve",
        "round",
        "advance",
        "log",
        "undo",
        "redo",
        "demo",
        "serve",
        "simulate",
        "status",
        "play",
        "requests",
        "approve",
        "decline",
        "set-aside",
        "retry",
        "drop",
    }
)


class Param:
    """One argument or option of a command.

    ``flags`` empty means a positional argument. ``kind`` is ``str``, ``int`` or ``float`` for a
    value, ``flag`` for an on-only switch (default False) or ``switch`` for an on/off pair whose
    ``off_flags`` turn it off (default None: the rules decide).
    """

    __slots__ = ("default", "dest", "flags", "help", "kind", "off_flags", "required")

    def __init__(
        self,
        dest: str,
        *flags: str,
        kind: str = "str",
        default: Any = None,
        off_flags: tuple[str, ...] = (),
        required: bool = False,
        help: str = "",
    ) -> None:
        self.dest = dest
        self.flags = flags
        self.kind = kind
        self.default = False if kind == "flag" and default is None else default
        self.off_flags = off_flags
        self.required = required
        self.help = help

    def __repr__(self) -> str:
        return f"Param({self.dest!r}, {', '.join(map(repr, self.flags))}, kind={self.kind!r})"


#: The app's global options, read before the command word (Typer's root callback).
ROOT_OPTIONS = (
    Param("db", "--db"),
    Param("campaign", "--campaign", "-c"),
    Param("explain", "--explain", kind="flag"),
)
#: Where a global option is taken from when it is not given (Click ignores an empty variable).
ROOT_ENVVARS = {"db": "RULEKEEPER_DB", "campaign": "RULEKEEPER_CAMPAIGN"}


def _number(kind: str, text: str) -> int | float | None:
    """``text`` as Click's INT or FLOAT reads it, for plain ASCII numbers only (None: leave it to Click)."""
    digits = text[1:] if text.startswith("-") else text
    if kind == "int":
        return int(text) if digits.isascii() and digits.isdigit() and len(digits) <= 30 else None
    whole, _, fraction = digits.partition(".")
    plain = whole.isascii() and whole.isdigit() and (not fraction or (fraction.isascii() and fraction.isdigit()))
    return float(text) if plain and len(digits) <= 30 else None


def _value(param: Param, text: str) -> Any:
    if param.kind in ("int", "float"):
        return _number(param.kind, text)
    return text


def read_args(params: Sequence[Param], args: Sequence[str]) -> dict[str, Any] | None:
    """The values of ``params`` given ``args`` (defaults for the rest), or None to leave it to Typer."""
    values = {p.dest: p.default for p in params}
    by_flag: dict[str, tuple[Param, bool]] = {}
    for p in params:
        by_flag.update({flag: (p, True) for flag in p.flags})
        by_flag.update({flag: (p, False) for flag in p.off_flags})
    positional = [p for p in params if not p.flags]
    taken = 0
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if len(arg) > 1 and arg.startswith("-"):
            name, attached, text = arg.partition("=") if arg.startswith("--") else (arg, "", "")
            found = by_flag.get(name)
            if found is None:
                return None
            param, on = found
            if param.kind in ("flag", "switch"):
                if attached:
                    return None
                values[param.dest] = on
                continue
            if not attached:
                if i >= len(args):
                    return None
                text = args[i]
                i += 1
            value = _value(param, text)
            # Click takes any next word as the value; one that looks like an option is left to it.
            if value is None or (not attached and text.startswith("-") and param.kind == "str"):
                return None
            values[param.dest] = value
            continue
        if taken >= len(positional):
            return None
        param = positional[taken]
        taken += 1
        value = _value(param, arg)
        if value is None:
            return None
        values[param.dest] = value
    if any(p.required for p in positional[taken:]):
        return None
    return values


def split_root(args: Sequence[str]) -> tuple[dict[str, Any], str, list[str]] | None:
    """The global options, the command word and the command's own arguments; None if unsure.

    As in Click's group, global options come before the command word and everything after it
    belongs to the command.
    """
    for i, arg in enumerate(args):
        if arg.startswith("-"):
            continue
        if i and args[i - 1] in ("--db", "--campaign", "-c"):
            continue  # the value of the option before it
        values = read_args(ROOT_OPTIONS, args[:i])
        if values is None:
            return None
        import os

        for dest, envvar in ROOT_ENVVARS.items():
            if values[dest] is None:
                values[dest] = os.environ.get(envvar) or None
        return values, arg, list(args[i + 1 :])
    return None
