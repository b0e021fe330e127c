"""Entry point of the ``rulekeeper`` console script.

``rulekeeper roll ...`` is what people type most, so it is served without loading Typer,
Rich or anything heavy. The table commands (``pending``, ``status``, ``log``, the system's
actions ...) are served without Typer too (``cli/quick.py``); everything else, and anything
those paths are unsure of, goes through the Typer application.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def _seed(text: str) -> int | None:
    """A seed written in ASCII digits (``int`` would also take ``²``'s relatives and 5,000 digits)."""
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit() and len(digits) <= 40:
        return int(text)
    return None


def _fast_roll(args: Sequence[str]) -> int | None:
    """Handle ``roll EXPR [--seed N] [--json]`` directly; None means "let Typer handle it"."""
    expr: str | None = None
    seed: int | None = None
    as_json = False
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--json":
            as_json = True
        elif arg == "--seed" and i + 1 < len(args) and _seed(args[i + 1]) is not None:
            seed = _seed(args[i + 1])
            i += 1
        elif arg.startswith("--seed=") and _seed(arg[7:]) is not None:
            seed = _seed(arg[7:])
        elif expr is None and (not arg.startswith("-") or arg[1:2].isdigit()):
            expr = arg
        else:
            return None
        i += 1
    if expr is None:
        return None
    from rulekeeper.cli.dice_commands import roll_command

    try:
        roll_command(expr, seed=seed, as_json=as_json)
    except Exception as exc:  # one line and an exit code, never a traceback
        from rulekeeper.cli.errors import report_error

        return report_error(exc, as_json=as_json)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    import os

    # pydantic looks for plugins by scanning every installed package's entry points on import,
    # which costs more than the rest of a command's imports of it; rulekeeper uses none.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["roll"]:
        code = _fast_roll(args[1:])
        if code is not None:
            return code
    from rulekeeper.cli.quick import run_quick

    code = run_quick(args)
    if code is not None:
        return code
    from rulekeeper.cli.app import run_app

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
