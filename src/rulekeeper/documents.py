"""Reading YAML and JSON documents from people and files, within bounds.

YAML anchors and aliases let a few hundred characters describe billions of nodes (the "billion
laughs"). Before anything is built, the event stream is walked once: each anchored node's size
*with its aliases expanded* is remembered, so an alias costs what it would expand to, and the
document is refused past :data:`~rulekeeper.limits.MAX_YAML_NODES` nodes or
:data:`~rulekeeper.limits.MAX_NESTING` levels. Only then does the safe loader build it, which
PyYAML does by sharing the aliased objects, never copying them. JSON has no aliases; its nesting
is bounded the same way, and both are bounded in size before they are read.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_NESTING, MAX_YAML_NODES

__all__ = ["check_size", "load_json", "load_yaml", "read_text"]


def check_size(text: str | bytes, limit: int, what: str) -> None:
    """Refuse ``text`` longer than ``limit`` bytes (characters for ``str``, a lower bound of bytes)."""
    if len(text) > limit:
        raise InputError(
            f"{what} is {len(text):,} bytes, over the limit of {limit:,}",
            expected="a smaller document (docs/limits.md)",
        )


def read_text(path: str, limit: int, what: str) -> str:
    """A UTF-8 file (``-`` for standard input) of at most ``limit`` bytes, read without reading more."""
    import sys
    from pathlib import Path

    try:
        if path == "-":
            raw = sys.stdin.buffer.read(limit + 1)
        else:
            with Path(path).open("rb") as handle:
                raw = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}", expected=f"a readable {what}") from None
    check_size(raw, limit, f"{path}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text", expected=f"a {what}") from None


def _measure_yaml(text: str, loader: Any, where: str) -> None:
    """Walk the event stream; refuse a document whose expanded size or depth is over the limits."""
    import yaml

    anchors: dict[str, int] = {}
    # One frame per open collection: [nodes so far, anchor or None].
    stack: list[list[Any]] = [[0, None]]
    total = 0

    def add(size: int, *, to_frame: bool = True) -> None:
        nonlocal total
        if to_frame:
            stack[-1][0] += size
        total += size
        if total > MAX_YAML_NODES:
            raise InputError(
                f"{where} expands to more than {MAX_YAML_NODES:,} nodes (YAML aliases count as what they repeat)",
                expected="a smaller document without repeated aliases (docs/limits.md)",
            )

    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            add(1, to_frame=False)
            stack.append([1, event.anchor])
            if len(stack) - 1 > MAX_NESTING:
                raise InputError(
                    f"{where} nests more than {MAX_NESTING} levels deep", expected="a flatter document (docs/limits.md)"
                )
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            size, anchor = stack.pop()
            if anchor is not None:
                anchors[anchor] = size
            # ``total`` counted these nodes as they came; the parent frame takes them now, so an
            # alias of the parent repeats all of them.
            stack[-1][0] += size
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                anchors[event.anchor] = 1
            add(1)
        elif isinstance(event, yaml.AliasEvent):
            add(anchors.get(event.anchor or "", 1))


def load_yaml(text: str, *, where: str, loader: Any = None) -> Any:
    """Safe-load one YAML document whose expanded size and depth are within the limits.

    ``loader`` is a ``yaml.SafeLoader`` subclass (the scenario reader's keeps line numbers).
    """
    import yaml

    base = loader or getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    probe = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        _measure_yaml(text, probe, where)
        return yaml.load(text, Loader=base)
    except yaml.YAMLError as exc:
        # The reader's own sentence ("did not find expected '-' indicator") is not ours: where
        # it stopped is what helps, and what is usually wrong there.
        mark = getattr(exc, "problem_mark", None)
        at = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else None
        said = f"{where} is not valid YAML"  # from where it stops: ``at``
        if "depth" in str(exc) or "nest" in str(exc):  # the reader's own limit on nesting
            said = f"{where} nests more than the YAML reader takes"
        tagged = isinstance(exc, yaml.constructor.ConstructorError)
        raise InputError(
            said + (" (a tag such as !!python/... asks for what a document may not hold)" if tagged else ""),
            expected="YAML or JSON: mappings of 'key: value', lists of '- item', text quoted where it holds ':' or '#'",
            where=at,
        ) from None
    except (ValueError, OverflowError, RecursionError, TypeError) as exc:
        if isinstance(exc, InputError):
            raise
        # A scalar the safe constructors cannot build (an integer of 5,000 digits, a bad date).
        raise InputError(
            f"{where} has a value that cannot be read: {_unreadable(exc)}", expected="YAML or JSON"
        ) from None


def _unreadable(exc: BaseException) -> str:
    """What made a value unreadable, in our words (the library's name a setting to change)."""
    if isinstance(exc, RecursionError):
        return "it nests too deeply"
    if isinstance(exc, ValueError) and "digits" in str(exc):
        return "a number of more than 4,300 digits"
    if isinstance(exc, OverflowError):
        return "a number too large to hold"
    return "a date or number that does not exist (such as month 13), or a value of no kind a document holds"


def _check_depth(value: Any, where: str) -> None:
    """Refuse JSON nested deeper than the limit (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NESTING:
            raise InputError(f"{where} nests more than {MAX_NESTING} levels deep", expected="a flatter document")
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def _refuse_constant(name: str) -> Any:
    raise InputError(f"JSON constant {name} is not allowed", expected="finite numbers")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InputError(f"number {text[:30]} is out of range", expected="a finite number")
    return value


def load_json(text: str, *, where: str, parse_float: Callable[[str], Any] = _finite) -> Any:
    """Parse JSON; NaN, Infinity and numbers beyond a float (1e400) are refused, and so is nesting
    past the limit."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=parse_float)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}"
        raise InputError(
            f"{where} is not valid JSON",  # from where it stops: ``at``
            expected='JSON: {"key": value, ...}, names and text in double quotes, no trailing commas',
            where=at,
        ) from None
    except RecursionError:
        raise InputError(f"{where} nests more than {MAX_NESTING} levels deep", expected="a flatter document") from None
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"{where} has a value that cannot be read: {_unreadable(exc)}", expected="JSON") from None
    _check_depth(value, where)
    return value
