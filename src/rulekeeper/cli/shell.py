"""``rulekeeper play``: one process for the whole evening.

Start-up (Python, the command tree, the campaign's system, the database) is paid once; each
line is then the same words as a one-shot command (``damage ingrid --amount 5``, ``status``,
``undo``), run through the same command tree, so nothing here repeats what a command does.
The open campaign is kept between lines and only caught up with what other processes wrote.

Ctrl-C cancels the line being typed (or the command running), Ctrl-D or ``exit`` leaves.
History is kept across evenings in the user's data directory (``RULEKEEPER_HISTORY`` moves it).
Without a terminal (``rulekeeper play < night.txt``) lines are read from standard input.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.completion import TableFacts
from rulekeeper.cli.errors import report_error

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["Shell", "history_path", "run_shell"]

_LEAVE = {"exit", "quit", "q"}


def history_path() -> Path:
    override = os.environ.get("RULEKEEPER_HISTORY")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("rulekeeper")) / "play-history"


class Shell:
    """The command tree for the current campaign's system, and the lines run through it."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._system: str | None = None
        self._root: Any = None
        self.sync()

    # -- what the prompt and the completer read ----------------------------------------------
    def _selected(self) -> tuple[str, str] | None:
        """The campaign in play and its system, or None when none is chosen (or it is gone)."""
        from rulekeeper.errors import RulesError

        try:
            campaign = self.context.open()
        except RulesError:
            return None
        return campaign.name, campaign.system

    def sync(self) -> None:
        """Rebuild the command tree when the campaign in play changed system."""
        import typer.main

        from rulekeeper.cli.app import app, register_system_actions

        selected = self._selected()
        system = selected[1] if selected else None
        if self._root is None or system != self._system:
            if system is not None:
                register_system_actions(system)
            self._system = system
            self._root = typer.main.get_command(app)

    def root(self) -> Any:
        return self._root

    def facts(self) -> TableFacts:
        campaign = self.context.open_campaign()
        if campaign is None:
            return TableFacts()
        return TableFacts(
            characters=list(campaign.state.characters),
            pending=[p.id for p in campaign.pending()],
            actions=campaign.ruleset.actions(),
        )

    def prompt(self) -> str:
        from rulekeeper.core import format_duration

        campaign = self.context.open_campaign(refresh=True)
        if campaign is None:
            return "rulekeeper (no campaign: campaign use NAME)> "
        pending = len(campaign.pending())
        return f"{campaign.name} {format_duration(campaign.state.clock)} · {pending} pending> "

    # -- running a line ----------------------------------------------------------------------
    def run_line(self, line: str) -> bool:
        """Run one typed line; False when the user asked to leave."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            print(f"rulekeeper: error: cannot read the line: {exc}", file=sys.stderr)
            return True
        if words[:1] == ["rulekeeper"]:
            words = words[1:]
        if not words:
            return True
        if words[0] in _LEAVE:
            return False
        if words[0] == "help":
            words = [*words[1:], "--help"]
        if words[0] == "play":
            # Already playing: 'play other' switches campaign rather than nesting a shell.
            words = ["campaign", "use", *words[1:2]] if len(words) > 1 else ["status"]
        context = self.context
        commands = getattr(self._root, "commands", {})
        if not words[0].startswith("-") and words[0] not in commands:
            from rulekeeper.cli.names import unknown_command

            campaign = context.open_campaign()
            if campaign is not None:
                report_error(unknown_command(words[0], campaign.system, campaign.name, commands))
            else:
                print(f"rulekeeper: error: no command {words[0]!r} (help lists them)", file=sys.stderr)
            return True
        saved = (context.db, context.campaign)
        try:
            self._root.main(args=words, prog_name="rulekeeper", standalone_mode=True)
        except SystemExit:
            pass
        except KeyboardInterrupt:
            print("cancelled", file=sys.stderr)
        except Exception as exc:
            report_error(exc)
            context.forget_open()  # whatever the command left half-read is loaded afresh
        finally:
            context.db, context.campaign = saved
            context.explain = False
            sys.stdout.flush()
        if words[0] == "campaign":
            context.forget_open()
        self.sync()
        return True


def run_shell(context: Context, campaign: str | None) -> None:
    context.keep_open = True
    if campaign is not None:
        from rulekeeper.cli.campaign_commands import campaign_use

        campaign_use(context, campaign, as_json=False)
    shell = Shell(context)
    if not sys.stdin.isatty():
        for line in sys.stdin:
            if not shell.run_line(line):
                break
        return
    _interactive(shell)


def _interactive(shell: Shell) -> None:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from rulekeeper.cli.completion import ShellCompleter

    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(path)),
        completer=ShellCompleter(shell.root, shell.facts),
        complete_while_typing=False,
    )
    print("rulekeeper play: Tab completes, Ctrl-C cancels the line, Ctrl-D or exit leaves.")
    while True:
        try:
            line = session.prompt(shell.prompt())
        except KeyboardInterrupt:
            continue  # the line is dropped, the evening goes on
        except EOFError:
            break
        if not shell.run_line(line):
            break
