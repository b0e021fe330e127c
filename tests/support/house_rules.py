"""Hearth: a fifth game system that exists only in the tests, as a table's house rules would.

It is found the way a user's own system is (docs/plugins.md): ``RULEKEEPER_SYSTEMS=
"hearth=support.house_rules:HearthRuleset"`` with ``tests`` on the path. Nothing in the adapters
knows it, so if it plays in the CLI, the API, the pages and the simulation, they ask the ruleset
for everything they show.

The rules: a character has Grit and a Skill. ``strike`` rolls d20 under Skill (a check of kind
``hearth.strike``, which a table may leave for the dice); a hit costs the target 1d6 Grit.
``damage`` and ``mend`` move Grit directly. At 0 Grit a character is *down* and bleeds: a timer
takes 1 Grit a round until Grit reaches minus the maximum, and the character is dead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulekeeper.core import (
    ActionSpec,
    Calculation,
    CalculatorSpec,
    CheckResult,
    GameState,
    Modifier,
    ParamSpec,
    PendingCheck,
    Play,
    RollUnder,
    Rule,
    Ruleset,
    Step,
    Timer,
)
from rulekeeper.core.action import Call
from rulekeeper.core.check import Check
from rulekeeper.core.combat import Combat, HitCheck
from rulekeeper.core.odds import MODIFIER, TARGET, Odds
from rulekeeper.core.params import Params
from rulekeeper.core.presentation import Bar, Standing, Stat, Vitals
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.errors import InputError, RuleRefusal

NAME = "hearth"
LOCATION = "support.house_rules:HearthRuleset"
RULE = Rule(system=NAME, section="Hearth house rules")
STRIKE = "hearth.strike"
BLEED = "hearth.bleed"


@dataclass(frozen=True)
class HearthCharacter:
    name: str
    grit: int
    max_grit: int
    skill: int


def _hurt(play: Play[HearthCharacter], actor: str, amount: int) -> None:
    char = play.char(actor)
    char = replace(char, grit=char.grit - amount)
    play.put(actor, char)
    play.explain(f"{actor} loses {amount} Grit, now {char.grit}", RULE, actor=actor)
    if char.grit <= 0 and not play.has(actor, "down"):
        play.add_condition(actor, "down", RULE)
        play.schedule(HearthRuleset.round_seconds, BLEED, f"{actor} bleeds", actor=actor)


def _strike(play: Play[HearthCharacter], action: Call) -> None:
    actor, target = action.character, action.params.str("target")
    if play.has(actor, "down"):
        raise RuleRefusal(f"{actor} is down and cannot strike")
    play.char(target)
    modifier = action.params.int("modifier")
    mods = (Modifier(modifier, "circumstances"),) if modifier else ()
    check = RollUnder(kind=STRIKE, label=f"{actor} strikes {target}", score=play.char(actor).skill, modifiers=mods)
    play.check(check, purpose="strike", rule=RULE, actor=actor, data={"target": target})


def _damage(play: Play[HearthCharacter], action: Call) -> None:
    _hurt(play, action.character, action.params.int("amount"))


def _mend(play: Play[HearthCharacter], action: Call) -> None:
    actor = action.character
    if play.has(actor, "dead"):
        raise RuleRefusal(f"{actor} is dead")
    char = play.char(actor)
    grit = min(char.max_grit, char.grit + action.params.int("amount"))
    play.put(actor, replace(char, grit=grit))
    play.explain(f"{actor} mends to {grit} Grit", RULE, actor=actor)
    if grit > 0 and play.remove_condition(actor, "down", RULE):
        play.cancel_timers(actor=actor, kind=BLEED)


def _bleed_out(values: Params) -> Calculation:
    rounds = values.int("grit") + values.int("max_grit")
    step = Step(f"from {values['grit']} Grit, {rounds} rounds of bleeding to death", RULE)
    return Calculation({"rounds": rounds}, (step,))


class HearthCombat(Combat):
    health_name = "Grit"

    def hit_check(self, play: Play[Any], actor: str, hit: HitCheck) -> Check:
        return RollUnder(kind=STRIKE, label=f"{actor} strikes", score=hit.score or play.char(actor).skill)


def _on_strike(play: Play[HearthCharacter], pending: PendingCheck, result: CheckResult) -> None:
    if result.success:
        target = str(pending.data["target"])
        _hurt(play, target, play.roll("1d6", f"{pending.actor} hits {target}", RULE, actor=pending.actor).total)


def _on_bleed(play: Play[HearthCharacter], timer: Timer) -> None:
    actor = str(timer.actor)
    char = play.char(actor)
    char = replace(char, grit=char.grit - 1)
    play.put(actor, char)
    play.explain(f"{actor} bleeds 1 Grit, now {char.grit}", RULE, actor=actor)
    if char.grit <= -char.max_grit:
        play.add_condition(actor, "dead", RULE)
    else:
        play.schedule(HearthRuleset.round_seconds, BLEED, timer.label, actor=actor)


_AMOUNT = ParamSpec("amount", "int", "Grit", required=True, minimum=0)
_TARGET = ParamSpec("target", "character", "who is struck", required=True)
_MODIFIER = ParamSpec("modifier", "int", "circumstances", default=0, overrides_rules=True)

#: The whole of Hearth's rules is one section, declared as a built-in system's sections are.
HEARTH_SECTION = Section(
    "hearth",
    actions={
        "strike": ActionSpec("strike", "strike another character", _strike, (_TARGET, _MODIFIER), kind="attack"),
        "damage": ActionSpec("damage", "lose Grit", _damage, (_AMOUNT,), kind="damage"),
        "mend": ActionSpec("mend", "regain Grit", _mend, (_AMOUNT,), kind="heal"),
    },
    calculators={
        "bleed_out": CalculatorSpec(
            "bleed_out",
            "rounds until a bleeding character dies",
            _bleed_out,
            (ParamSpec("grit", "int", "Grit now", required=True),
             ParamSpec("max_grit", "int", "the sheet's Grit", required=True, minimum=1)),
        )
    },
    check_kinds=(CheckKind(STRIKE, "a strike: d20 under Skill"),),
    checks=(CheckSpec("strike", _on_strike),),
    timers=(TimerSpec(BLEED, _on_bleed),),
)


class HearthRuleset(Ruleset[HearthCharacter]):
    name = NAME
    aliases = ("hearth-rules",)
    title = "Hearth house rules"
    round_seconds = 6
    character_type = HearthCharacter
    sections = (HEARTH_SECTION,)
    odds_params = (TARGET, MODIFIER)

    def new_character(self, sheet: Mapping[str, Any]) -> HearthCharacter:
        unknown = sorted(set(sheet) - {"name", "grit", "skill"})
        if unknown:
            raise InputError(f"unknown field {unknown[0]!r}", expected="name, grit, skill", where=f"field {unknown[0]}")
        values = {}
        for field, default in (("grit", 8), ("skill", 10)):
            value = sheet.get(field, default)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(
                    f"{field}={value!r} is not valid", expected="a whole number of at least 1", where=field
                )
            values[field] = value
        return HearthCharacter(str(sheet["name"]), values["grit"], values["grit"], values["skill"])

    def view(self, state: GameState[HearthCharacter], actor: str) -> dict[str, Any]:
        c = state.characters[actor]
        return {
            "name": c.name,
            "grit": c.grit,
            "max_grit": c.max_grit,
            "skill": c.skill,
            "conditions": sorted(x.name for x in state.conditions_of(actor)),
        }

    # -- what the front ends ask -------------------------------------------------------------
    def vitals(self, view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
        if "grit" not in view:
            return Vitals()
        marks = tuple(m for m in ("down", "dead") if m in view.get("conditions", ()))
        return Vitals(
            bars=(Bar("Grit", int(view["grit"]), int(view["max_grit"])),),
            stats=(Stat("Skill", str(view["skill"])),),
            marks=marks,
            line=f"Grit {view['grit']}/{view['max_grit']}  Skill {view['skill']}",
        )

    def standing(self, state: GameState[HearthCharacter], actor: str) -> Standing:
        c = state.characters[actor]
        if state.has_condition(actor, "dead"):
            return Standing("dead", True, c.grit)
        if c.grit <= 0:
            return Standing("unconscious", True, c.grit)
        return Standing("wounded" if c.grit < c.max_grit else "unhurt", False, c.grit)

    def odds(self, values: Mapping[str, Any]) -> Odds:
        if values.get("target") is None:
            raise InputError("a Hearth strike needs a Skill", expected="check hearth 12")
        modifier = int(values.get("modifier") or 0)
        mods = (Modifier(modifier, "modifier"),) if modifier else ()
        check = RollUnder(kind=STRIKE, label="Strike", score=int(values["target"]), modifiers=mods)
        return Odds(
            check, tuple((f"{r:>2} {'S' if check.succeeds_on(r) else 'F'}", Fraction(1, 20)) for r in range(1, 21))
        )

    def combat(self) -> Combat:
        return HearthCombat()
