"""Non-player characters: estimated endurance, survival dice by level, no verve (seed 000, "Non-player characters").

* Unknown endurance: 10 plus half the level (rounded down, the project's default rounding),
  plus the per-die survival bonus of a level such as ``3+2``.
* Survival: d6 per level, d10 per level for warriors, plus the per-die bonus on each die.
  NPCs without an archetype also use d6 (reading; a sheet may give other dice).
* No verve. Each night they regain ``level`` survival without a roll (see :mod:`.recovery`).

A sheet without survival leaves the dice in ``survival_dice``; they are rolled by the
``roll_npc_survival`` action or, at the latest, when the NPC first takes damage. The roll is a
plain roll of kind ``gm.npc-survival``: under ``prompt`` the damage that needs it waits for it
(damage arriving meanwhile queues behind it) and lands once the dice are typed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.play import Play
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.rules import NPCS, rule

__all__ = [
    "NPC_SURVIVAL_KIND",
    "NPC_SURVIVAL_PURPOSE",
    "dice_text",
    "ensure_survival_rolled",
    "estimated_endurance",
    "roll_npc_survival",
    "survival_dice",
    "survival_die",
    "survival_pending",
]

NPC_SURVIVAL_KIND = "gm.npc-survival"
NPC_SURVIVAL_PURPOSE = "npc-survival"


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


def roll_npc_survival(play: Play[GmCharacter], actor: str, *, then: Mapping[str, Any] | None = None) -> None:
    """Roll an NPC's survival dice (a ``gm.npc-survival`` roll); the total is both current and
    maximum survival. ``then``: damage waiting for it (see :func:`.damage.take_damage`)."""
    character = play.char(actor)
    if not character.survival_dice:
        raise RuleRefusal(f"{actor}'s survival is already known ({character.max_survival}); nothing to roll")
    waiting = survival_pending(play, actor)
    if waiting is not None:
        if then is None:
            raise RuleRefusal(f"{actor}'s survival dice are already asked for (pending check #{waiting.id})")
        queued = [*waiting.data.get("then", ()), dict(then)]
        again = replace(waiting, data={**waiting.data, "then": queued})
        play.state = replace(play.state, pending=tuple(again if p.id == waiting.id else p for p in play.state.pending))
        play.explain(
            f"the damage to {actor} waits for {actor}'s survival dice (pending check #{waiting.id})",
            rule(NPCS),
            actor=actor,
        )
        return
    play.roll_check(
        DiceRoll(kind=NPC_SURVIVAL_KIND, label=f"{actor}'s survival", notation=character.survival_dice),
        purpose=NPC_SURVIVAL_PURPOSE,
        rule=rule(NPCS),
        actor=actor,
        data={"then": [dict(then)]} if then is not None else {},
        stakes=Stakes(
            purpose=f"{actor}'s survival, unknown until now ({character.survival_dice})",
            on_success=f"the total is {actor}'s survival and maximum survival"
            + ("; the damage that asked for it then comes off" if then is not None else ""),
        ),
    )


def survival_pending(play: Play[GmCharacter], actor: str) -> PendingCheck | None:
    """The survival roll of ``actor`` left for the table, if one waits."""
    return next(
        (p for p in play.state.pending if p.actor == actor and p.purpose == NPC_SURVIVAL_PURPOSE),
        None,
    )


def ensure_survival_rolled(play: Play[GmCharacter], actor: str) -> bool:
    """Roll the survival dice if still unknown; False when they wait for the table."""
    if play.char(actor).survival_dice:
        roll_npc_survival(play, actor)
    return not play.char(actor).survival_dice
