"""Writing to the terminal: colour only on a TTY without NO_COLOR, JSON when asked."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["console", "emit_json", "use_colour"]

_CONSOLE: Console | None = None


def use_colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


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
