"""Dice notation, rolls that explain themselves, and exact odds.

    >>> from rulekeeper.dice import parse, roll, ScriptedSource
    >>> str(roll("4d6kh3+2", ScriptedSource([5, 2, 4, 5])))
    '4d6kh3 (5, ~2~, 4, 5) + 2 = 16'
    >>> parse("2d+1") == parse("2d6+1")
    True
    >>> parse("3d6[icons]").distribution().p_ge(3)
    Fraction(1, 3)

Notation (letters in any case, blanks allowed between terms but not inside a dice term):

    3d6, d20, d%        N dice with S sides (N defaults to 1); d% is d100
    3d, 2d+1, 1d-3      GURPS shorthand: Nd alone means Nd6
    4d6kh3, 2d20kl1     keep the highest / lowest K dice (K defaults to 1)
    4d6dl1, 3d6dh       drop the lowest / highest K dice (K defaults to 1)
    + - * / ( )         integer arithmetic; / divides rounding down; unary minus
    6d6[4:1,5:1,6:2]    a success-counting pool: each die counts the value its face maps to,
                        faces not listed count 0; a face without a value counts 1
                        (10d10[8,9,10] counts 8s, 9s and 10s)
    6d6[icons]          named map: Wrath & Glory icons, the same as 6d6[4:1,5:1,6:2]

Keep/drop comes before a face map (``5d6kh3[6:1]`` keeps the three highest, then counts
sixes). The canonical text, ``str(expr)``, spells every count and side out: ``2d+1`` prints
as ``2d6+1``, ``d%`` as ``1d100``, ``4d6kh`` as ``4d6kh1``, ``6d6[icons]`` as
``6d6[4:1,5:1,6:2]``.

Errors are :class:`~rulekeeper.errors.DiceError` with a 1-based ``position`` (the end of the
text is ``len(text) + 1``) and the expected form. By default one expression may throw at most
1,000 dice in all and a die may have at most 1,000,000 sides; ``parse(text, max_dice=...,
max_sides=...)`` changes the caps.

Every die value comes from a :class:`DiceSource`; nothing here uses the module-level random.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.dice.notation import (
    DEFAULT_MAX_DICE,
    DEFAULT_MAX_SIDES,
    BinOp,
    Const,
    Dice,
    Expr,
    Keep,
    KeepMode,
    Neg,
    Op,
    _parse_cached,
    parse,
)
from rulekeeper.dice.rolling import DieResult, Roll, roll_expr
from rulekeeper.dice.source import (
    DiceExhausted,
    DiceSource,
    FallbackSource,
    RecordingSource,
    ScriptedSource,
    SeededSource,
)

if TYPE_CHECKING:
    from rulekeeper.dice.exact_odds import Distribution, distribution

__all__ = [
    "DEFAULT_MAX_DICE",
    "DEFAULT_MAX_SIDES",
    "BinOp",
    "Const",
    "Dice",
    "DiceExhausted",
    "DiceSource",
    "DieResult",
    "Distribution",
    "Expr",
    "FallbackSource",
    "Keep",
    "KeepMode",
    "Neg",
    "Op",
    "RecordingSource",
    "Roll",
    "ScriptedSource",
    "SeededSource",
    "distribution",
    "parse",
    "roll",
]


def roll(notation: str | Expr, source: DiceSource) -> Roll:
    """Roll dice notation (parsed with the default caps) or an expression once."""
    if isinstance(notation, str):
        # Straight to the cache: this is the hot path of every rolled check.
        return roll_expr(_parse_cached(notation, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES), source)
    return roll_expr(notation, source)


def __getattr__(name: str) -> Any:
    # Exact odds pull in fractions and bisect; a plain roll (the CLI's hot path) never needs them.
    if name in ("Distribution", "distribution"):
        import importlib

        return getattr(importlib.import_module("rulekeeper.dice.exact_odds"), name)
    raise AttributeError(f"module 'rulekeeper.dice' has no attribute {name!r}")
