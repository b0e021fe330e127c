"""The Will roll at 0 FP or less before a feat or a skill roll out of combat (seed 004, "Lost Fatigue
Points": at 0 FP or less, anything but talking or resting takes a Will roll; on a failure the
character collapses). In combat the maneuver asks it before each maneuver (``turns``); out of it,
the feats that are doing something ask it here first, as a check of the kind
``gurps.will.collapse`` (so a table prompts for it or lets the engine roll it, like any other).

On a success the feat goes ahead, from the parameters it was given, when the Will roll's dice are
in (at once under ``auto``); on a failure the character collapses and the feat never happens.
Talking (Influence), noticing (Sense), the GM's Will and Fright Checks and stopping a feat are not
"doing" in the seed's sense and ask for none.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.action import ActionSpec, Call, validate_params
from rulekeeper.core.check import CheckResult
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.systems.gurps.fatigue import collapse, needs_will_to_act
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, is_incapable
from rulekeeper.systems.gurps.rules import FATIGUE_COLLAPSE

__all__ = ["GUARDED", "WILL_FIRST_HANDLERS", "WILL_TO_ACT_PURPOSE", "will_first"]

WILL_TO_ACT_PURPOSE = "feat.will_to_act"
WILL_TO_ACT_KIND = "gurps.will.collapse"
#: The feats that are doing something (seed 004: all but talking or resting).
GUARDED = frozenset({"climb", "hike", "jump", "lift", "carry", "run", "swim", "throw", "attribute_roll", "skill_roll"})
_INNER: dict[str, ActionSpec] = {}


def _must_roll(play: GurpsPlay, actor: str | None) -> bool:
    if actor is None or actor not in play.state.characters or is_incapable(play, actor):
        return False  # the feat's own rules refuse an incapable character, in their own words
    return needs_will_to_act(play.char(actor)) and not play.has(actor, "in combat")


def will_first(spec: ActionSpec) -> ActionSpec:
    """``spec`` asking the Will roll first when its character is at 0 FP or less, out of combat."""
    if spec.name not in GUARDED:
        return spec
    _INNER[spec.name] = spec
    inner = spec.handler

    def handler(play: GurpsPlay, call: Call) -> None:
        if not _must_roll(play, call.actor):
            inner(play, call)
            return
        actor = call.character
        char = play.char(actor)
        doing = spec.name.replace("_", " ")
        params = call.params.as_json()
        ask(
            play,
            SuccessRoll(
                kind=WILL_TO_ACT_KIND, label=f"{actor} Will to {doing} at {char.current_fp} FP", base=char.will
            ),
            purpose=WILL_TO_ACT_PURPOSE,
            rule=FATIGUE_COLLAPSE,
            actor=actor,
            data={"doing": doing, "action": spec.name, "params": params},
        )

    return replace(spec, handler=handler)


def _on_will(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    char = play.char(actor)
    if char.dead or is_incapable(play, actor):
        return
    doing = str(pending.data.get("doing", "act"))
    if not result.success:
        if char.current_fp <= 0:  # not rested back above 0 FP before the dice were in
            play.explain(f"{actor} collapses instead of trying to {doing}", FATIGUE_COLLAPSE, actor=actor)
            collapse(play, actor)
        return
    play.explain(f"{actor} pushes on and may {doing}", FATIGUE_COLLAPSE, actor=actor)
    spec = _INNER[str(pending.data["action"])]
    params = validate_params(spec.params, dict(pending.data.get("params") or {}), f"action {spec.name}")
    spec.handler(play, Call(spec.name, actor, params))


WILL_FIRST_HANDLERS: dict[str, CheckHandler] = {WILL_TO_ACT_PURPOSE: _on_will}
