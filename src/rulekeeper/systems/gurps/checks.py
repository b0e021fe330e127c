"""Every kind of check the core GURPS rules ask for, and one helper to ask for a success roll.

Kinds are dotted so a table can set a whole family at once (``gurps.will`` covers
``gurps.will.collapse``); ``gurps`` covers them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.section import CheckKind, Section
from rulekeeper.core.success_roll import SuccessRoll

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["CHECK_KINDS_SECTION", "CORE_CHECK_KINDS", "ask_success_roll"]

CORE_CHECK_KINDS: dict[str, str] = {
    "gurps.attack": "attack roll against effective weapon skill",
    "gurps.defense": "active defense roll: Dodge, Parry or Block",
    "gurps.feint": "Feint: Quick Contest of weapon skills",
    "gurps.parry-counter": "weapon skill roll to injure an unarmed attacker whose attack was parried",
    "gurps.consciousness": "HT roll each turn at 0 HP or below to stay conscious",
    "gurps.death": "HT roll to avoid death at each multiple of -HP, and every 12 hours untreated",
    "gurps.major-wound": "HT roll after a major wound (stun and knockdown, or passing out)",
    "gurps.stun": "HT (or IQ) roll at the end of each turn to recover from stun",
    "gurps.wake": "HT roll to wake from unconsciousness (hourly, or once after 12 hours)",
    "gurps.natural-recovery": "HT roll at the end of each day of rest to regain 1 HP",
    "gurps.will.collapse": "Will roll at 0 FP or less to act instead of collapsing",
    "gurps.will.aim": "Will roll to keep one's aim when injured",
    "gurps.will.concentrate": "Will-3 roll to keep concentrating when interrupted",
    "gurps.damage": "damage roll of a hit (after the defence fails), or of the damage action given dice",
    "gurps.initiative": "3d roll at the start of combat for sides still tied on Basic Speed and DX",
}


def ask_success_roll(
    play: Play[GurpsCharacter],
    *,
    kind: str,
    label: str,
    base: int,
    modifiers: Iterable[Modifier] = (),
    purpose: str,
    rule: Rule,
    actor: str | None,
    data: Mapping[str, Any] | None = None,
) -> CheckResult | None:
    """Ask for a 3d6 success roll through the table's automation level (rolled, pending or noted)."""
    check = SuccessRoll(kind=kind, label=label, base=base, modifiers=tuple(m for m in modifiers if m.value))
    return play.check(check, purpose=purpose, rule=rule, actor=actor, data=data)


#: The check kinds of the core rules (the feats' are declared in ``feat_kinds``).
CHECK_KINDS_SECTION = Section(
    "check kinds", check_kinds=tuple(CheckKind(kind, text) for kind, text in CORE_CHECK_KINDS.items())
)
