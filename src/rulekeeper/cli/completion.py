"""Tab completion for ``rulekeeper play``: commands, characters, pending check ids, options, choices.

What can be completed is read from the live command tree (so every option of every command is
offered without a list kept here) and from the campaign (characters, pending checks, the
system's action parameters and their choices). Matching ignores case, as character ids do.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

if TYPE_CHECKING:
    from rulekeeper.core import ActionSpec

__all__ = ["ShellCompleter", "TableFacts", "candidates"]

SHELL_WORDS = ("help", "exit", "quit")
# Commands whose first argument is a character id.
_CHARACTER_FIRST = {("char", "show"), ("char", "edit"), ("char", "remove"), ("char", "rename")}
_CHARACTER_OPTIONS = {"--character", "--char", "--like"}


@dataclass
class TableFacts:
    """What the completer knows of the campaign; the shell refreshes it after every command."""

    characters: Sequence[str] = ()
    pending: Sequence[int] = ()
    actions: Mapping[str, ActionSpec] = field(default_factory=dict)


def _words(text: str) -> tuple[list[str], str]:
    """The finished words before the cursor and the word being typed."""
    try:
        words = shlex.split(text)
    except ValueError:  # an open quote: complete the raw word
        words = text.split()
    if not text or text[-1].isspace():
        return words, ""
    return words[:-1], words[-1] if words else ""


def _options(command: Any) -> list[str]:
    names: list[str] = []
    for param in getattr(command, "params", ()):
        if getattr(param, "param_type_name", "") == "option":
            names.extend(param.opts)
            names.extend(param.secondary_opts)
    return names


def _takes_value(command: Any, option: str) -> bool:
    for param in getattr(command, "params", ()):
        if option in getattr(param, "opts", ()):
            return not getattr(param, "is_flag", False) and not getattr(param, "count", False)
    return False


def candidates(root: Any, facts: TableFacts, text: str) -> tuple[list[str], str]:
    """Completions for ``text`` (the line up to the cursor) and the word they replace."""
    words, current = _words(text)
    if words[:1] == ["rulekeeper"]:
        words = words[1:]
    commands: Mapping[str, Any] = getattr(root, "commands", {})
    if not words:
        return sorted([*commands, *SHELL_WORDS]), current
    command = commands.get(words[0])
    path = words[:1]
    if command is not None and hasattr(command, "commands"):
        if len(words) == 1:
            return sorted(command.commands), current
        path = words[:2]
        command = command.commands.get(words[1])
    if command is None:
        return [], current
    args = words[len(path) :]
    spec = facts.actions.get(words[0]) if len(path) == 1 else None
    characters = list(facts.characters)
    if args and args[-1].startswith("--") and _takes_value(command, args[-1]):
        option = args[-1]
        if option in _CHARACTER_OPTIONS:
            return characters, current
        if spec is not None:
            name = option[2:].replace("-", "_")
            for p in spec.params:
                if p.name == name:
                    if p.kind == "choice":
                        return list(p.choices), current
                    if p.kind in ("character", "characters"):
                        return characters, current
        return [], current
    if current.startswith("-"):
        return _options(command), current
    positional = [a for a in args if not a.startswith("-")]
    if tuple(path) == ("resolve",):
        return [str(i) for i in facts.pending] if not positional else [], current
    if tuple(path) in _CHARACTER_FIRST:
        return characters if not positional else [], current
    if spec is not None:
        out: list[str] = []
        typed = {a.lower() for a in positional}
        if spec.actor != "none" and not typed & {c.lower() for c in characters}:
            out.extend(characters)
        for p in spec.params:
            # A rest's kind reads as a word in either place: `rest night ingrid`, `rest ingrid night`.
            if p.kind == "choice" and spec.kind == "rest" and p.name == "kind" and not typed & set(p.choices):
                out.extend(p.choices)
        return out + _options(command), current
    return [], current


class ShellCompleter(Completer):
    """prompt_toolkit's side: ask :func:`candidates` and keep the ones the typed word starts."""

    def __init__(self, root: Callable[[], Any], facts: Callable[[], TableFacts]) -> None:
        self._root = root
        self._facts = facts

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        found, current = candidates(self._root(), self._facts(), document.text_before_cursor)
        yield from _matching(found, current)


def _matching(found: Iterable[str], current: str) -> Iterator[Completion]:
    lowered = current.lower()
    seen: set[str] = set()
    for word in found:
        if word.lower().startswith(lowered) and word not in seen:
            seen.add(word)
            yield Completion(word, start_position=-len(current))
