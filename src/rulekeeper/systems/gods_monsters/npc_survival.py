"""An NPC's survival dice, once rolled (seed 000, NPCs): survival is known, and the damage that
waited for it comes off.

Its own module, above both npc and damage: the result resumes the damage, and damage asks npc
for the dice (they were an import circle while this lived in npc).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.check import CheckResult
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.damage import resume_damage
from rulekeeper.systems.gods_monsters.npc import NPC_SURVIVAL_KIND, NPC_SURVIVAL_PURPOSE

__all__ = ["NPC_SECTION", "on_npc_survival_roll"]


def on_npc_survival_roll(play: Play[GmCharacter], pending: PendingCheck, rolled: CheckResult) -> None:
    """The survival dice are in: survival is known, and the damage waiting for it comes off."""
    actor = str(pending.actor)
    if actor not in play.state.characters:
        return  # the NPC left the game while its dice waited
    character = play.char(actor)
    if character.survival_dice:
        total = max(0, int(rolled.total))
        play.put(actor, replace(character, survival=total, max_survival=total, survival_dice=""))
        play.result["survival"] = total
    for then in pending.data.get("then", ()):
        resume_damage(play, actor, then)


#: NPCs (seed 000): survival dice rolled when first needed.
NPC_SECTION = Section(
    "npcs",
    check_kinds=(CheckKind(NPC_SURVIVAL_KIND, "an NPC's survival dice, rolled when first needed (seed 000)"),),
    checks=(CheckSpec(NPC_SURVIVAL_PURPOSE, on_npc_survival_roll),),
)
