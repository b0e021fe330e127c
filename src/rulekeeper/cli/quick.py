"""The table commands without Typer: ``pending``, ``status``, ``log`` ... and the system's actions.

Importing Typer and building its command tree costs more than such a command's own work, so
these are read by ``cli/grammar.py`` from the same grammar their Typer commands are held to and
run by the same functions (``cli/table_commands.py``, ``cli/action_grammar.py``). Anything this
path is not sure of -- help, a typo, an unusual form, a command it does not serve -- returns
None before anything has run, and Typer takes the whole command line as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["run_quick"]


def run_quick(args: Sequence[str]) -> int | None:
    """Serve ``args`` and return the exit code, or None to leave the whole command to Typer."""
    from rulekeeper.cli.grammar import BUILTIN_COMMANDS, read_args, split_root
    from rulekeeper.cli.table_commands import GRAMMAR

    split = split_root(args)
    if split is None:
        return None
    options, word, rest = split
    if word in GRAMMAR:
        handler, params = GRAMMAR[word]
        values = read_args(params, rest)
        if values is None:
            return None
        return _invoke(options, lambda context: handler(context, **values), args)
    if word in BUILTIN_COMMANDS:
        return None
    return _action(options, word, rest, args)


def _action(options: dict[str, Any], word: str, rest: list[str], args: Sequence[str]) -> int | None:
    from rulekeeper.cli.action_grammar import action_params, run_action_command
    from rulekeeper.cli.context import campaign_system
    from rulekeeper.cli.grammar import read_args
    from rulekeeper.core.ruleset import get_ruleset

    try:
        selected = campaign_system(options["db"], options["campaign"])
        spec = None if selected is None else get_ruleset(selected[1]).actions().get(word)
    except Exception:  # an unknown campaign or system, an unreadable database: Typer's path reports it
        return None
    if spec is None:
        return None
    values = read_args(action_params(spec), rest)
    if values is None:
        return None
    return _invoke(options, lambda context: run_action_command(spec, context, values), args)


def _invoke(options: dict[str, Any], command: Callable[[Context], None], args: Sequence[str]) -> int:
    """Run ``command`` and end as ``run_app`` ends the same command run through Typer."""
    from rulekeeper.cli.context import Context
    from rulekeeper.cli.errors import report_error

    context = Context(db=options["db"], campaign=options["campaign"], explain=options["explain"])
    try:
        command(context)
    except EOFError:  # as Typer: a blank line, then Click's Abort
        print(file=sys.stderr)
        print("rulekeeper: aborted", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    except BrokenPipeError:
        # The reader left (`log | head`): say nothing more, and keep Python's final flush from failing.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:
        return report_error(exc, as_json="--json" in args)
    finally:
        context.close()
    return 0
