"""Item reactions: a roll against 4, material and thickness bonuses, survival = weight in pounds.

Seed 002, "Item reactions". Items carried by a character who comes through an attack unhurt
survive with them. Otherwise (not carried, carrier unconscious, or carrier injured by the
attack) a reaction roll against 4 -- plus the material's modifier against the attack form, plus
the thickness bonus -- decides whether the item takes damage; its survival points equal its
weight in pounds.

Thickness: +1 at the material's bonus thickness and +1 more for each doubling beyond it (glass:
+1 at a quarter inch, +2 at half an inch, +3 at an inch, +4 at two inches).

*Unconfirmed*: the seed's material table is garbled (its cells have shifted, and several are
blank). The bonus-thickness column is clear and confirmed by the glass example. The modifiers
below are one reconstruction -- the paper row prints all three values and so fixes the column
order; the others keep their printed order with the gap placed where the material is weak (glass
breaks under a blow, fire melts ice and burns wood, acid eats metal and stone). Every row keeps
its printed cells, and a table can override the modifier on each roll.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rulekeeper.errors import InputError

__all__ = [
    "ATTACK_FORMS",
    "ITEM_REACTION_BASE",
    "MATERIALS",
    "Material",
    "item_reaction_target",
    "item_survival",
    "material",
    "parse_thickness",
    "thickness_bonus",
]

ITEM_REACTION_BASE = 4
ATTACK_FORMS: tuple[str, ...] = ("fire", "bludgeon", "acid", "other")


@dataclass(frozen=True)
class Material:
    name: str
    bonus_thickness: Fraction
    modifiers: Mapping[str, int] = field(default_factory=dict)
    printed: str = ""
    unconfirmed: str = "modifier columns reconstructed from a garbled table"

    def modifier(self, attack: str) -> int:
        return int(self.modifiers.get(attack, 0))


# Seed 002, "Item reactions" table; ``printed`` keeps the cells exactly as the seed shows them.
MATERIALS: tuple[Material, ...] = (
    Material("glass", Fraction(1, 4), {"fire": 8, "acid": 16}, printed="+8 +16 | quarter inch"),
    Material("ice", Fraction(1, 2), {"bludgeon": 8}, printed="+8 | half inch"),
    Material("metal", Fraction(1, 4), {"fire": 6, "bludgeon": 5}, printed="+6 +5 | quarter inch"),
    Material(
        "paper",
        Fraction(1, 2),
        {"fire": -2, "bludgeon": 6, "acid": 8},
        printed="-2 +6 +8 | half inch",
        unconfirmed="",
    ),
    Material("stone", Fraction(1), {"fire": 8, "bludgeon": 10}, printed="+8 +10 | inch"),
    Material("wood", Fraction(1), {"bludgeon": 3, "acid": 5}, printed="+3 +5 | inch"),
)
_BY_NAME = {m.name: m for m in MATERIALS}

_VULGAR = {"¼": Fraction(1, 4), "½": Fraction(1, 2), "¾": Fraction(3, 4), "⅛": Fraction(1, 8)}
_THICKNESS_EXPECTED = "inches such as 1/4, 0.5, 2 or 1 1/2"


def material(name: str) -> Material:
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        raise InputError(f"unknown material {name!r}", expected="one of " + ", ".join(_BY_NAME)) from None


def parse_thickness(text: str | float | int) -> Fraction:
    """Inches from ``"1/4"``, ``"0.25"``, ``"¼"``, ``"1 1/2"`` or a number; must be above 0."""
    if isinstance(text, bool):
        raise InputError(f"thickness {text!r} is not valid", expected=_THICKNESS_EXPECTED, where="thickness")
    try:
        if isinstance(text, (int, float)):
            value = Fraction(text)
        else:
            cleaned = text.strip().lower().removesuffix("inches").removesuffix("inch").removesuffix('"').strip()
            value = Fraction(0)
            for part in cleaned.split():
                for glyph, amount in _VULGAR.items():
                    if glyph in part:
                        value += amount
                        part = part.replace(glyph, "")
                if part:
                    value += Fraction(part)
            if not cleaned:
                raise ValueError
    except (ValueError, ZeroDivisionError):
        raise InputError(f"cannot read thickness {text!r}", expected=_THICKNESS_EXPECTED, where="thickness") from None
    if value <= 0:
        raise InputError(f"thickness {text!r} is not valid", expected=_THICKNESS_EXPECTED, where="thickness")
    return value


def thickness_bonus(thickness: Fraction, bonus_thickness: Fraction) -> int:
    """+1 at the bonus thickness, +1 per doubling beyond it; 0 when thinner."""
    if thickness < bonus_thickness:
        return 0
    ratio = thickness / bonus_thickness
    # floor(log2(ratio)) exactly, without floating point.
    doublings = ratio.numerator // ratio.denominator
    return 1 + (doublings.bit_length() - 1)


def item_reaction_target(
    mat: Material,
    attack: str,
    thickness: Fraction,
    *,
    bonus: int = 0,
    modifier: int | None = None,
) -> int:
    """The number the d20 must not exceed: 4 + material modifier + thickness bonus + ``bonus``.

    ``modifier`` replaces the material's (unconfirmed) modifier when the table knows better.
    """
    if attack not in ATTACK_FORMS:
        raise InputError(f"unknown attack form {attack!r}", expected="one of " + ", ".join(ATTACK_FORMS))
    mod = mat.modifier(attack) if modifier is None else modifier
    return ITEM_REACTION_BASE + mod + thickness_bonus(thickness, mat.bonus_thickness) + bonus


def item_survival(weight_pounds: float) -> int:
    """An item's survival points: its weight in pounds, rounded down (the project default)."""
    if weight_pounds < 0 or math.isnan(weight_pounds):
        raise InputError(f"weight {weight_pounds} is not valid", expected="0 pounds or more")
    return math.floor(weight_pounds)
