"""Writing to the terminal: colour only on a TTY without NO_COLOR, JSON when asked."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["console", "emit_json", "line", "terminal_height", "terminal_width", "use_colour"]

_CONSOLE: Console | None = None
_COLOUR: bool | None = None


def use_colour() -> bool:
    global _COLOUR
    if _COLOUR is None:
        _COLOUR = sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    return _COLOUR


def terminal_width() -> int:
    """Columns to fit: the terminal's, ``COLUMNS`` if set, else 80 (a pipe, a file)."""
    if use_colour():
        return console().width
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


def terminal_height() -> int:
    """Lines on the screen: the terminal's, ``LINES`` if set, else 24 (a pipe, a file)."""
    import shutil

    return shutil.get_terminal_size((80, 24)).lines


def line(text: str, style: str = "", highlights: Sequence[tuple[str, str]] = ()) -> None:
    """One line of output; styled through Rich only when there is colour to show.

    Without colour (a pipe, NO_COLOR) the text is written as it is: Rich's per-line work
    is most of what printing a long log costs, and plain text needs none of it.
    """
    if not use_colour():
        sys.stdout.write(text + "\n")
        return
    from rich.text import Text

    styled = Text(text, style=style)
    for pattern, how in highlights:
        styled.highlight_regex(pattern, how)
    console().print(styled)


def console() -> Console:
    """A Rich console that writes plain text when colour is off (pipes, NO_COLOR)."""
    global _CONSOLE
    if _CONSOLE is None:
        from rich.console import Console

        colour = use_colour()
        _CONSOLE = Console(
            color_system="auto" if colour else None,
            no_color=not colour,
            highlight=False,
            soft_wrap=True,
            force_terminal=colour or None,
        )
    return _CONSOLE


def emit_json(data: Any) -> None:
    import json

    sys.stdout.write(json.dumps(data, indent=2, sort_keys=False, default=str) + "\n")
