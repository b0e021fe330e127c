"""A semi-conscious character asked to act or answer: willpower, or d4 rounds to respond."""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consequences.playing import ask, c_roll
from rulekeeper.systems.gods_monsters.consequences.sections import SEMI_CONSCIOUS, c_rule
from rulekeeper.systems.gods_monsters.consequences.semi_conscious import semi_conscious_limits

__all__ = [
    "REPLY_DELAY_KIND",
    "REPLY_DELAY_PURPOSE",
    "REPLY_PURPOSE",
    "SEMI_CONSCIOUS_ACTIONS",
    "SEMI_CONSCIOUS_SECTION",
    "on_reply_check",
    "on_reply_delay_roll",
]

REPLY_PURPOSE = "c.semi-conscious"
REPLY_DELAY_PURPOSE = "c.semi-conscious.delay"
REPLY_DELAY_KIND = "gm.semi-conscious.delay"


def _respond(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    if not play.has(actor, cond.SEMI_CONSCIOUS):
        raise RuleRefusal(f"{actor} is not semi-conscious (seed 002, {SEMI_CONSCIOUS})")
    what = action.params.str("prompt")
    cite = c_rule(SEMI_CONSCIOUS)
    play.explain(f"{actor}, semi-conscious, is {what}: they may respond, slowly", cite, actor=actor)
    limits = semi_conscious_limits()
    check = c_roll(play, actor, kind="gm.semi-conscious", score=limits.reply_roll)
    ask(play, actor, check, purpose=REPLY_PURPOSE, rule=cite)


def on_reply_check(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    cite = c_rule(SEMI_CONSCIOUS)
    if result.success:
        play.explain(f"{actor} responds at once", cite, actor=actor)
        play.result["respond"] = {"delay_rounds": 0}
        return
    play.roll_check(
        DiceRoll(
            kind=REPLY_DELAY_KIND,
            label=f"rounds before {actor} responds",
            notation=semi_conscious_limits().reply_delay_dice,
        ),
        purpose=REPLY_DELAY_PURPOSE,
        rule=cite,
        actor=actor,
        stakes=Stakes(
            purpose=f"how many rounds {actor}, semi-conscious, takes to respond after the failed willpower roll",
            on_success=f"{actor} responds after that many rounds",
        ),
    )


def on_reply_delay_roll(play: Play[GmCharacter], pending: PendingCheck, rolled: CheckResult) -> None:
    """The rounds before a semi-conscious character responds are in."""
    play.result["respond"] = {"delay_rounds": rolled.total}


SEMI_CONSCIOUS_ACTIONS: dict[str, ActionSpec] = {
    "respond": ActionSpec(
        "respond",
        "A semi-conscious character told to act or asked a question: willpower, or d4 rounds to respond (seed 002)",
        _respond,
        params=(
            ParamSpec(
                "prompt",
                "choice",
                "what happens to them",
                default="asked a question",
                choices=("asked a question", "told to act"),
            ),
        ),
        kind="reply",
    ),
}


#: Semi-consciousness (seed 002): responding takes willpower, and time on a failure.
SEMI_CONSCIOUS_SECTION = Section(
    "semi-consciousness",
    actions=SEMI_CONSCIOUS_ACTIONS,
    check_kinds=(
        CheckKind("gm.semi-conscious", "willpower roll for a semi-conscious character to respond"),
        CheckKind(
            REPLY_DELAY_KIND, "the d4 rounds a semi-conscious character takes to respond after failing willpower"
        ),
    ),
    checks=(CheckSpec(REPLY_PURPOSE, on_reply_check), CheckSpec(REPLY_DELAY_PURPOSE, on_reply_delay_roll)),
)
