"""Citations for GURPS rules: every consequence names seed 004's section and, where given, the page.

Pages are written as the seed gives them: small numbers are GURPS Lite pages ("Lite p. 17"),
the large ones Basic Set pages ("B325"). Sections without a page in the seed cite the heading only.
"""

from __future__ import annotations

from rulekeeper.core.citation import Rule

__all__ = [
    "ACTIVE_DEFENSE",
    "AIM",
    "ALL_OUT_ATTACK",
    "ALL_OUT_DEFENSE",
    "ATTACK",
    "ATTACK_ROLL",
    "BASIC_SET_WOUNDING",
    "BLOCK",
    "CHANGE_POSTURE",
    "COMBAT_SEQUENCE",
    "CONCENTRATE",
    "CONSCIOUSNESS",
    "DAMAGE",
    "DEATH",
    "DEFENDING",
    "DODGE",
    "DO_NOTHING",
    "ENCUMBRANCE",
    "EVALUATE",
    "FATIGUE",
    "FATIGUE_COLLAPSE",
    "FATIGUE_RECOVERY",
    "FATIGUE_UNCONSCIOUS",
    "FEINT",
    "GENERAL_INJURY",
    "MAJOR_WOUND",
    "MANEUVERS",
    "MIN_INJURY",
    "MOVE",
    "MOVE_AND_ATTACK",
    "NATURAL_RECOVERY",
    "PARRY",
    "RANGED",
    "READY",
    "REELING",
    "SEED",
    "SHOCK",
    "STUN",
    "SUCCESS_ROLL",
    "SUPPRESSION_FIRE",
    "SYSTEM",
    "THRUST_SWING",
    "UNCONSCIOUS_RECOVERY",
    "VERY_TIRED",
    "WAIT",
    "WOUNDING",
    "rule",
]

SYSTEM = "gurps"
SEED = "004"


def rule(section: str, page: str | None = None, reading: str | None = None) -> Rule:
    """A citation of seed 004: ``section`` is the seed's heading, ``page`` a Lite/Basic Set page."""
    return Rule(system=SYSTEM, section=section, seed=SEED, page=page, reading=reading)


SUCCESS_ROLL = rule("Attack Roll", reading="3d6 success roll and criticals as summarised in the brief's context")
ENCUMBRANCE = rule("Encumbrance and Move", "Lite p. 17")
THRUST_SWING = rule(
    "Throwing Damage Table",
    "Lite p. 6",
    reading="thrust/swing damage by ST 1-20 from GURPS Lite p. 6 (brief); higher ST is unconfirmed and refused",
)

COMBAT_SEQUENCE = rule(
    "Combat Sequence",
    reading="ties: PCs by DX, then a 3d roll; NPC-only ties keep the order the GM listed",
)
MANEUVERS = rule("Maneuvers")
AIM = rule("Aim")
ALL_OUT_ATTACK = rule("All-Out Attack")
ALL_OUT_DEFENSE = rule("All-Out Defense")
ATTACK = rule("Attack")
CHANGE_POSTURE = rule("Change Posture")
CONCENTRATE = rule("Concentrate")
DO_NOTHING = rule("Do Nothing")
EVALUATE = rule("Evaluate")
FEINT = rule("Feint")
MOVE = rule("Move")
MOVE_AND_ATTACK = rule("Move and Attack")
READY = rule("Ready", "B325")
WAIT = rule("Wait")
SUPPRESSION_FIRE = rule("All-Out Attack", "B410")

RANGED = rule("Range Attacks")
ATTACK_ROLL = rule("Attack Roll")
DEFENDING = rule("Defending")
ACTIVE_DEFENSE = rule("Active Defense Rolls")
DODGE = rule("Dodging")
BLOCK = rule("Blocking")
PARRY = rule("Perry", reading="'Perry' is Parry (brief)")

DAMAGE = rule("Damage & Injury")
WOUNDING = rule("Damage & Injury", reading="injury = penetrating damage x multiplier, rounded down (brief)")
BASIC_SET_WOUNDING = rule(
    "Damage & Injury",
    reading="the seed names only cr/cut/imp; the other multipliers are the Basic Set's wounding table",
)
MIN_INJURY = rule(
    "Damage & Injury",
    reading="Basic Set: a penetrating hit does at least 1 HP of injury (rule option min_injury, default on)",
)
GENERAL_INJURY = rule("General Damage")
REELING = rule("General Damage", reading="reeling halves Move and Dodge, rounded up")
CONSCIOUSNESS = rule("General Damage")
DEATH = rule("General Damage", reading="one HT roll for each multiple of -HP crossed, -1x to -4x; -5x HP is death")
MAJOR_WOUND = rule(
    "General Damage",
    reading="failure: stunned and knocked down; failure by 5+: unconscious; applied to any hit location",
)
SHOCK = rule(
    "General Damage",
    reading="penalty = HP lost, or HP lost / floor(HP/10) from 20 HP up, max -4; on the next turn only (brief)",
)
STUN = rule("Stunning", "Lite p. 30")
UNCONSCIOUS_RECOVERY = rule("Recovering from Unconsciousness")
NATURAL_RECOVERY = rule("Natural Recovery")
FATIGUE = rule("Lost Fatigue Points")
VERY_TIRED = rule("Lost Fatigue Points", reading="'less than 1/3' of FP, halving rounded up (brief)")
FATIGUE_COLLAPSE = rule("Lost Fatigue Points")
FATIGUE_UNCONSCIOUS = rule("Lost Fatigue Points")
FATIGUE_RECOVERY = rule("Recovering from Fatigue")
