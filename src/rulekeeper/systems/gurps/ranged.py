"""The five steps to a ranged attack's effective skill (seed 004, "Range Attacks").

1. base skill with the weapon; 2. + Acc if the attack follows an Aim (+1 more after two turns
of Aim, +2 after three or more, seed 004 "Aim"); 3. the target's Size Modifier; 4. one combined
range-and-speed modifier; 5. circumstances (rapid fire, movement, darkness, cover, ...).
"""

from __future__ import annotations

from rulekeeper.core.check import Modifier

__all__ = ["aim_bonus", "ranged_modifiers"]


def aim_bonus(acc: int, aim_turns: int) -> int:
    """Acc after one turn of Aim, +1 after two, +2 after three or more; 0 without Aim."""
    if aim_turns <= 0:
        return 0
    return acc + min(2, aim_turns - 1)


def ranged_modifiers(
    *, acc: int, aim_turns: int, size_modifier: int, range_speed: int, circumstances: int
) -> tuple[Modifier, ...]:
    """Steps 2-5 as modifiers to the base skill (step 1), each with its reason."""
    return (
        Modifier(aim_bonus(acc, aim_turns), f"step 2: Aim ({aim_turns} turn(s), Acc {acc})"),
        Modifier(size_modifier, "step 3: target's Size Modifier"),
        Modifier(range_speed, "step 4: range and speed"),
        Modifier(circumstances, "step 5: circumstances"),
    )
