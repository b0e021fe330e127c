"""A roll against one of the sheet's skills with the GM's modifier: the on-the-fly roll a player
makes from the sheet (seed 004's rolls are all 3d6 success rolls against the skill, as its
"Attack Roll" section puts it). The sheet records a skill's level, not the attribute it is
based on; nearly every skill is DX- or IQ-based, so the roll carries shock as a DX or IQ roll
does (seed 004, "Shock": DX, IQ and the skills based on them); the GM's modifier undoes it for
the rare ST-, HT- or Per-based skill."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier, with_shock
from rulekeeper.systems.gurps.rules import SUCCESS_ROLL

__all__ = ["SKILL_KIND", "SKILL_ROLL_ACTION", "SKILL_ROLL_HANDLERS"]

SKILL_KIND = "gurps.skill"
_PURPOSE = "feat.skill"


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    skill = action.params.str("skill")
    level = char.skill(skill)
    if level is None:
        known = ", ".join(sorted(char.skills)) or "none on the sheet"
        raise InputError(f"{actor} has no skill {skill!r}", expected=f"one of: {known}", where="skill")
    reason = action.params.opt_str("reason")
    label = f"{char.name}'s {skill}" + (f" to {reason}" if reason else "")
    check = SuccessRoll(kind=SKILL_KIND, label=label, base=level, modifiers=gm_modifier(action.params.int("modifier")))
    ask(play, with_shock(play, actor, check), purpose=_PURPOSE, rule=SUCCESS_ROLL, actor=actor, data={"skill": skill})


def _on_roll(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    verdict = "succeeds" if result.success else "fails"
    play.explain(f"{play.char(actor).name} {verdict}", SUCCESS_ROLL, actor=actor)
    play.result["success"] = result.success


SKILL_ROLL_ACTION = ActionSpec(
    name="skill_roll",
    help="A success roll against a skill on the sheet; it carries shock, as nearly all skills are DX- or IQ-based.",
    handler=_handle,
    params=(
        ParamSpec("skill", "str", "the skill rolled against, as the sheet names it", required=True),
        ParamSpec("modifier", "int", "GM's modifier", default=0),
        ParamSpec("reason", "str", "what the roll is for"),
    ),
    kind="feat",
)

SKILL_ROLL_HANDLERS: dict[str, CheckHandler] = {_PURPOSE: _on_roll}
