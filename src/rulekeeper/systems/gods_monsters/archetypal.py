"""When damage is archetypal, so that verve absorbs it (seed 000, "Using verve").

The four criteria, in our words: the loss comes from something that required a roll against
(1) the character's archetypal reaction or (2) their archetypal ability; (3) it follows
straight from something the character did in their archetype's line, physically or by a rule,
specialties included (the table's judgement); (4) the character is a warrior and is in
combat. Archetypal reaction and ability per archetype are in :data:`.character.ARCHETYPAL`.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulekeeper.systems.gods_monsters.character import GmCharacter

__all__ = ["CRITERIA", "archetypal_reason"]

CRITERIA: Mapping[int, str] = {
    1: "a roll against the archetypal reaction",
    2: "a roll against the archetypal ability",
    3: "the direct consequence of an archetypal action",
    4: "a warrior in combat",
}


def archetypal_reason(
    character: GmCharacter,
    *,
    roll_against: str = "",
    consequence: bool = False,
    in_combat: bool = False,
) -> str | None:
    """The criterion the damage meets (as text), or ``None`` when it is not archetypal."""
    if roll_against and roll_against == character.archetypal_reaction:
        return f"criterion 1: {CRITERIA[1]} ({roll_against})"
    if roll_against and roll_against == character.archetypal_ability:
        return f"criterion 2: {CRITERIA[2]} ({roll_against})"
    if consequence:
        return f"criterion 3: {CRITERIA[3]}"
    if in_combat and character.archetype == "warrior":
        return f"criterion 4: {CRITERIA[4]}"
    return None
