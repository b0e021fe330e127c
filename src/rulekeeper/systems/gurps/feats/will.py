"""Will rolls and Fright Checks (seed 004, "Will Rolls", "Fright Checks").

A Will roll keeps a character focused under stress. A Fright Check is a Will roll against
fear: failure stuns for (margin of failure + 2d) seconds (stun, Lite p. 30); a critical failure
makes the character faint -- unconscious, beyond reviving -- for (margin of failure + 1d)
minutes. Both durations are plain rolls of their own kind (``gurps.fright.stun``,
``gurps.fright.faint``), so a table on ``prompt`` types them. Both are conditions with durations,
so they end by themselves as the clock runs. A
failure that is not below the effective Will (a 17 against Will 17+) has a margin of 0.
"""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Critical
from rulekeeper.core.clock import MINUTE, format_duration
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier
from rulekeeper.systems.gurps.feats.citations import FRIGHT, FRIGHT_FAINT, FRIGHT_STUN, WILL

__all__ = [
    "FAINT_KIND",
    "FRIGHT_ACTION",
    "STUN_KIND",
    "WILL_ACTION",
    "WILL_CHECK_HANDLERS",
    "faint_minutes",
    "stun_seconds",
]

# The duration dice of a failed Fright Check, plain rolls asked once the check has failed.
FAINT_KIND = "gurps.fright.faint"
STUN_KIND = "gurps.fright.stun"
FAINT_PURPOSE = "feat.fright.faint"
STUN_PURPOSE = "feat.fright.stun"


def stun_seconds(margin_of_failure: int, two_dice: int) -> int:
    """Seconds stunned after a failed Fright Check: margin of failure plus 2d."""
    return max(0, margin_of_failure) + two_dice


def faint_minutes(margin_of_failure: int, one_die: int) -> int:
    """Minutes fainted after a critically failed Fright Check: margin of failure plus 1d."""
    return max(0, margin_of_failure) + one_die


def _handle_will(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    reason = action.params.str("reason")
    check = SuccessRoll(
        kind="gurps.will",
        label=f"{char.name}'s Will against {reason}",
        base=char.will,
        modifiers=gm_modifier(action.params.int("modifier")),
    )
    ask(play, check, purpose="feat.will", rule=WILL, actor=actor, data={"reason": reason})


def _on_will(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    name = play.char(actor).name
    text = "stays focused and acts normally" if result.success else "gives in and is distracted"
    play.explain(f"{name} {text}", WILL, actor=actor)
    play.result["success"] = result.success


def _handle_fright(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    check = SuccessRoll(
        kind="gurps.fright",
        label=f"{char.name}'s Fright Check (Will)",
        base=char.will,
        modifiers=gm_modifier(action.params.int("modifier")),
    )
    ask(play, check, purpose="feat.fright", rule=FRIGHT, actor=actor)


def _on_fright(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    name = play.char(actor).name
    play.result["success"] = result.success
    if result.success:
        play.explain(f"{name} masters the fear", FRIGHT, actor=actor)
        return
    margin = max(0, -result.margin)
    play.result["margin_of_failure"] = margin
    if play.char(actor).dead or play.has(actor, "unconscious"):
        play.explain(f"{name} is already beyond fear's reach (unconscious or dead)", FRIGHT, actor=actor)
        return
    fainted = result.critical is Critical.FAILURE
    play.roll_check(
        DiceRoll(
            kind=FAINT_KIND if fainted else STUN_KIND,
            label="critical failure: minutes fainted beyond the margin"
            if fainted
            else "seconds stunned beyond the margin",
            notation="1d" if fainted else "2d",
        ),
        purpose=FAINT_PURPOSE if fainted else STUN_PURPOSE,
        rule=FRIGHT_FAINT if fainted else FRIGHT,
        actor=actor,
        data={"margin": margin},
        stakes=Stakes(
            purpose=f"how long {name}'s failed Fright Check lasts (margin of failure {margin} plus this roll)",
            on_success=f"{name} faints for that many minutes, beyond reviving"
            if fainted
            else f"{name} is stunned by fear for that many seconds",
        ),
    )


def _out_meanwhile(play: GurpsPlay, actor: str, what: str) -> bool:
    """Whether the character was knocked out while the duration dice waited for the table (an
    injury, fatigue): the faint or stun then changes nothing, lest it replace that
    unconsciousness with one that ends on its own (roll_rules 8)."""
    if not (play.state.settings.conditions_kept_apart and play.has(actor, "unconscious")):
        return False
    play.explain(f"{play.char(actor).name} is already unconscious: {what} changes nothing", FRIGHT, actor=actor)
    return True


def _on_faint_roll(play: GurpsPlay, pending: PendingCheck, die: CheckResult) -> None:
    actor, margin = str(pending.actor), int(pending.data["margin"])
    name = play.char(actor).name
    minutes = faint_minutes(margin, die.total)
    if _out_meanwhile(play, actor, "the faint"):
        return
    play.add_condition(
        actor,
        "unconscious",
        FRIGHT_FAINT,
        duration=minutes * MINUTE,
        # ``causes`` as the rest of the GURPS rules keep it, so injury or fatigue can join in
        data={"causes": ["fright"]},
        text=f"{name} faints and cannot be revived for {margin} + {die.total} = {minutes} minutes",
    )
    play.result.update({"fainted": True, "minutes": minutes})


def _on_stun_roll(play: GurpsPlay, pending: PendingCheck, dice: CheckResult) -> None:
    actor, margin = str(pending.actor), int(pending.data["margin"])
    name = play.char(actor).name
    seconds = stun_seconds(margin, dice.total)
    if _out_meanwhile(play, actor, "the stun"):
        return
    text = f"{name} is stunned by fear for {margin} + {dice.total} = {format_duration(seconds)}"
    if not play.state.settings.conditions_kept_apart:
        # As campaigns before roll_rules 8 were played (and replay): one ``stunned`` condition,
        # which a physical stun then replaced, or which replaced it.
        play.add_condition(
            actor, "stunned", FRIGHT_STUN, duration=seconds, data={"kind": "mental", "cause": "fright"}, text=text
        )
        play.result.update({"stunned": True, "seconds": seconds})
        return
    # A stun of its own: it lasts its time whatever a roll to recover from another stun shows,
    # and ends no such stun when its time is up. A longer one still under way is kept.
    held = play.state.condition(actor, "stunned by fear")
    if held is not None and held.until is not None and held.until >= play.now + seconds:
        left = format_duration(held.until - play.now)
        play.explain(f"{text}; the stun by fear from before lasts longer: {left} more", FRIGHT_STUN, actor=actor)
    else:
        play.add_condition(actor, "stunned by fear", FRIGHT_STUN, duration=seconds, text=text)
    play.result.update({"stunned": True, "seconds": seconds})


WILL_ACTION = ActionSpec(
    name="will_roll",
    help="A Will roll to stay focused under stress or distraction.",
    handler=_handle_will,
    params=(
        ParamSpec("modifier", "int", "GM's modifier", default=0, overrides_rules=True),
        ParamSpec("reason", "str", "what the character resists", default="stress"),
    ),
    kind="feat",
)

FRIGHT_ACTION = ActionSpec(
    name="fright_check",
    help="A Fright Check (Will): stunned for margin + 2d seconds on failure; faint for margin + 1d minutes on a "
    "critical failure.",
    handler=_handle_fright,
    params=(
        ParamSpec(
            "modifier",
            "int",
            "modifiers from the horror, advantages and circumstances",
            default=0,
            overrides_rules=True,
        ),
    ),
    kind="feat",
)

WILL_CHECK_HANDLERS: dict[str, CheckHandler] = {
    "feat.will": _on_will,
    "feat.fright": _on_fright,
    FAINT_PURPOSE: _on_faint_roll,
    STUN_PURPOSE: _on_stun_roll,
}
