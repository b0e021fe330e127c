"""A roll against one of the character's attributes (ST, DX, IQ, HT, Will, Per) with the GM's
modifier: the plain success roll a GM asks for when no feat fits (seed 004's rolls are all 3d6
success rolls, as its "Attack Roll" section puts it). A DX or IQ roll carries the shock of an
injury taken before the character's last turn (seed 004, "Shock")."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask_roll, say_verdict

__all__ = ["ATTRIBUTES", "ATTRIBUTE_KIND", "ATTRIBUTE_ROLL_ACTION", "ATTRIBUTE_ROLL_HANDLERS"]

ATTRIBUTE_KIND = "gurps.attribute"
_PURPOSE = "feat.attribute"
#: attribute -> its name on the sheet's card; DX and IQ are the ones shock penalises.
ATTRIBUTES: dict[str, str] = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}
_SHOCKED = frozenset({"dx", "iq"})


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    attribute = action.params.str("attribute")
    reason = action.params.opt_str("reason")
    label = f"{char.name}'s {ATTRIBUTES[attribute]}" + (f" to {reason}" if reason else "")
    ask_roll(
        play,
        actor,
        kind=ATTRIBUTE_KIND,
        label=label,
        base=int(getattr(char, attribute)),
        modifier=action.params.int("modifier"),
        shocked=attribute in _SHOCKED,
        purpose=_PURPOSE,
        data={"attribute": attribute},
    )


def _on_roll(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    say_verdict(play, pending, result)


ATTRIBUTE_ROLL_ACTION = ActionSpec(
    name="attribute_roll",
    help="A success roll against an attribute (ST, DX, IQ, HT, Will or Per); DX and IQ carry shock.",
    handler=_handle,
    params=(
        ParamSpec("attribute", "choice", "the attribute rolled against", required=True, choices=tuple(ATTRIBUTES)),
        ParamSpec("modifier", "int", "GM's modifier", default=0, overrides_rules=True),
        ParamSpec("reason", "str", "what the roll is for"),
    ),
    kind="feat",
)

ATTRIBUTE_ROLL_HANDLERS: dict[str, CheckHandler] = {_PURPOSE: _on_roll}
