"""Seed 000 rules usable without a campaign (``rulekeeper feat gm spell-cap --level 5 --injuries 2``)."""

from __future__ import annotations

from collections.abc import Mapping

from rulekeeper.core.action import Calculation, CalculatorSpec, ParamSpec
from rulekeeper.core.check import Modifier
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.roll_under import ActingContest, RollUnder
from rulekeeper.core.section import Section
from rulekeeper.systems.gods_monsters.character import ARCHETYPES, BonusPool, GmCharacter
from rulekeeper.systems.gods_monsters.damage import absorb
from rulekeeper.systems.gods_monsters.dying import UNCONSCIOUS_DEATH_BONUS, dying_minutes
from rulekeeper.systems.gods_monsters.npc import estimated_endurance, survival_dice
from rulekeeper.systems.gods_monsters.recovery import recovery_for
from rulekeeper.systems.gods_monsters.rules import BONUS_POOLS, INJURIES, NPCS, REGAINING, TIME_TO_DIE, rule
from rulekeeper.systems.gods_monsters.spells import spell_level_cap

__all__ = ["CALCULATORS_SECTION", "SEED_000_CALCULATORS"]


def _spell_cap(p: Params) -> Calculation:
    level, injuries = p.int("level"), p.int("injuries")
    cap = spell_level_cap(level, injuries)
    text = f"level {level} − {injuries} injuries: spells up to level {cap} can be cast or memorized"
    return Calculation({"max_spell_level": cap}, (Step(text, rule(INJURIES)),))


def _damage(p: Params) -> Calculation:
    pools = (BonusPool("bonus pool", p.int("bonus_pool")),) if p.int("bonus_pool") else ()
    before = GmCharacter(
        survival=p.int("survival"),
        max_survival=p.int("survival"),
        verve=p.int("verve"),
        max_verve=p.int("verve"),
        injuries=p.int("injuries"),
        bonus_pools=pools,
    )
    hit = absorb(before, p.int("amount"), archetypal=p.bool("archetypal"), direct_injuries=p.int("direct_injuries"))
    after = hit.character
    steps = [
        Step(f"bonus pool absorbs {hit.from_pools}", rule(BONUS_POOLS)),
        Step(
            f"verve absorbs {hit.from_verve}" + ("" if p.bool("archetypal") else " (not archetypal: verve cannot)"),
            rule("Using verve"),
        ),
        Step(f"survival absorbs {hit.from_survival}", rule(REGAINING)),
        Step(f"{hit.to_injuries} injuries; {-after.injuries:+d} on every roll", rule(INJURIES)),
    ]
    values = {
        **hit.to_json(),
        "bonus_pool": after.bonus_pool_points,
        "verve": after.verve,
        "survival": after.survival,
        "injuries": after.injuries,
        "consciousness_roll": hit.to_injuries > 0 or (before.survival > 0 and after.survival == 0),
    }
    return Calculation(values, tuple(steps))


def _npc(p: Params) -> Calculation:
    level, archetype, bonus = p.int("level"), p.str("archetype"), p.int("survival_bonus")
    endurance = estimated_endurance(level, bonus)
    dice = survival_dice(level, archetype, bonus)
    die = 10 if archetype == "warrior" else 6
    average = level * (die + 1) / 2 + bonus * level
    return Calculation(
        {"endurance": endurance, "survival_dice": dice, "average_survival": average, "verve": 0},
        (
            Step(
                f"endurance estimate 10 + {level}//2" + (f" + {bonus}" if bonus else "") + f" = {endurance}", rule(NPCS)
            ),
            Step(f"survival {dice} (d{die} per level), no verve", rule(NPCS)),
        ),
    )


def _death(p: Params) -> Calculation:
    injuries, endurance = p.int("injuries"), p.int("endurance")
    unconscious = p.bool("unconscious")
    mods = [Modifier(-injuries, "injuries")] if injuries else []
    if unconscious:
        mods.append(Modifier(UNCONSCIOUS_DEATH_BONUS, "unconscious"))
    if p.int("field_bonus"):
        mods.append(Modifier(p.int("field_bonus"), "field"))
    contest = ActingContest(
        kind="gm.death",
        label="death roll",
        acting=RollUnder(kind="gm.death", label="injuries", score=injuries),
        resisting=RollUnder(kind="gm.death", label="endurance", score=endurance, modifiers=tuple(mods)),
    )
    count = dying_minutes(endurance, injuries)
    unit = "hours" if unconscious else "minutes"
    chance = contest.probability()
    return Calculation(
        {
            "endurance_target": contest.resisting.target,
            "chance_of_dying": float(chance),
            "chance_of_dying_exact": str(chance),
            "dying_time": count,
            "dying_unit": unit,
        },
        (
            Step(contest.describe(), rule(TIME_TO_DIE)),
            Step(f"chance the injuries prevail: {float(chance):.1%}", rule(TIME_TO_DIE)),
            Step(
                f"if dying: {count} {unit} (endurance − injuries)"
                if count > 0
                else "if dying: no time at all; death at the end of the scene",
                rule(TIME_TO_DIE),
            ),
        ),
    )


def _night_rest(p: Params) -> Calculation:
    character = GmCharacter(
        level=p.int("level"),
        survival=p.int("survival"),
        max_survival=p.int("max_survival"),
        injuries=p.int("injuries"),
        health=p.int("health"),
    )
    if character.survival > character.max_survival:
        from rulekeeper.errors import InputError

        raise InputError(
            "survival is above max_survival", expected=f"at most {character.max_survival}", where="survival"
        )
    choice = p.str("recover")
    target = RollUnder(
        kind="gm.rest",
        label="health",
        score=character.health,
        modifiers=(Modifier(-character.injuries, "injuries"),) if character.injuries else (),
    )
    win = recovery_for(character, success=True, choice=choice)
    lose = recovery_for(character, success=False, choice=choice)

    def after(gains: dict[str, int]) -> dict[str, int]:
        return {
            "survival": min(character.max_survival, character.survival + gains["survival"]),
            "injuries": character.injuries - gains["injuries"],
        }

    ok, bad = after(win), after(lose)
    return Calculation(
        {
            "health_target": target.target,
            "chance_of_success": float(target.probability()),
            "on_success": ok,
            "on_failure": bad,
            "full_day_of_rest": ok,
        },
        (
            Step(target.describe(), rule(REGAINING)),
            Step(f"success: survival {ok['survival']}, injuries {ok['injuries']}", rule(REGAINING)),
            Step(f"failure: survival {bad['survival']}, injuries {bad['injuries']}", rule(REGAINING)),
        ),
    )


SEED_000_CALCULATORS: Mapping[str, CalculatorSpec] = {
    spec.name: spec
    for spec in (
        CalculatorSpec(
            "spell_cap",
            "Highest spell level a sorceror can cast or memorize: level minus injuries",
            _spell_cap,
            (
                ParamSpec("level", "int", "sorceror level", required=True, minimum=0, maximum=99),
                ParamSpec("injuries", "int", "injury points", default=0, minimum=0, maximum=10_000),
            ),
            rule(INJURIES),
        ),
        CalculatorSpec(
            "damage",
            "Where damage goes: bonus pool, verve (archetypal only), survival, injuries",
            _damage,
            (
                ParamSpec("amount", "int", "points of damage", required=True, minimum=0, maximum=100_000),
                ParamSpec("survival", "int", "current survival", required=True, minimum=0, maximum=100_000),
                ParamSpec("verve", "int", "current verve", default=0, minimum=0, maximum=100_000),
                ParamSpec("injuries", "int", "current injuries", default=0, minimum=0, maximum=10_000),
                ParamSpec("bonus_pool", "int", "temporary bonus pool points", default=0, minimum=0, maximum=100_000),
                ParamSpec("archetypal", "bool", "the damage is archetypal", default=False),
                ParamSpec(
                    "direct_injuries",
                    "int",
                    "points that go straight to injuries",
                    default=0,
                    minimum=0,
                    maximum=100_000,
                ),
            ),
            rule(REGAINING),
        ),
        CalculatorSpec(
            "npc",
            "NPC estimates: endurance 10 + level/2, survival dice d6 per level (d10 warriors), no verve",
            _npc,
            (
                ParamSpec("level", "int", "NPC level", required=True, minimum=0, maximum=99),
                ParamSpec("archetype", "choice", "archetype", default="", choices=ARCHETYPES),
                ParamSpec(
                    "survival_bonus", "int", "per-die survival bonus (level 3+2: 2)", default=0, minimum=-99, maximum=99
                ),
            ),
            rule(NPCS),
        ),
        CalculatorSpec(
            "death",
            "Odds of the death roll and the dying time",
            _death,
            (
                ParamSpec("injuries", "int", "injury total", required=True, minimum=0, maximum=10_000),
                ParamSpec("endurance", "int", "endurance", required=True, minimum=0, maximum=99),
                ParamSpec("unconscious", "bool", "unconscious or semi-conscious (+2, hours)", default=False),
                ParamSpec("field_bonus", "int", "bonus of a relevant field", default=0, minimum=-99, maximum=99),
            ),
            rule(TIME_TO_DIE),
        ),
        CalculatorSpec(
            "night_rest",
            "What a night's rest restores on a successful or failed health roll",
            _night_rest,
            (
                ParamSpec("level", "int", "level", required=True, minimum=0, maximum=99),
                ParamSpec("survival", "int", "current survival", required=True, minimum=0, maximum=100_000),
                ParamSpec("max_survival", "int", "maximum survival", required=True, minimum=0, maximum=100_000),
                ParamSpec("injuries", "int", "injury points", default=0, minimum=0, maximum=10_000),
                ParamSpec("health", "int", "health reaction", default=10, minimum=0, maximum=99),
                ParamSpec(
                    "recover",
                    "choice",
                    "on success: auto, survival or injury",
                    default="auto",
                    choices=("auto", "survival", "injury"),
                ),
            ),
            rule(REGAINING),
        ),
    )
}


#: Seed 000's calculators.
CALCULATORS_SECTION = Section("calculators", calculators=SEED_000_CALCULATORS)
