"""Influence rolls and reaction rolls (seed 004, "Influence Rolls"; reaction table Lite p. 3).

An Influence roll is a Quick Contest of the chosen Influence skill against the subject's Will.
The reaction it earns comes from :data:`INFLUENCE_SKILLS`; with Diplomacy the GM also makes a
regular reaction roll (3d6 plus reaction modifiers) and the better reaction stands. That roll is
made once the contest is settled (a plain roll of kind ``gurps.reaction``), so a table typing dice
in gives the contest's six dice and then three more; under ``prompt`` it is a pending check of its own.
"""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import QuickContest, SuccessRoll
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier, skill_level
from rulekeeper.systems.gurps.feats.citations import INFLUENCE, REACTION
from rulekeeper.systems.gurps.feats.influence_table import INFLUENCE_SKILLS
from rulekeeper.systems.gurps.feats.reaction_table import Reaction, reaction_for

__all__ = [
    "INFLUENCE_ACTION",
    "INFLUENCE_CHECK_HANDLERS",
    "REACTION_CALCULATOR",
    "REACTION_KIND",
    "REACTION_PURPOSE",
    "influence_reaction",
]

REACTION_KIND = "gurps.reaction"
REACTION_PURPOSE = "feat.influence.reaction"


def influence_reaction(skill: str, won: bool, reaction_roll: int | None = None) -> Reaction:
    """The reaction an Influence roll earns; ``reaction_roll`` is Diplomacy's extra roll total."""
    row = INFLUENCE_SKILLS.get(skill)
    if row is None:
        raise InputError(f"unknown Influence skill {skill!r}", expected="one of " + ", ".join(INFLUENCE_SKILLS))
    earned = row.on_win if won else row.on_loss
    if row.also_reaction_roll and reaction_roll is not None:
        return max(earned, reaction_for(reaction_roll))
    return earned


def _compute(params: Params) -> Calculation:
    roll = params.int("roll")
    total = roll + params.int("modifier")
    reaction = reaction_for(total)
    step = Step(f"reaction roll {roll} {params.int('modifier'):+d} = {total}: {reaction.label}", REACTION)
    return Calculation(values={"total": total, "reaction": reaction.label}, steps=(step,))


REACTION_CALCULATOR = CalculatorSpec(
    name="reaction",
    help="Read a reaction roll (3d6 plus modifiers) on the reaction table.",
    compute=_compute,
    params=(
        ParamSpec("roll", "int", "the 3d6 rolled", required=True, minimum=3, maximum=18),
        ParamSpec("modifier", "int", "reaction modifiers", default=0),
    ),
    rule=REACTION,
)


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    p = action.params
    row = INFLUENCE_SKILLS[p.str("skill")]
    override = p.opt_int("skill_level")
    level = skill_level(char, row.sheet_names, override, row.title)
    subject = p.opt_str("subject")
    if subject:
        target = play.char(subject)
        will, who = target.will, target.name
    elif (subject_will := p.opt_int("subject_will")) is not None:
        will, who = subject_will, "the subject"
    else:
        raise InputError("an Influence roll needs a subject", expected="subject=ID or subject_will=N", where="subject")
    contest = QuickContest(
        kind="gurps.influence",
        label=f"{char.name}'s {row.title} against {who}'s Will",
        first=SuccessRoll(
            kind="gurps.influence",
            label=f"{char.name}'s {row.title}",
            base=level,
            modifiers=gm_modifier(p.int("modifier")),
        ),
        second=SuccessRoll(kind="gurps.will", label=f"{who}'s Will", base=will),
    )
    data = {"skill": row.key, "subject": who, "reaction_modifier": p.int("reaction_modifier")}
    ask(play, contest, purpose="feat.influence", rule=INFLUENCE, actor=actor, data=data)


def _on_check(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    actor = str(pending.actor)
    row = INFLUENCE_SKILLS[str(pending.data["skill"])]
    who = str(pending.data["subject"])
    won = result.success
    earned = row.on_win if won else row.on_loss
    verdict = "wins the contest" if won else "does not win the contest"
    play.explain(f"{play.char(actor).name} {verdict}: a {earned.label} reaction from {who}", row.rule, actor=actor)
    play.result.update({"won": won, "contest_reaction": earned.label})
    if not row.also_reaction_roll:
        play.result["reaction"] = earned.label
        return
    modifier = int(pending.data.get("reaction_modifier") or 0)
    play.roll_check(
        DiceRoll(kind=REACTION_KIND, label="Diplomacy: the GM also makes a reaction roll", notation="3d6"),
        purpose=REACTION_PURPOSE,
        rule=REACTION,
        actor=actor,
        data={"skill": row.key, "earned": int(earned), "reaction_modifier": modifier},
        stakes=Stakes(
            purpose=f"the reaction roll Diplomacy adds ({modifier:+d} reaction modifiers), read on the reaction table",
            on_success=f"the better of its reaction and the {earned.label} the contest earned stands",
        ),
    )


def _on_reaction_roll(play: GurpsPlay, pending: PendingCheck, rolled: CheckResult) -> None:
    """Diplomacy's reaction roll is in: the better of the two reactions stands."""
    actor = str(pending.actor)
    row = INFLUENCE_SKILLS[str(pending.data["skill"])]
    earned = Reaction(int(pending.data["earned"]))
    modifier = int(pending.data.get("reaction_modifier") or 0)
    total = rolled.total + modifier
    rolled_reaction = reaction_for(total)
    play.explain(
        f"reaction roll {rolled.total} {modifier:+d} = {total}: {rolled_reaction.label}", REACTION, actor=actor
    )
    reaction = max(earned, rolled_reaction)
    play.explain(f"the better of the two stands: {reaction.label}", row.rule, actor=actor)
    play.result.update({"reaction_roll": total, "rolled_reaction": rolled_reaction.label})
    play.result["reaction"] = reaction.label


INFLUENCE_ACTION = ActionSpec(
    name="influence",
    help="An Influence roll: Quick Contest of an Influence skill against the subject's Will, and the reaction earned.",
    handler=_handle,
    params=(
        ParamSpec("skill", "choice", "the Influence skill used", default="diplomacy", choices=tuple(INFLUENCE_SKILLS)),
        ParamSpec("subject", "character", "the character being influenced"),
        ParamSpec(
            "subject_will",
            "int",
            "the subject's Will, when the subject is not a character here",
            minimum=0,
            overrides_rules=True,
        ),
        ParamSpec("modifier", "int", "GM's modifier to the Influence skill", default=0, overrides_rules=True),
        ParamSpec("reaction_modifier", "int", "reaction modifiers for Diplomacy's reaction roll", default=0),
        ParamSpec("skill_level", "int", "skill level to use instead of the sheet's", minimum=0, overrides_rules=True),
    ),
    kind="feat",
)

INFLUENCE_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.influence": _on_check, REACTION_PURPOSE: _on_reaction_roll}
