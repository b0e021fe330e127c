"""Dice notation: the expression tree, its parser and its canonical text.

The tree is made of immutable values (:class:`Const`, :class:`Dice`, :class:`Neg`,
:class:`BinOp`; see ``dice/values.py``), compared structurally. ``str(expr)`` is the canonical
text: it reparses to an equal tree, and printing that again gives the same text.

Positions in errors are 1-based character indexes into the text; the end of the text is
``len(text) + 1``. The notation itself is described in the package docstring
(``rulekeeper.dice``).
"""

from __future__ import annotations

import functools
import operator
import os
import re
import sys
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rulekeeper.dice.values import Value
from rulekeeper.errors import DiceError
from rulekeeper.limits import MAX_DICE, MAX_DICE_NUMBER, MAX_DICE_TOTAL, MAX_NOTATION_CHARS, MAX_SIDES

if TYPE_CHECKING:
    from lark import Lark, Tree
    from lark.exceptions import UnexpectedInput

    from rulekeeper.dice.exact_odds import Distribution
    from rulekeeper.dice.rolling import Roll
    from rulekeeper.dice.source import DiceSource

__all__ = [
    "DEFAULT_MAX_DICE",
    "DEFAULT_MAX_SIDES",
    "MAX_DEPTH",
    "NAMED_FACE_MAPS",
    "BinOp",
    "Const",
    "Dice",
    "Expr",
    "Keep",
    "KeepMode",
    "Neg",
    "Op",
    "parse",
]

DEFAULT_MAX_DICE = MAX_DICE
DEFAULT_MAX_SIDES = MAX_SIDES
_NUMBER_DIGITS = len(str(MAX_DICE_NUMBER))
# Rolling, printing and distributions recurse over the tree; a fixed depth keeps hostile
# input such as "1+1+1+..." or "((((...))))" from reaching Python's recursion limit.
MAX_DEPTH = 200

NAMED_FACE_MAPS: Mapping[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    # Wrath & Glory core rules: a 4 or 5 is an icon, a 6 is an exalted icon worth two.
    "icons": (6, ((4, 1), (5, 1), (6, 2))),
}

# Binding strength, used to decide where printing needs parentheses.
ATOM, UNARY, PRODUCT, SUM = 4, 3, 2, 1


class Op(StrEnum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"  # integer division, rounding down (Python's //)


class KeepMode(StrEnum):
    KEEP_HIGHEST = "kh"
    KEEP_LOWEST = "kl"
    DROP_HIGHEST = "dh"
    DROP_LOWEST = "dl"


class Keep(Value):
    """Which dice of a term count: ``kh3`` keeps the highest three, ``dl1`` drops the lowest one."""

    __match_args__ = ("mode", "count")
    __slots__ = __match_args__
    mode: KeepMode
    count: int

    def __init__(self, mode: KeepMode, count: int) -> None:
        object.__setattr__(self, "mode", mode)
        object.__setattr__(self, "count", count)

    @property
    def keeps_highest(self) -> bool:
        return self.mode in (KeepMode.KEEP_HIGHEST, KeepMode.DROP_LOWEST)

    def kept_count(self, dice: int) -> int:
        if self.mode in (KeepMode.KEEP_HIGHEST, KeepMode.KEEP_LOWEST):
            return self.count
        return dice - self.count

    def __str__(self) -> str:
        return f"{self.mode.value}{self.count}"


class _At:
    """Where in the notation a check failed, so the error can point at it."""

    __slots__ = ("position", "text")

    def __init__(self, text: str, position: int) -> None:
        self.text = text
        self.position = position


def _fail(message: str, expected: str | None, at: _At | None) -> DiceError:
    if at is None:
        return DiceError(message, expected=expected)
    shown = at.text if len(at.text) <= 60 else at.text[:57] + "..."
    return DiceError(
        f"{message} at position {at.position}",
        expected=expected,
        where=f"dice notation {shown!r}",
        position=at.position,
    )


def _check_count(count: int, at: _At | None = None) -> None:
    if count < 1:
        raise _fail(f"{count} dice cannot be rolled", "at least 1 die, e.g. 1d6", at)


def _check_sides(sides: int, at: _At | None = None) -> None:
    if sides < 1:
        raise _fail(f"a die cannot have {sides} sides", "at least 1 side, e.g. d6", at)


def _check_keep(keep: Keep, count: int, at: _At | None = None) -> None:
    # At least one die always stays kept, so a term never silently becomes 0.
    if keep.mode in (KeepMode.KEEP_HIGHEST, KeepMode.KEEP_LOWEST):
        if not 1 <= keep.count <= count:
            raise _fail(
                f"{keep} keeps {keep.count} of {count} dice",
                f"a keep count from 1 to {count}",
                at,
            )
    elif not 0 <= keep.count <= count - 1:
        raise _fail(
            f"{keep} drops {keep.count} of {count} dice",
            f"a drop count below {count}, so that at least one die is kept",
            at,
        )


def _check_face(face: int, sides: int, at: _At | None = None) -> None:
    if not 1 <= face <= sides:
        raise _fail(f"face {face} is not on a d{sides}", f"faces from 1 to {sides}", at)


def _check_divisor(divisor: Expr, at: _At | None = None) -> None:
    # Rejected up front so that rolling and exact distributions never divide by zero.
    if divisor.min_value <= 0 <= divisor.max_value:
        raise _fail(
            f"divisor {divisor} can be 0 (it ranges from {divisor.min_value} to {divisor.max_value})",
            "a divisor that is never 0",
            at,
        )


def _set(obj: Expr, text: str, low: int, high: int, dice: int, depth: int) -> None:
    # Derived values are computed once, bottom-up, so no later walk of the tree is needed.
    object.__setattr__(obj, "_text", text)
    object.__setattr__(obj, "_min", low)
    object.__setattr__(obj, "_max", high)
    object.__setattr__(obj, "_dice", dice)
    object.__setattr__(obj, "_depth", depth)


def _as_expr(value: Expr | int) -> Expr:
    if isinstance(value, Expr):
        return value
    if value < 0:
        return Neg(Const(-value))
    return Const(value)


class Expr(Value):
    """A dice expression. Build one with :func:`parse` or the subclasses' constructors."""

    # Derived from the fields by each subclass's constructor (see _set): not compared or shown.
    __slots__ = ("_depth", "_dice", "_max", "_min", "_text")
    _text: str
    _min: int
    _max: int
    _dice: int
    _depth: int

    def __init__(self) -> None:
        raise TypeError("Expr is abstract: use parse() or Const, Dice, Neg and BinOp")

    def __str__(self) -> str:
        return self._text

    @property
    def min_value(self) -> int:
        """The lowest total this expression can roll."""
        return self._min

    @property
    def max_value(self) -> int:
        """The highest total this expression can roll."""
        return self._max

    @property
    def dice_count(self) -> int:
        """How many dice one roll of this expression throws."""
        return self._dice

    @property
    def depth(self) -> int:
        return self._depth

    @property
    def precedence(self) -> int:
        return ATOM

    def roll(self, source: DiceSource) -> Roll:
        """Roll once, taking every die value from ``source``."""
        from rulekeeper.dice.rolling import roll_expr

        return roll_expr(self, source)

    def distribution(self) -> Distribution:
        """The exact probability of every total."""
        from rulekeeper.dice.exact_odds import distribution

        return distribution(self)

    # Operators let rules build expressions from parts: parse("3d6") + skill - 2.
    def __add__(self, other: Expr | int) -> BinOp:
        if isinstance(other, int) and other < 0:
            return BinOp(Op.SUB, self, Const(-other))
        return BinOp(Op.ADD, self, _as_expr(other))

    def __radd__(self, other: int) -> BinOp:
        return BinOp(Op.ADD, _as_expr(other), self)

    def __sub__(self, other: Expr | int) -> BinOp:
        if isinstance(other, int) and other < 0:
            return BinOp(Op.ADD, self, Const(-other))
        return BinOp(Op.SUB, self, _as_expr(other))

    def __rsub__(self, other: int) -> BinOp:
        return BinOp(Op.SUB, _as_expr(other), self)

    def __mul__(self, other: Expr | int) -> BinOp:
        return BinOp(Op.MUL, self, _as_expr(other))

    def __rmul__(self, other: int) -> BinOp:
        return BinOp(Op.MUL, _as_expr(other), self)

    def __floordiv__(self, other: Expr | int) -> BinOp:
        return BinOp(Op.DIV, self, _as_expr(other))

    def __neg__(self) -> Neg:
        return Neg(self)


class Const(Expr):
    """A non-negative integer; negative numbers are :class:`Neg` of a constant, as they are written."""

    __match_args__ = ("value",)
    __slots__ = __match_args__
    value: int

    def __init__(self, value: int) -> None:
        if value < 0:
            raise DiceError(f"constant {value} is negative", expected="Neg(Const(n)) for -n")
        object.__setattr__(self, "value", value)
        _set(self, str(value), value, value, 0, 1)


class Dice(Expr):
    """``count`` dice with ``sides`` faces, optionally keeping some and counting faces by a map.

    ``faces`` maps a face to the value it counts (faces not listed count 0); it is stored
    sorted by face, so the same map written in any order gives an equal expression.
    """

    __match_args__ = ("count", "sides", "keep", "faces")
    __slots__ = (*__match_args__, "_lookup")
    count: int
    sides: int
    keep: Keep | None
    faces: tuple[tuple[int, int], ...] | None
    _lookup: dict[int, int] | None

    def __init__(
        self,
        count: int,
        sides: int,
        keep: Keep | None = None,
        faces: tuple[tuple[int, int], ...] | None = None,
    ) -> None:
        _check_count(count)
        _check_sides(sides)
        if keep is not None:
            _check_keep(keep, count)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "keep", keep)
        kept = count if keep is None else keep.kept_count(count)
        text = f"{count}d{sides}"
        if keep is not None:
            text += str(keep)
        if faces is None:
            object.__setattr__(self, "faces", None)
            object.__setattr__(self, "_lookup", None)
            low, high = kept, kept * sides
        else:
            faces = tuple(sorted(faces))
            lookup = dict(faces)
            if len(lookup) != len(faces):
                raise DiceError(f"a face is listed twice in {list(faces)}", expected="each face at most once")
            if not faces:
                raise DiceError("an empty face map", expected="at least one face:value pair")
            for face, _ in faces:
                _check_face(face, sides)
            object.__setattr__(self, "faces", faces)
            object.__setattr__(self, "_lookup", lookup)
            counted = list(lookup.values())
            if len(lookup) < sides:
                counted.append(0)
            low, high = kept * min(counted), kept * max(counted)
            text += "[" + ",".join(f"{face}:{value}" for face, value in faces) + "]"
        _set(self, text, low, high, count, 1)

    def counted(self, face: int) -> int:
        """What one die showing ``face`` adds to the total (before keep/drop)."""
        if self._lookup is None:
            return face
        return self._lookup.get(face, 0)


class Neg(Expr):
    __match_args__ = ("operand",)
    __slots__ = __match_args__
    operand: Expr

    def __init__(self, operand: Expr) -> None:
        object.__setattr__(self, "operand", operand)
        inner = str(operand)
        if isinstance(operand, Neg) or operand.precedence < UNARY:
            inner = f"({inner})"
        _set(self, "-" + inner, -operand.max_value, -operand.min_value, operand.dice_count, operand.depth + 1)

    @property
    def precedence(self) -> int:
        return UNARY


class BinOp(Expr):
    __match_args__ = ("op", "left", "right")
    __slots__ = __match_args__
    op: Op
    left: Expr
    right: Expr

    def __init__(self, op: Op, left: Expr, right: Expr) -> None:
        op = Op(op)
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)
        if op is Op.DIV:
            _check_divisor(right)
        prec = self.precedence
        left_text, right_text = str(left), str(right)
        if left.precedence < prec:
            left_text = f"({left_text})"
        # Operators are left-associative, so an equal-precedence right operand needs
        # parentheses to reparse to the same tree; a negation is wrapped for readability.
        if right.precedence <= prec or isinstance(right, Neg):
            right_text = f"({right_text})"
        if op is Op.ADD:
            low, high = left.min_value + right.min_value, left.max_value + right.max_value
        elif op is Op.SUB:
            low, high = left.min_value - right.max_value, left.max_value - right.min_value
        else:
            # Both sides are independent, so every pair of bounds is reachable; the divisor
            # never spans 0, which makes floor division monotonic in each operand as well.
            fn = operator.mul if op is Op.MUL else operator.floordiv
            corners = [fn(x, y) for x in (left.min_value, left.max_value) for y in (right.min_value, right.max_value)]
            low, high = min(corners), max(corners)
        _set(
            self,
            f"{left_text}{op.value}{right_text}",
            low,
            high,
            left.dice_count + right.dice_count,
            max(left.depth, right.depth) + 1,
        )

    @property
    def precedence(self) -> int:
        return SUM if self.op in (Op.ADD, Op.SUB) else PRODUCT


# ---------------------------------------------------------------------------- parsing


def parse(text: str, *, max_dice: int = DEFAULT_MAX_DICE, max_sides: int = DEFAULT_MAX_SIDES) -> Expr:
    """Parse dice notation into an expression.

    Raises :class:`~rulekeeper.errors.DiceError` for malformed notation, naming the 1-based
    position and the expected form, and when the expression throws more than ``max_dice``
    dice in all or has a die with more than ``max_sides`` sides.
    """
    if not isinstance(text, str):
        raise TypeError(f"dice notation must be a str, not {type(text).__name__}")
    return _parse_cached(text, max_dice, max_sides)


# The commonest notation at the table (3d6, d20, 2d+1, 1d-3): read without loading lark, whose
# import alone costs several times Python's start-up. Anything else, and any error, goes to the
# grammar; a property test checks that both readings agree.
_SIMPLE = re.compile(r"(?:(\d{1,7})[dD](\d{1,7}|%)?|[dD](\d{1,7}|%))(?:([+-])(\d{1,7}))?", re.ASCII)


def _parse_simple(text: str, max_dice: int, max_sides: int) -> Expr | None:
    match = _SIMPLE.fullmatch(text)
    if match is None:
        return None
    count_text, sides_text, bare_sides, sign, constant = match.groups()
    count = int(count_text) if count_text else 1
    sides_text = sides_text if count_text else bare_sides
    sides = 6 if sides_text is None else 100 if sides_text == "%" else int(sides_text)
    if not (1 <= count <= max_dice and 1 <= sides <= max_sides):
        return None
    dice: Expr = Dice(count, sides)
    if sign is None:
        return dice
    return BinOp(Op.ADD if sign == "+" else Op.SUB, dice, Const(int(constant)))


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str, max_dice: int, max_sides: int) -> Expr:
    if len(text) > MAX_NOTATION_CHARS:
        raise DiceError(
            f"dice notation of {len(text):,} characters, over the limit of {MAX_NOTATION_CHARS:,}",
            expected="a shorter expression (docs/limits.md)",
        )
    simple = _parse_simple(text, max_dice, max_sides)
    if simple is not None:
        return simple
    return _parse_with_grammar(text, max_dice, max_sides)


def _parse_with_grammar(text: str, max_dice: int, max_sides: int) -> Expr:
    from lark.exceptions import UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text) from None
    return _TreeBuilder(text, max_dice, max_sides).build(tree)


@functools.cache
def _parser() -> Lark:
    from importlib.resources import files

    import lark

    grammar = files(__package__ or "rulekeeper.dice").joinpath("grammar.lark").read_text(encoding="utf-8")
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, cache=_parser_cache_file(lark.__version__))


def _parser_cache_file(lark_version: str) -> str | bool:
    """A private file for lark's pickled parse tables, or False to build them each run.

    Building the tables costs about 30 ms of CLI start-up. lark's own ``cache=True`` pickles
    into the shared temp directory under a predictable name, which another local user could
    plant; so the cache lives only in a directory that this user owns and nobody else can write.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    directory = os.path.join(base, "rulekeeper")
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        info = os.stat(directory)
    except OSError:
        return False
    getuid = getattr(os, "getuid", None)
    if getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o022):
        return False
    version = f"{sys.version_info[0]}{sys.version_info[1]}"
    return os.path.join(directory, f"dice-grammar-lark{lark_version}-py{version}.cache")


# Plain classes rather than NamedTuples, which are built by exec when the module is imported:
# only the grammar's rare forms need them, and every ``rulekeeper roll`` imports this module.
class _Sides:
    __slots__ = ("pos", "sides")

    def __init__(self, sides: int, pos: int) -> None:
        self.sides = sides
        self.pos = pos


class _Selection:
    __slots__ = ("keep", "pos")

    def __init__(self, keep: Keep, pos: int) -> None:
        self.keep = keep
        self.pos = pos


class _FaceMap:
    __slots__ = ("name", "pairs", "positions", "sides", "start")

    def __init__(
        self,
        pairs: tuple[tuple[int, int], ...],
        positions: tuple[int, ...],
        start: int,
        name: str = "",
        sides: int = 0,
    ) -> None:
        self.pairs = pairs
        self.positions = positions
        self.start = start
        self.name = name  # set for a named map, which belongs to one kind of die
        self.sides = sides


class _TreeBuilder:
    """Turns lark's tree into expression nodes, checking what the grammar cannot."""

    def __init__(self, text: str, max_dice: int, max_sides: int) -> None:
        self.text = text
        self.max_dice = max_dice
        self.max_sides = max_sides
        self.dice_terms: list[tuple[int, int]] = []  # (0-based start, count)

    def at(self, pos: int | None) -> _At:
        return _At(self.text, (pos if pos is not None else len(self.text)) + 1)

    def build(self, tree: Tree[Any]) -> Expr:
        from lark import Tree

        built: dict[int, Any] = {}
        # iter_subtrees yields children before parents without recursing, so a hostile
        # nesting depth fails our depth check instead of Python's recursion limit.
        for sub in tree.iter_subtrees():
            kids = [built[id(c)] if isinstance(c, Tree) else c for c in sub.children]
            node = getattr(self, "rule_" + str(sub.data))(kids, sub.meta.start_pos, sub.meta.end_pos)
            if isinstance(node, Expr) and node.depth > MAX_DEPTH:
                raise _fail(
                    f"expression nests more than {MAX_DEPTH} levels deep",
                    "a flatter expression",
                    self.at(sub.meta.start_pos),
                )
            if isinstance(node, Expr) and max(-node.min_value, node.max_value) > MAX_DICE_TOTAL:
                # Checked at every node, so no intermediate value grows past a few dozen digits.
                raise _fail(
                    f"{node} can reach {node.min_value if -node.min_value > node.max_value else node.max_value:.3e}"
                    f", beyond the limit of {MAX_DICE_TOTAL:.0e}",
                    f"totals within plus or minus {MAX_DICE_TOTAL:.0e}",
                    self.at(sub.meta.start_pos),
                )
            built[id(sub)] = node
        root: Expr = built[id(tree)]
        self.check_dice_cap()
        return root

    def number(self, token: Any) -> int:
        text = str(token)
        value = int(text) if len(text) <= _NUMBER_DIGITS else MAX_DICE_NUMBER + 1
        if value > MAX_DICE_NUMBER:
            shown = text if len(text) <= 12 else f"a number of {len(text):,} digits"
            raise _fail(
                f"{shown} is over the limit of {MAX_DICE_NUMBER:,}",
                f"numbers up to {MAX_DICE_NUMBER:,}",
                self.at(token.start_pos),
            )
        return value

    def check_dice_cap(self) -> None:
        total = 0
        for start, count in sorted(self.dice_terms):
            total += count
            if total > self.max_dice:
                raise _fail(
                    f"too many dice: {total:,} in one expression, over the cap of {self.max_dice:,}",
                    f"at most {self.max_dice:,} dice in all",
                    self.at(start),
                )

    # One method per grammar rule: ``kids`` are tokens and already-built children,
    # ``start`` and ``end`` the rule's 0-based span in the text.

    def rule_const(self, kids: list[Any], start: int, end: int) -> Expr:
        return Const(self.number(kids[0]))

    def rule_neg(self, kids: list[Any], start: int, end: int) -> Expr:
        return Neg(kids[1])

    def rule_binary(self, kids: list[Any], start: int, end: int) -> Expr:
        left, op_token, right = kids
        op = Op(str(op_token))
        if op is Op.DIV:
            _check_divisor(right, self.at(op_token.start_pos))
        return BinOp(op, left, right)

    def rule_sides(self, kids: list[Any], start: int, end: int) -> _Sides:
        token = kids[0]
        return _Sides(100 if token == "%" else self.number(token), start)

    def rule_selection(self, kids: list[Any], start: int, end: int) -> _Selection:
        mode = KeepMode(str(kids[0]).lower())
        count = self.number(kids[1]) if len(kids) > 1 else 1
        return _Selection(Keep(mode, count), start)

    def rule_signed(self, kids: list[Any], start: int, end: int) -> int:
        return -self.number(kids[1]) if len(kids) == 2 else self.number(kids[0])

    def rule_entry(self, kids: list[Any], start: int, end: int) -> tuple[int, int, int]:
        # A face written without a value counts 1, the usual success-counting case.
        return self.number(kids[0]), (kids[1] if len(kids) > 1 else 1), start

    def rule_facemap(self, kids: list[Any], start: int, end: int) -> _FaceMap:
        seen: set[int] = set()
        for face, _, pos in kids:
            if face in seen:
                raise _fail(f"face {face} is listed twice", "each face at most once", self.at(pos))
            seen.add(face)
        pairs = tuple((face, value) for face, value, _ in kids)
        return _FaceMap(pairs, tuple(pos for _, _, pos in kids), start)

    def rule_named_facemap(self, kids: list[Any], start: int, end: int) -> _FaceMap:
        name = str(kids[0]).lower()
        if name not in NAMED_FACE_MAPS:
            known = ", ".join(sorted(NAMED_FACE_MAPS))
            raise _fail(
                f"unknown face map {str(kids[0])!r}",
                f"one of {known}, or face:value pairs such as [6:1]",
                self.at(kids[0].start_pos),
            )
        sides, pairs = NAMED_FACE_MAPS[name]
        return _FaceMap(pairs, (start,) * len(pairs), start, name, sides)

    def rule_gurps_dice(self, kids: list[Any], start: int, end: int) -> Expr:
        return self.dice(kids[0], _Sides(6, kids[1].start_pos), None, None, start, end)

    def rule_dice(self, kids: list[Any], start: int, end: int) -> Expr:
        count_token = kids[0] if getattr(kids[0], "type", None) == "INT" else None
        sides = next(k for k in kids if isinstance(k, _Sides))
        selection = next((k for k in kids if isinstance(k, _Selection)), None)
        facemap = next((k for k in kids if isinstance(k, _FaceMap)), None)
        return self.dice(count_token, sides, selection, facemap, start, end)

    def dice(
        self,
        count_token: Any,
        sides_at: _Sides,
        selection: _Selection | None,
        facemap: _FaceMap | None,
        start: int,
        end: int,
    ) -> Expr:
        # The grammar skips blanks everywhere; inside "3d6kh2" they would only hide typos.
        # Blanks inside a face map's brackets are fine.
        term_end = facemap.start if facemap is not None else end
        for offset, char in enumerate(self.text[start:term_end]):
            if char.isspace():
                raise _fail(
                    "space inside a dice term",
                    "dice written without spaces, e.g. 4d6kh3",
                    self.at(start + offset),
                )
        count = self.number(count_token) if count_token is not None else 1
        _check_count(count, self.at(start))
        sides, sides_pos = sides_at.sides, sides_at.pos
        _check_sides(sides, self.at(sides_pos))
        if sides > self.max_sides:
            raise _fail(
                f"d{sides} has {sides:,} sides, over the cap of {self.max_sides:,}",
                f"at most {self.max_sides:,} sides",
                self.at(sides_pos),
            )
        keep = None
        if selection is not None:
            keep, keep_pos = selection.keep, selection.pos
            _check_keep(keep, count, self.at(keep_pos))
        faces = None
        if facemap is not None:
            if facemap.name and sides != facemap.sides:
                raise _fail(
                    f"{facemap.name} are counted on d{facemap.sides}, not d{sides}",
                    f"{count}d{facemap.sides}[{facemap.name}]",
                    self.at(sides_pos),
                )
            for (face, _), pos in zip(facemap.pairs, facemap.positions, strict=True):
                _check_face(face, sides, self.at(pos))
            faces = facemap.pairs
        self.dice_terms.append((start, count))
        return Dice(count, sides, keep, faces)


# ---------------------------------------------------------------------------- syntax errors

_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH"}


def _unclosed_paren(text: str) -> int | None:
    opened: list[int] = []
    for i, char in enumerate(text):
        if char == "(":
            opened.append(i)
        elif char == ")" and opened:
            opened.pop()
    return opened[-1] if opened else None


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _expected(expected: set[str], before: str) -> str:
    if "PERCENT" in expected:
        return "a number of sides after 'd', e.g. d6 or 3d6"
    if {"INT", "DIE", "LPAR"} <= expected:
        return "a number, dice such as 2d6, '(' or '-'"
    if "NAME" in expected:
        return "a face:value pair such as 6:2 or a face-map name such as icons"
    if before.rstrip().endswith(":"):
        return "the value a face counts, e.g. 6:2 or 1:-1"
    parts: list[str] = []
    if "DIE" in expected:
        parts.append("'d' as in 2d6")
    if "SELECT" in expected:
        parts.append("keep/drop such as kh3")
    if "LSQB" in expected:
        parts.append("a face map such as [6:1]")
    if "COLON" in expected:
        parts.append("':'")
    if "COMMA" in expected or "RSQB" in expected:
        parts.append("',' or ']'")
    if "INT" in expected:
        parts.append("a number")
    if expected & _OPERATORS:
        parts.append("an operator (+ - * /)")
    paren = _unclosed_paren(before)
    if paren is not None and "RPAR" in expected:
        parts.append(f"')' to close the '(' at position {paren + 1}")
    elif expected & _OPERATORS:
        parts.append("the end of the notation")
    return _join(parts) if parts else "valid dice notation, e.g. 3d6+2"


def _syntax_error(exc: UnexpectedInput, text: str) -> DiceError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    expected: set[str] = set()
    pos = len(text)
    found = "end of the notation"
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream if exc.pos_in_stream is not None else len(text)
        found = repr(text[pos]) if pos < len(text) else found
        expected = set(exc.allowed or ())
    elif isinstance(exc, UnexpectedToken):
        expected = set(exc.expected)
        token = exc.token
        if token.type != "$END" and token.start_pos is not None:
            pos = token.start_pos
            found = repr(str(token)) if len(str(token)) <= 20 else repr(str(token)[:17] + "...")
    else:
        expected = set(getattr(exc, "expected", ()) or ())
    at = _At(text, pos + 1)
    message = "unexpected end of the notation" if pos >= len(text) else f"unexpected {found}"
    return _fail(message, _expected(expected, text[:pos]), at)
