"""A roll against one of the character's skills, as the GM asks for it or a player taps it on the
sheet (GURPS Game Aid's on-the-fly rolls): the sheet's level and a modifier. Seed 004's rolls are all
3d6 success rolls ("Attack Roll").

Shock reaches "DX, IQ, and skills based on those attributes" on the turn after an injury (seed 004,
"Shock"; capped at -4 when it is taken, ``thresholds.shock_penalty``, and gone after that turn,
``turns``). A skill's base comes from the sheet (``skill_bases``, which a GCS import fills from
each skill's attribute) or the seed's own default (Climbing DX, Hiking HT); a skill whose base is
unknown is read as DX- or IQ-based, as nearly every skill is, so the penalty is never silently
lost. A skill based on ST, HT, Will or Per takes none.
"""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.character import GurpsCharacter
from rulekeeper.systems.gurps.feats.attribute_roll import ATTRIBUTES
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask_roll, say_verdict
from rulekeeper.systems.gurps.status import incapacity

__all__ = ["SKILL_KIND", "SKILL_ROLL_ACTION", "SKILL_ROLL_HANDLERS", "shocked_skill"]

SKILL_KIND = "gurps.skill"
_PURPOSE = "feat.skill"
#: Bases shock does not reach (seed 004, "Shock": DX, IQ and the skills based on them only).
_UNSHOCKED = frozenset({"st", "ht", "will", "per"})


def shocked_skill(character: GurpsCharacter, skill: str) -> bool:
    """Whether shock reaches a roll against ``skill``: unless it is based on ST, HT, Will or Per."""
    return character.skill_base(skill) not in _UNSHOCKED


def _sheet_skill(character: GurpsCharacter, name: str) -> tuple[str, int]:
    key = name.strip().lower()
    if key in character.skills:
        return key, character.skills[key]
    if key in ("shield", "cloak") and character.shield_skill is not None:
        return key, character.shield_skill
    if key not in ATTRIBUTES:  # an attribute roll is attribute_roll, not a skill at "default"
        # Not on the sheet but with the seed's default (Climbing at DX-5): rolled at the default,
        # as the player's sheet view and its one-tap rolls show it.
        level = character.skill(key)
        if level is not None:
            return key, level
    known = sorted(character.skills) + (["shield"] if character.shield_skill is not None else [])
    raise InputError(
        f"{character.name or 'this character'} has no skill {name!r} on the sheet",
        expected="one of "
        + (", ".join(known) if known else "none: add skills to the sheet first")
        + " (an attribute roll is attribute_roll)",
        where="skill",
    )


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    unable = incapacity(play, actor)
    if unable:
        raise RuleRefusal(f"{actor} is {unable} and cannot roll a skill")
    skill, level = _sheet_skill(char, action.params.str("skill"))
    reason = action.params.opt_str("reason")
    label = f"{char.name}'s {skill} skill" + (f" to {reason}" if reason else "")
    ask_roll(
        play,
        actor,
        kind=SKILL_KIND,
        label=label,
        base=level,
        modifier=action.params.int("modifier"),
        shocked=shocked_skill(char, skill),
        purpose=_PURPOSE,
        data={"skill": skill},
    )


def _on_roll(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    say_verdict(play, pending, result, at=f" at {pending.data.get('skill')}")


SKILL_ROLL_ACTION = ActionSpec(
    name="skill_roll",
    help="A success roll against a skill on the sheet, with a modifier; DX- and IQ-based skills carry shock.",
    handler=_handle,
    params=(
        ParamSpec("skill", "str", "the skill on the sheet, e.g. climbing", required=True),
        ParamSpec(
            "modifier",
            "int",
            "the GM's or the situation's modifier",
            default=0,
            minimum=-30,
            maximum=30,
            overrides_rules=True,
        ),
        ParamSpec("reason", "str", "what the roll is for"),
    ),
    kind="feat",
)

SKILL_ROLL_HANDLERS: dict[str, CheckHandler] = {_PURPOSE: _on_roll}
