"""Dice a person types at the table: one reading for the CLI, the API and the pages.

A player reads their dice off the table and types them the way people write numbers down:
"4 4 4", "4,4,4" or "4+4+4" are three dice showing 4; "12" alone is one value (a die, or a
total where the check accepts one -- the check decides). Anything that could be read two ways
is refused rather than guessed: "5-3-2" (a difference? a range?), "6.5.4" (decimals?), letters.
Before this reader, such text was cut at its first non-digit and read as a single die, so
"4+4+4" became a lone 4.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rulekeeper.errors import InputError

__all__ = ["MAX_TYPED_DICE", "expected_dice_form", "parse_typed_dice", "typed_dice"]

#: More values than any check takes; a longer text is a mistake, not a roll.
MAX_TYPED_DICE = 200

# Whole numbers separated by blanks, commas or plus signs (blanks may surround the others).
_NUMBER = re.compile(r"\d+")
_SEPARATOR = re.compile(r"\s*[,+]\s*|\s+")


def expected_dice_form(count: int | None = None) -> str:
    """The form typed dice take, naming how many when the check is known."""
    if count is None:
        return "die values separated by spaces, commas or +, such as 4 6 2, 4,6,2 or 4+6+2"
    example = " ".join(str(v) for v in (4, 6, 2, 5, 3, 1) * (count // 6 + 1))[: 2 * count - 1]
    many = "1 die value" if count == 1 else f"{count} die values"
    return f"{many} separated by spaces, commas or +, such as {example}"


def parse_typed_dice(text: str, count: int | None = None) -> list[int]:
    """The values of dice typed as ``text``; ``count``, when known, names how many the check takes
    in the error. Raises :class:`InputError` for anything but whole numbers and separators."""
    body = text.strip()
    if not body:
        raise InputError("no dice were typed", expected=expected_dice_form(count))
    values: list[int] = []
    position = 0
    while True:
        number = _NUMBER.match(body, position)
        if number is None:
            raise InputError(_problem(text, body, position), expected=expected_dice_form(count))
        values.append(int(number.group()))
        position = number.end()
        if position == len(body):
            break
        separator = _SEPARATOR.match(body, position)
        if separator is None:
            raise InputError(_problem(text, body, position), expected=expected_dice_form(count))
        position = separator.end()
        if len(values) >= MAX_TYPED_DICE:
            raise InputError(f"more than {MAX_TYPED_DICE} dice were typed", expected=expected_dice_form(count))
    return values


def _problem(text: str, body: str, position: int) -> str:
    if position >= len(body):
        return f"cannot read dice {text!r}: it ends with a separator, not a die"
    char = body[position]
    if char in "-.":
        return f"cannot read dice {text!r}: {char!r} could mean more than one thing, so it is not read as a separator"
    return f"cannot read dice {text!r}: {char!r} is not a die value"


def typed_dice(value: str | Sequence[int] | None, count: int | None = None) -> list[int] | None:
    """Dice as a front end received them: text a person typed (read by :func:`parse_typed_dice`),
    a list already of numbers, or None (nothing typed)."""
    if value is None:
        return None
    if isinstance(value, str):
        return parse_typed_dice(value, count)
    return list(value)
