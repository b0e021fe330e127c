"""Non-player characters: estimated endurance, survival dice by level, no verve (seed 000, "Non-player characters").

* Unknown endurance: 10 plus half the level (rounded down, the project's default rounding),
  plus the per-die survival bonus of a level such as ``3+2``.
* Survival: d6 per level, d10 per level for warriors, plus the per-die bonus on each die.
  NPCs without an archetype also use d6 (reading; a sheet may give other dice).
* No verve. Each night they regain ``level`` survival without a roll (see :mod:`.recovery`).

A sheet without survival leaves the dice in ``survival_dice``; they are rolled by the
``roll_npc_survival`` action or, at the latest, when the NPC first takes damage.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.play import Play
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.rules import NPCS, rule

__all__ = [
    "dice_text",
    "ensure_survival_rolled",
    "estimated_endurance",
    "roll_npc_survival",
    "survival_dice",
    "survival_die",
]


def dice_text(count: int, sides: int, bonus: int = 0) -> str:
    """``3d10+6``: the canonical dice notation for ``count`` dice of ``sides`` plus ``bonus``."""
    return f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")


def estimated_endurance(level: int, survival_bonus: int = 0) -> int:
    """10 + floor(level / 2), plus the per-die survival bonus."""
    return 10 + level // 2 + survival_bonus


def survival_die(archetype: str) -> int:
    return 10 if archetype == "warrior" else 6


def survival_dice(level: int, archetype: str, survival_bonus: int = 0) -> str:
    """The survival dice of an NPC: ``level`` dice, each with the per-die bonus."""
    return dice_text(level, survival_die(archetype), survival_bonus * level)


def roll_npc_survival(play: Play[GmCharacter], actor: str) -> int:
    """Roll an NPC's survival dice now; the result is both current and maximum survival."""
    character = play.char(actor)
    if not character.survival_dice:
        raise RuleRefusal(f"{actor}'s survival is already known ({character.max_survival}); nothing to roll")
    rolled = play.roll(character.survival_dice, f"{actor}'s survival", rule(NPCS), actor=actor)
    total = max(0, int(rolled.total))
    play.put(actor, replace(character, survival=total, max_survival=total, survival_dice=""))
    play.result["survival"] = total
    return total


def ensure_survival_rolled(play: Play[GmCharacter], actor: str) -> None:
    if play.char(actor).survival_dice:
        roll_npc_survival(play, actor)
