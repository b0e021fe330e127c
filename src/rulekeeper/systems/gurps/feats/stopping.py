"""Ending a feat that goes on over time: off the climb, done running, out of the water (or rescued)."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gurps.feats.checking import GurpsPlay
from rulekeeper.systems.gurps.feats.citations import CLIMBING, RUNNING, SWIMMING
from rulekeeper.systems.gurps.feats.climbing import end_climb
from rulekeeper.systems.gurps.feats.running import RUN_TIMER
from rulekeeper.systems.gurps.feats.swimming import end_swim

__all__ = ["ONGOING_FEATS", "STOP_ACTION"]

ONGOING_FEATS = ("climbing", "running", "swimming")


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    name = play.char(actor).name
    feat = action.params.str("feat")
    if feat == "climbing":
        if not (play.has(actor, "climbing") or play.has(actor, "hanging")):
            raise RuleRefusal(f"{name} is not climbing ({CLIMBING})")
        end_climb(play, actor)
        play.explain(f"{name} stops climbing", CLIMBING, actor=actor)
    elif feat == "running":
        if not play.has(actor, "running"):
            raise RuleRefusal(f"{name} is not running ({RUNNING})")
        play.cancel_timers(actor=actor, kind=RUN_TIMER)
        play.drop_pending(actor=actor, purpose="feat.run")
        play.remove_condition(actor, "running", RUNNING)
    else:
        if not play.has(actor, "swimming"):
            raise RuleRefusal(f"{name} is not in the water ({SWIMMING})")
        end_swim(play, actor, f"{name} is out of the water (ashore or rescued)")
    play.result["stopped"] = feat


STOP_ACTION = ActionSpec(
    name="stop_feat",
    help="End an ongoing feat: leave the climb, stop running, get out of the water (or be rescued).",
    handler=_handle,
    params=(ParamSpec("feat", "choice", "the feat to end", required=True, choices=ONGOING_FEATS),),
    kind="feat",
)
