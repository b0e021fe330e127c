"""The Influence skills and the reaction each one earns (seed 004, "Influence Rolls").

Winning the Quick Contest against the subject's Will earns ``on_win``; any other outcome earns
``on_loss``. Diplomacy also gets a regular reaction roll, and the better of the two stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.feats.citations import INFLUENCE
from rulekeeper.systems.gurps.feats.reaction_table import Reaction

__all__ = ["INFLUENCE_SKILLS", "InfluenceSkill"]


@dataclass(frozen=True)
class InfluenceSkill:
    key: str
    title: str
    sheet_names: tuple[str, ...]
    on_win: Reaction
    on_loss: Reaction
    also_reaction_roll: bool
    rule: Rule


INFLUENCE_SKILLS: dict[str, InfluenceSkill] = {
    row.key: row
    for row in (
        InfluenceSkill("diplomacy", "Diplomacy", ("diplomacy",), Reaction.GOOD, Reaction.BAD, True, INFLUENCE),
        InfluenceSkill(
            "fast-talk", "Fast-Talk", ("fast-talk", "fast talk"), Reaction.GOOD, Reaction.BAD, False, INFLUENCE
        ),
        InfluenceSkill(
            "intimidation", "Intimidation", ("intimidation",), Reaction.GOOD, Reaction.VERY_BAD, False, INFLUENCE
        ),
        InfluenceSkill(
            "savoir-faire",
            "Savoir-Faire",
            ("savoir-faire", "savoir faire"),
            Reaction.GOOD,
            Reaction.BAD,
            False,
            INFLUENCE,
        ),
        InfluenceSkill(
            "sex-appeal", "Sex Appeal", ("sex appeal", "sex-appeal"), Reaction.VERY_GOOD, Reaction.BAD, False, INFLUENCE
        ),
        InfluenceSkill("streetwise", "Streetwise", ("streetwise",), Reaction.GOOD, Reaction.BAD, False, INFLUENCE),
    )
}
