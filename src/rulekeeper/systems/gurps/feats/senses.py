"""Sense rolls, comprehension rolls and Danger Sense (seed 004, "Sense Roll").

A Vision, Hearing or Taste/Smell roll is a success roll against Per. When the GM asks for it,
a comprehension roll follows a success: against IQ for what anyone could work out, or against
a skill for what only an expert would grasp. With Danger Sense, a failed Sense or comprehension
roll about something dangerous brings a secret Perception roll by the GM; success means the
danger is sensed anyway (its kind, ``gurps.sense.danger``, can be set to ``note`` or ``auto``
so players do not see it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feat_kinds import SENSE_KINDS
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier, skill_level
from rulekeeper.systems.gurps.feats.citations import COMPREHENSION, DANGER_SENSE, SENSE

__all__ = ["COMPREHENSIONS", "SENSES", "SENSES_CHECK_HANDLERS", "SENSE_ACTION", "SENSE_KINDS"]

#: Sense -> (check kind, how the roll is called).
SENSES: dict[str, tuple[str, str]] = {
    "vision": ("gurps.sense.vision", "Vision"),
    "hearing": ("gurps.sense.hearing", "Hearing"),
    "taste-smell": ("gurps.sense.taste-smell", "Taste/Smell"),
}
COMPREHENSIONS = ("none", "iq", "skill")


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    sense = p.str("sense")
    kind, title = SENSES[sense]
    comprehension = p.str("comprehension")
    if comprehension == "skill":
        name = p.opt_str("comprehension_skill")
        if not name:
            raise InputError(
                "a comprehension roll against a skill needs the skill's name",
                expected="comprehension_skill=NAME",
                where="comprehension_skill",
            )
        skill_level(char, (name.lower(),), None, name)
    data = {
        "sense": sense,
        "comprehension": comprehension,
        "comprehension_skill": p.opt_str("comprehension_skill"),
        "comprehension_modifier": p.int("comprehension_modifier"),
        "dangerous": p.bool("dangerous"),
        "danger_sense": p.bool("danger_sense"),
    }
    check = SuccessRoll(
        kind=kind,
        label=f"{char.name}'s {title} (Per)",
        base=char.per,
        modifiers=gm_modifier(p.int("modifier")),
    )
    ask(play, check, purpose="feat.sense", rule=SENSE, actor=actor, data=data)


def _danger(play: GurpsPlay, actor: str, data: Mapping[str, Any]) -> None:
    if not (data.get("dangerous") and data.get("danger_sense")):
        return
    char = play.char(actor)
    play.explain(
        f"{char.name} has Danger Sense: the GM rolls Perception in secret", DANGER_SENSE, actor=actor, gm_only=True
    )
    check = SuccessRoll(kind="gurps.sense.danger", label=f"{char.name}'s Danger Sense (Per)", base=char.per)
    ask(play, check, purpose="feat.sense.danger", rule=DANGER_SENSE, actor=actor, data=dict(data))


def _on_sense(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    data = pending.data
    name = play.char(actor).name
    play.result["noticed"] = result.success
    if not result.success:
        play.explain(f"{name} does not notice it", SENSE, actor=actor)
        _danger(play, actor, data)
        return
    play.explain(f"{name} notices it", SENSE, actor=actor)
    how = str(data.get("comprehension") or "none")
    if how == "none":
        return
    char = play.char(actor)
    if how == "iq":
        base, title = char.iq, "IQ"
    else:
        title = str(data["comprehension_skill"])
        base = skill_level(char, (title.lower(),), None, title)
    check = SuccessRoll(
        kind="gurps.sense.comprehension",
        label=f"{char.name}'s {title} to understand it",
        base=base,
        modifiers=gm_modifier(data.get("comprehension_modifier")),
    )
    ask(play, check, purpose="feat.sense.comprehension", rule=COMPREHENSION, actor=actor, data=dict(data))


def _on_comprehension(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    name = play.char(actor).name
    play.result["understood"] = result.success
    verdict = "understands what it means" if result.success else "does not grasp what it means"
    play.explain(f"{name} {verdict}", COMPREHENSION, actor=actor)
    if not result.success:
        _danger(play, actor, pending.data)


def _on_danger(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    name = play.char(actor).name
    play.result["danger_sensed"] = result.success
    verdict = "senses danger all the same" if result.success else "has no sense of danger"
    play.explain(f"{name} {verdict}", DANGER_SENSE, actor=actor, gm_only=True)


SENSE_ACTION = ActionSpec(
    name="sense",
    help="A Vision, Hearing or Taste/Smell roll against Per, with an optional comprehension roll and Danger Sense.",
    handler=_handle,
    params=(
        ParamSpec("sense", "choice", "which sense", default="vision", choices=tuple(SENSES)),
        ParamSpec("modifier", "int", "GM's modifier to the Sense roll", default=0, overrides_rules=True),
        ParamSpec(
            "comprehension",
            "choice",
            "a comprehension roll after success: none, iq or skill",
            default="none",
            choices=COMPREHENSIONS,
        ),
        ParamSpec("comprehension_skill", "str", "skill for an expert's comprehension roll"),
        ParamSpec(
            "comprehension_modifier", "int", "GM's modifier to the comprehension roll", default=0, overrides_rules=True
        ),
        ParamSpec("dangerous", "bool", "what is there to notice is dangerous", default=False, overrides_rules=True),
        ParamSpec(
            "danger_sense", "bool", "the character has the Danger Sense advantage", default=False, overrides_rules=True
        ),
    ),
    kind="feat",
)

SENSES_CHECK_HANDLERS: dict[str, CheckHandler] = {
    "feat.sense": _on_sense,
    "feat.sense.comprehension": _on_comprehension,
    "feat.sense.danger": _on_danger,
}
