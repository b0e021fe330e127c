"""Rolling an expression: the immutable result tree and the ways it explains itself.

A :class:`Roll` mirrors its expression: a dice term's roll holds its :class:`DieResult`\\ s,
an operator's roll holds the rolls of its operands, and every node knows its total. Die
values come only from the :class:`~rulekeeper.dice.source.DiceSource` passed in, taken in
reading order (left to right), so a roll is replayed exactly by a
:class:`~rulekeeper.dice.source.ScriptedSource` given ``roll.to_json()["values"]``.

Plain text marks a dropped die as ``~2~`` and a pool die as ``face:counted``::

    4d6kh3 (5, ~2~, 4, 5) + 2 = 16
    3d6[4:1,5:1,6:2] (6:2, 1:0, 4:1) = 3
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.dice.notation import UNARY, BinOp, Const, Dice, Expr, Neg, Op
from rulekeeper.dice.source import SeededSource
from rulekeeper.dice.values import Value
from rulekeeper.errors import DiceError

if TYPE_CHECKING:
    from rich.text import Text

    from rulekeeper.dice.source import DiceSource

__all__ = ["DieResult", "Roll", "roll_expr"]


class DieResult(Value):
    """One die: what it showed, whether it was kept, and what it counted in a pool.

    ``counted`` is None for ordinary dice, which count their face value.
    """

    __match_args__ = ("sides", "value", "kept", "counted")
    __slots__ = __match_args__
    sides: int
    value: int
    kept: bool
    counted: int | None

    def __init__(self, sides: int, value: int, kept: bool = True, counted: int | None = None) -> None:
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "kept", kept)
        object.__setattr__(self, "counted", counted)

    @property
    def contribution(self) -> int:
        """What this die adds to its term's total."""
        if not self.kept:
            return 0
        return self.value if self.counted is None else self.counted

    @property
    def face_text(self) -> str:
        """The face, and for a pool die what it counted: ``5`` or ``6:2``."""
        return str(self.value) if self.counted is None else f"{self.value}:{self.counted}"

    def __str__(self) -> str:
        return self.face_text if self.kept else f"~{self.face_text}~"

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "value": self.value, "kept": self.kept, "counted": self.counted}


class Roll(Value):
    """The result of rolling ``expr`` once.

    ``parts`` are the rolls of the operands (none for a constant or a dice term) and
    ``rolled`` the dice of a dice term (none otherwise).
    """

    __match_args__ = ("expr", "total", "parts", "rolled")
    __slots__ = __match_args__
    expr: Expr
    total: int
    parts: tuple[Roll, ...]
    rolled: tuple[DieResult, ...]

    def __init__(
        self, expr: Expr, total: int, parts: tuple[Roll, ...] = (), rolled: tuple[DieResult, ...] = ()
    ) -> None:
        object.__setattr__(self, "expr", expr)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "rolled", rolled)

    @property
    def dice(self) -> tuple[DieResult, ...]:
        """Every die in the roll, in the order they were rolled."""
        if not self.parts:
            return self.rolled
        found: list[DieResult] = []
        stack: list[Roll] = [self]
        while stack:
            node = stack.pop()
            found.extend(node.rolled)
            stack.extend(reversed(node.parts))
        return tuple(found)

    def explain(self) -> str:
        """The roll without its final total, e.g. ``4d6kh3 (5, ~2~, 4, 5) + 2``."""
        expr = self.expr
        if isinstance(expr, Dice):
            # Plain kept dice are the common case, so they skip DieResult.__str__.
            shown = [str(d.value) if d.kept and d.counted is None else str(d) for d in self.rolled]
            return f"{expr} ({', '.join(shown)})"
        if isinstance(expr, Const):
            return str(expr.value)
        if isinstance(expr, Neg):
            return "-" + _wrap(self.parts[0], needs=_neg_operand_needs_parens(expr))
        if isinstance(expr, BinOp):
            left, right = self.parts
            return (
                f"{_wrap(left, needs=left.expr.precedence < expr.precedence)} {expr.op.value} "
                f"{_wrap(right, needs=_right_needs_parens(expr))}"
            )
        raise TypeError(f"cannot explain a roll of {type(expr).__name__}")

    def __str__(self) -> str:
        return f"{self.explain()} = {self.total}"

    def to_rich(self) -> Text:
        """The explanation as rich text: dropped dice struck through, best and worst faces coloured."""
        from rich.text import Text

        text = Text()
        _append_rich(self, text)
        text.append(" = ")
        text.append(str(self.total), style="bold")
        return text

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: notation, total, text, the die values in order, and the tree."""
        return {
            "notation": str(self.expr),
            "total": self.total,
            "text": str(self),
            "values": [d.value for d in self.dice],
            "tree": _node_json(self),
        }


def _wrap(node: Roll, *, needs: bool) -> str:
    text = node.explain()
    return f"({text})" if needs else text


def _neg_operand_needs_parens(expr: Neg) -> bool:
    return isinstance(expr.operand, Neg) or expr.operand.precedence < UNARY


def _right_needs_parens(expr: BinOp) -> bool:
    return expr.right.precedence <= expr.precedence or isinstance(expr.right, Neg)


def _die_style(die: DieResult) -> str | None:
    if not die.kept:
        return "dim strike"
    if die.counted is not None:
        return "bold green" if die.counted > 0 else "dim"
    if die.value == die.sides and die.sides > 1:
        return "bold green"
    if die.value == 1 and die.sides > 1:
        return "bold red"
    return None


def _append_rich(node: Roll, text: Text) -> None:
    expr = node.expr
    if isinstance(expr, Dice):
        text.append(f"{expr} (")
        for i, die in enumerate(node.rolled):
            if i:
                text.append(", ")
            text.append(str(die), style=_die_style(die))
        text.append(")")
    elif isinstance(expr, Const):
        text.append(str(expr.value))
    elif isinstance(expr, Neg):
        text.append("-")
        _append_rich_wrapped(node.parts[0], text, _neg_operand_needs_parens(expr))
    elif isinstance(expr, BinOp):
        left, right = node.parts
        _append_rich_wrapped(left, text, left.expr.precedence < expr.precedence)
        text.append(f" {expr.op.value} ")
        _append_rich_wrapped(right, text, _right_needs_parens(expr))


def _append_rich_wrapped(node: Roll, text: Text, needs: bool) -> None:
    if needs:
        text.append("(")
    _append_rich(node, text)
    if needs:
        text.append(")")


def _node_json(node: Roll) -> dict[str, Any]:
    expr = node.expr
    if isinstance(expr, Dice):
        return {
            "kind": "dice",
            "notation": str(expr),
            "total": node.total,
            "dice": [d.to_json() for d in node.rolled],
        }
    if isinstance(expr, Const):
        return {"kind": "constant", "total": node.total}
    if isinstance(expr, Neg):
        return {"kind": "negate", "total": node.total, "operand": _node_json(node.parts[0])}
    if isinstance(expr, BinOp):
        return {
            "kind": "binary",
            "op": expr.op.value,
            "total": node.total,
            "left": _node_json(node.parts[0]),
            "right": _node_json(node.parts[1]),
        }
    raise TypeError(f"cannot serialise a roll of {type(expr).__name__}")


# ---------------------------------------------------------------------------- rolling


def roll_expr(expr: Expr, source: DiceSource) -> Roll:
    """Roll ``expr`` once with dice from ``source``."""
    if isinstance(expr, Dice):
        return _roll_dice(expr, source)
    if isinstance(expr, BinOp):
        left = roll_expr(expr.left, source)
        right = roll_expr(expr.right, source)
        op = expr.op
        if op is Op.ADD:
            total = left.total + right.total
        elif op is Op.SUB:
            total = left.total - right.total
        elif op is Op.MUL:
            total = left.total * right.total
        else:
            total = left.total // right.total
        return Roll(expr, total, (left, right))
    if isinstance(expr, Const):
        return Roll(expr, expr.value)
    if isinstance(expr, Neg):
        inner = roll_expr(expr.operand, source)
        return Roll(expr, -inner.total, (inner,))
    raise TypeError(f"cannot roll {type(expr).__name__}")


#: Plain kept dice are immutable values, so one of each face serves every roll (as small ints
#: do): building three ``DieResult``\ s was a third of rolling ``3d6``. Dice up to this many
#: sides only, so the cache stays small.
_SHARED_FACES_UP_TO = 100
_plain_faces: dict[int, tuple[DieResult, ...]] = {}


def _faces(sides: int) -> tuple[DieResult, ...]:
    faces = _plain_faces.get(sides)
    if faces is None:
        faces = _plain_faces[sides] = tuple([DieResult(sides, v) for v in range(1, sides + 1)])
    return faces


def _roll_dice(expr: Dice, source: DiceSource) -> Roll:
    sides = expr.sides
    if type(source) is SeededSource:
        values = source.roll_many(sides, expr.count)  # our own source: always a face of the die
    else:
        draw = source.roll
        values = [draw(sides) for _ in range(expr.count)]
        for value in values:
            # A custom source is trusted with nothing: a face the die lacks would corrupt odds and replays.
            if type(value) is not int or not 1 <= value <= sides:
                raise DiceError(f"the dice source gave {value!r} for a d{sides}", expected=f"a value from 1 to {sides}")
    keep = expr.keep
    if keep is None and expr.faces is None and sides <= _SHARED_FACES_UP_TO:
        faces = _faces(sides)
        return Roll(expr, sum(values), (), tuple([faces[v - 1] for v in values]))
    if keep is None:
        kept = None
    else:
        # Sorting is stable, so among equal faces the earlier dice are the ones kept.
        order = sorted(range(len(values)), key=values.__getitem__, reverse=keep.keeps_highest)
        kept = [False] * len(values)
        for i in order[: keep.kept_count(len(values))]:
            kept[i] = True
    if expr.faces is None:
        if kept is None:
            return Roll(expr, sum(values), (), tuple([DieResult(sides, v) for v in values]))
        dice = tuple([DieResult(sides, v, k) for v, k in zip(values, kept, strict=True)])
    else:
        counted = expr.counted
        if kept is None:
            dice = tuple([DieResult(sides, v, True, counted(v)) for v in values])
        else:
            dice = tuple([DieResult(sides, v, k, counted(v)) for v, k in zip(values, kept, strict=True)])
    return Roll(expr, sum([d.contribution for d in dice]), (), dice)
