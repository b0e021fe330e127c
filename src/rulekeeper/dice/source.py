"""Dice sources: where every die value comes from.

Nothing in rulekeeper calls the module-level ``random``. Each roll takes a source:

* :class:`SeededSource` -- reproducible pseudo-random values from a seed (a campaign derives
  one seed per command, so replays are exact);
* :class:`ScriptedSource` -- values a person rolled at the table, or a test's fixed dice;
* :class:`RecordingSource` -- wraps another source and remembers every value it gave, so a
  campaign can store the dice actually rolled and replay them with a :class:`ScriptedSource`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from rulekeeper.errors import DiceError

__all__ = [
    "DiceExhausted",
    "DiceSource",
    "FallbackSource",
    "RecordingSource",
    "ScriptedSource",
    "SeededSource",
]


@runtime_checkable
class DiceSource(Protocol):
    """Anything that can roll one die with ``sides`` faces, numbered 1 to ``sides``."""

    def roll(self, sides: int) -> int: ...


class DiceExhausted(DiceError):
    """A scripted source was asked for more dice than it was given."""


def _die_name(sides: int) -> str:
    return f"d{sides}"


class SeededSource:
    """Pseudo-random dice, reproducible from ``seed`` (an int or a string)."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        # Seeded at the first die, not here: every campaign command gets a source, most roll
        # nothing, and seeding from text (a hash of it) was a few percent of such a command.
        # So a seed Random refuses is refused at the first die, and ``seed`` is not to be
        # changed. None seeds from the system at once.
        self._random: random.Random | None = None if seed is not None else random.Random()

    def _generator(self) -> random.Random:
        generator = self._random
        if generator is None:
            generator = self._random = random.Random(self.seed)
        return generator

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise DiceError(f"a die needs at least 1 side, not {sides}", expected="d1 or more")
        generator = self._random or self._generator()
        # random() * sides is several times faster than randint and uniform enough for dice.
        return int(generator.random() * sides) + 1

    def roll_many(self, sides: int, count: int) -> list[int]:
        """``count`` dice of ``sides`` at once: the same values as ``count`` calls of :meth:`roll`."""
        if sides < 1:
            raise DiceError(f"a die needs at least 1 side, not {sides}", expected="d1 or more")
        draw = (self._random or self._generator()).random
        return [int(draw() * sides) + 1 for _ in range(count)]


class ScriptedSource:
    """Dice given in advance, used in order.

    A value the die cannot show (7 on a d6) raises :class:`DiceError` naming the die, and
    running out of values raises :class:`DiceExhausted`.
    """

    __slots__ = ("_index", "_values", "label")

    def __init__(self, values: Iterable[int], *, label: str = "scripted dice") -> None:
        self._values = tuple(int(v) for v in values)
        self._index = 0
        self.label = label

    @property
    def remaining(self) -> tuple[int, ...]:
        return self._values[self._index :]

    @property
    def used(self) -> int:
        return self._index

    def roll(self, sides: int) -> int:
        if self._index >= len(self._values):
            raise DiceExhausted(
                f"{self.label}: the rules asked for die #{self._index + 1} ({_die_name(sides)}) "
                f"but only {len(self._values)} value(s) were given",
                expected=f"{self._index + 1} or more dice values",
            )
        value = self._values[self._index]
        if not 1 <= value <= sides:
            raise DiceError(
                f"{self.label}: {value} cannot be rolled on a {_die_name(sides)}",
                expected=f"a value from 1 to {sides} for die #{self._index + 1}",
            )
        self._index += 1
        return value


class FallbackSource:
    """Use scripted values first, then fall back to another source."""

    __slots__ = ("fallback", "scripted")

    def __init__(self, scripted: ScriptedSource, fallback: DiceSource) -> None:
        self.scripted = scripted
        self.fallback = fallback

    def roll(self, sides: int) -> int:
        if self.scripted.remaining:
            return self.scripted.roll(sides)
        return self.fallback.roll(sides)

    def before_check(self, check: object) -> None:
        """Tell the scripted values which check they are about to feed, if they ask (a player's
        typed dice feed only that player's checks: ``campaign.seat.SeatDice``)."""
        hook = getattr(self.scripted, "before_check", None)
        if hook is not None:
            hook(check)


class RecordingSource:
    """Remember every value another source gives, in order, with the die it was rolled on."""

    __slots__ = ("inner", "record")

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.record: list[tuple[int, int]] = []

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.record.append((sides, value))
        return value

    def before_check(self, check: object) -> None:
        """Pass on which check the next values are for, to a source that asks."""
        hook = getattr(self.inner, "before_check", None)
        if hook is not None:
            hook(check)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(v for _, v in self.record)
