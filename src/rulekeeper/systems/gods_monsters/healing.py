"""Healing aid: survival, injuries and verve restored, never above their maximums.

Seed 000, "Regaining survival and healing injuries": nothing raises survival or verve above
their maximums. "A time to die": reaching 0 injuries cancels a dying character's death, but once
the time has run out (doomed) even healing cannot help. Aging injuries are unhealable (seed 002,
"Actions and consequences: Aging"). Magical healing ends the shock of an illusory death (seed
002, "Actions and consequences: Illusions").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.citation import Rule
from rulekeeper.core.play import Play
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import dying
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.rules import REGAINING, TIME_TO_DIE, rule

__all__ = ["heal", "restore"]


def restore(
    character: GmCharacter, *, survival: int = 0, injuries: int = 0, verve: int = 0
) -> tuple[GmCharacter, dict[str, int]]:
    """Pure: add survival and verve up to their maximums and remove healable injuries.

    Returns the new character and what actually changed.
    """
    gained_survival = max(0, min(survival, character.max_survival - character.survival))
    gained_verve = max(0, min(verve, character.max_verve - character.verve))
    removed = max(0, min(injuries, character.healable_injuries))
    after = replace(
        character,
        survival=character.survival + gained_survival,
        verve=character.verve + gained_verve,
        injuries=character.injuries - removed,
    )
    return after, {"survival": gained_survival, "verve": gained_verve, "injuries": removed}


def heal(
    play: Play[GmCharacter],
    actor: str,
    cite: Rule,
    *,
    survival: int = 0,
    injuries: int = 0,
    verve: int = 0,
    magical: bool = False,
    source: str = "healing",
) -> dict[str, Any]:
    """Restore points to ``actor``, with the consequences; returns what changed.

    Refuses a dead or doomed character. A character reaching 0 injuries stops dying.
    """
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead; healing cannot help (seed 000, {TIME_TO_DIE})")
    if play.has(actor, cond.DOOMED):
        raise RuleRefusal(f"{actor}'s time has run out; even healing cannot help (seed 000, {TIME_TO_DIE})")
    before = play.char(actor)
    after, changed = restore(before, survival=survival, injuries=injuries, verve=verve)
    play.put(actor, after)
    parts = []
    if survival:
        parts.append(f"survival {before.survival} → {after.survival} (max {after.max_survival})")
    if verve:
        parts.append(f"verve {before.verve} → {after.verve} (max {after.max_verve})")
    if injuries:
        parts.append(f"injuries {before.injuries} → {after.injuries}")
        if changed["injuries"] < injuries and before.unhealable_injuries:
            parts.append(f"{before.unhealable_injuries} unhealable (aging)")
    play.explain(f"{source} for {actor}: " + ("; ".join(parts) or "nothing to restore"), cite, actor=actor)
    if changed["survival"] < survival or changed["verve"] < verve:
        play.explain(
            "survival and verve never rise above their maximums",
            rule(REGAINING),
            actor=actor,
        )
    if after.injuries == 0:
        dying.cancel_dying(play, actor)
    if magical and play.has(actor, cond.SHOCK):
        play.remove_condition(actor, cond.SHOCK, rule("Actions and consequences: Illusions", seed="002"))
    play.result.update(
        survival=after.survival,
        verve=after.verve,
        injuries=after.injuries,
        restored=changed,
    )
    return changed
