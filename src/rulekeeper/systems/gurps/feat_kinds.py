"""Every kind of check the GURPS feats ask for, apart from the feats themselves.

The ruleset lists these among its check kinds (for automation settings) on every command,
while the feats' rules and tables (``systems/gurps/feats/``) load only when a feat is used.
"""

from __future__ import annotations

from rulekeeper.core.section import CheckKind, DeferredSection, Section

__all__ = ["DEFERRED_FEATS", "FEAT_CHECK_KINDS", "FEAT_KINDS_SECTION", "SECRET_KINDS", "SENSE_KINDS"]

SENSE_KINDS: dict[str, str] = {
    "gurps.sense.vision": "Vision roll against Per",
    "gurps.sense.hearing": "Hearing roll against Per",
    "gurps.sense.taste-smell": "Taste or Smell roll against Per",
    "gurps.sense.comprehension": "comprehension roll (IQ or a skill) after a successful Sense roll",
    "gurps.sense.danger": "Danger Sense: the GM's secret Perception roll",
}

FEAT_CHECK_KINDS: dict[str, str] = {
    "gurps.climbing": "Climbing roll to start a climb and every 5 minutes on it",
    "gurps.hiking": "daily Hiking roll (or a leader's roll for the group)",
    "gurps.ht.running": "HT roll every 15 s of sprinting or minute of paced running",
    "gurps.swimming": "Swimming roll on entering deep water and on the seed's schedule after",
    "gurps.ht.swimming": "roll against the higher of HT and Swimming for each minute at top speed",
    "gurps.throwing": "DX roll to hit with a thrown object",
    "gurps.throwing.damage": "the crushing damage dice of a throw that hit",
    **SENSE_KINDS,
    "gurps.influence": "Influence roll: Quick Contest of an Influence skill against Will",
    # The prefix of the core rules' Will rolls (gurps.will.collapse ...) too: one declaration.
    "gurps.will": "Will roll against stress or distraction",
    "gurps.fright": "Fright Check (Will roll against fear)",
    "gurps.fright.stun": "the 2d seconds of stun beyond the margin of a failed Fright Check",
    "gurps.fright.faint": "the 1d minutes fainted beyond the margin of a critically failed Fright Check",
    "gurps.reaction": "the GM's 3d6 reaction roll that Diplomacy adds to the Influence contest",
    "gurps.attribute": "success roll against an attribute (ST, DX, IQ, HT, Will, Per)",
    "gurps.skill": "success roll against a skill on the sheet",
}


#: Danger Sense is the GM's secret roll: no player sees it pending, nor the lines that report it.
SECRET_KINDS = frozenset({"gurps.sense.danger"})

#: The feats' check kinds, declared on every command (automation settings, secret rolls) ...
FEAT_KINDS_SECTION = Section(
    "feat check kinds",
    check_kinds=tuple(CheckKind(kind, text, secret=kind in SECRET_KINDS) for kind, text in FEAT_CHECK_KINDS.items()),
)
#: ... while the feats themselves load on their first check, timer or action.
DEFERRED_FEATS = DeferredSection(
    "rulekeeper.systems.gurps.feats:FEATS_SECTION", purpose_prefix="feat.", timer_prefix="gurps.feat."
)
