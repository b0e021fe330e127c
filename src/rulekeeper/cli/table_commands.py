"""The commands a GM types all evening (pending, status, log, resolve, round, advance, undo, redo).

Each is a plain function of a :class:`Context` and its Typer command's own parameters. The Typer
commands in ``cli/app.py`` call these, and so does the quick path (``cli/quick.py``) with the
values it read by :data:`GRAMMAR`, so the two ways in cannot differ in what a command does; a test
holds each grammar here against its Typer definition.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulekeeper.cli.grammar import Param

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["GRAMMAR", "advance", "log", "pending", "redo", "resolve", "round_", "status", "undo"]


def pending(context: Context, *, as_player: str | None, as_json: bool) -> None:
    from rulekeeper.cli.play_commands import pending_command

    pending_command(context, as_player=as_player, as_json=as_json)


def status(context: Context, *, as_json: bool) -> None:
    from rulekeeper.cli.status import status_command

    status_command(context, as_json=as_json)


def resolve(
    context: Context, *, pending_id: int, dice: str | None, auto: bool, as_json: bool, explain: bool
) -> None:
    from rulekeeper.cli.play_commands import resolve_command

    context.explain = context.explain or explain
    # The text goes as typed: the campaign reads it knowing how many dice the check takes.
    resolve_command(context, pending_id, dice=dice, auto=auto, as_json=as_json)


def round_(context: Context, *, count: int, as_json: bool, explain: bool) -> None:
    from rulekeeper.cli.play_commands import round_command

    context.explain = context.explain or explain
    round_command(context, count=count, as_json=as_json)


def advance(context: Context, *, duration: str, as_json: bool, explain: bool) -> None:
    from rulekeeper.cli.play_commands import advance_command

    context.explain = context.explain or explain
    advance_command(context, duration, as_json=as_json)


def log(
    context: Context,
    *,
    character: str | None,
    since: str | None,
    until: str | None,
    explain: bool,
    brief: bool,
    show_all: bool,
    as_player: str | None,
    as_json: bool,
) -> None:
    from rulekeeper.cli.play_commands import log_command

    log_command(
        context,
        actor=character,
        since=since,
        until=until,
        brief=brief,
        explain=context.explain or explain,
        show_all=show_all,
        as_json=as_json,
        as_player=as_player,
    )


def undo(context: Context, *, seq: int | None, yes: bool, as_json: bool, explain: bool) -> None:
    from rulekeeper.cli.play_commands import undo_command

    context.explain = context.explain or explain
    undo_command(context, seq, yes=yes, as_json=as_json)


def redo(context: Context, *, as_json: bool, explain: bool) -> None:
    from rulekeeper.cli.play_commands import redo_command

    context.explain = context.explain or explain
    redo_command(context, as_json=as_json)


_JSON = Param("as_json", "--json", kind="flag")
_EXPLAIN = Param("explain", "--explain", kind="flag")
_AS_PLAYER = Param("as_player", "--as-player")

#: Command word -> (what runs it, what it takes), in the order its Typer command declares them.
GRAMMAR: dict[str, tuple[Callable[..., None], tuple[Param, ...]]] = {
    "pending": (pending, (_AS_PLAYER, _JSON)),
    "status": (status, (_JSON,)),
    "resolve": (
        resolve,
        (
            Param("pending_id", kind="int", required=True),
            Param("dice", "--dice"),
            Param("auto", "--auto", kind="flag"),
            _JSON,
            _EXPLAIN,
        ),
    ),
    "round": (round_, (Param("count", kind="int", default=1), _JSON, _EXPLAIN)),
    "advance": (advance, (Param("duration", required=True), _JSON, _EXPLAIN)),
    "log": (
        log,
        (
            Param("character", "--character", "--char"),
            Param("since", "--since"),
            Param("until", "--until"),
            _EXPLAIN,
            Param("brief", "--brief", kind="flag"),
            Param("show_all", "--all", kind="flag"),
            _AS_PLAYER,
            _JSON,
        ),
    ),
    "undo": (undo, (Param("seq", kind="int"), Param("yes", "--yes", "-y", kind="flag"), _JSON, _EXPLAIN)),
    "redo": (redo, (_JSON, _EXPLAIN)),
}
