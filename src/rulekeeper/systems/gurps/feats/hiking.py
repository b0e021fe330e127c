"""Hiking: a day's march, the daily Hiking roll, the group roll under a leader, terrain.

Seed 004, "Hiking": a day's march under ideal conditions is 10 x Move miles; a successful
daily Hiking roll adds 20%; terrain multiplies the result. A leader with Leadership 12+ may
roll once for the whole group against its average Hiking skill. Readings: the average is
rounded down, and the group covers its slowest member's distance. Adverse weather is the GM's
extra factor (``weather``, 1 = none).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.action import ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.state import PendingCheck
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.feats.checking import CheckHandler, GurpsPlay, ask, gm_modifier, members
from rulekeeper.systems.gurps.feats.citations import HIKING, HIKING_GROUP, HIKING_TERRAIN
from rulekeeper.systems.gurps.feats.terrain_table import TERRAINS, terrain

__all__ = [
    "HIKE_ACTION",
    "HIKE_CALCULATOR",
    "HIKING_BONUS",
    "HIKING_CHECK_HANDLERS",
    "LEADERSHIP_NEEDED",
    "MILES_PER_MOVE",
    "March",
    "daily_march",
    "group_hiking_skill",
]

MILES_PER_MOVE = 10
HIKING_BONUS = Fraction(6, 5)
LEADERSHIP_NEEDED = 12


@dataclass(frozen=True)
class March:
    move: int
    terrain: str
    hiking_success: bool
    weather: Fraction
    ideal: Fraction
    miles: Fraction

    def steps(self) -> tuple[Step, ...]:
        row = TERRAINS[self.terrain]
        out = [Step(f"ideal day's march: 10 x Move {self.move} = {float(self.ideal):g} mi", HIKING)]
        if self.hiking_success:
            out.append(Step("a successful Hiking roll adds 20%", HIKING))
        out.append(Step(f"{row.name} terrain ({row.examples}) x{float(row.multiplier):g}", HIKING_TERRAIN))
        if self.weather != 1:
            out.append(Step(f"weather x{float(self.weather):g} (GM's call)", HIKING))
        out.append(Step(f"{float(self.miles):g} miles in the day", HIKING))
        return tuple(out)


def daily_march(move: int, terrain_key: str, hiking_success: bool = False, weather: float | Fraction = 1) -> March:
    """Miles marched in a day with ground ``move`` on ``terrain_key``."""
    if move < 0:
        raise InputError(f"Move {move} is negative", expected="0 or more", where="move")
    w = Fraction(weather).limit_denominator(1000)
    if not 0 <= w <= 1:
        raise InputError(f"weather factor {float(w):g} is out of range", expected="from 0 to 1", where="weather")
    row = terrain(terrain_key)
    ideal = Fraction(MILES_PER_MOVE * move)
    miles = ideal * (HIKING_BONUS if hiking_success else 1) * row.multiplier * w
    return March(move, row.key, hiking_success, w, ideal, miles)


def group_hiking_skill(levels: Sequence[int]) -> int:
    """The group's average Hiking skill, rounded down."""
    if not levels:
        raise InputError("a group needs at least one member", expected="character ids", where="group")
    return sum(levels) // len(levels)


def _compute(params: Params) -> Calculation:
    march = daily_march(
        params.int("move"),
        params.str("terrain"),
        params.bool("hiking_success"),
        params.float("weather"),
    )
    return Calculation(
        values={"miles": float(march.miles), "ideal": float(march.ideal), "terrain": march.terrain},
        steps=march.steps(),
    )


_TERRAIN = ParamSpec("terrain", "choice", "terrain of the day's march", default="average", choices=tuple(TERRAINS))
_WEATHER = ParamSpec(
    "weather", "float", "GM's factor for adverse weather (1 = none)", default=1.0, minimum=0, maximum=1
)

HIKE_CALCULATOR = CalculatorSpec(
    name="hike",
    help="Miles marched in a day for a Move, terrain and Hiking roll.",
    compute=_compute,
    params=(
        ParamSpec("move", "int", "ground Move (after encumbrance, injury, fatigue)", required=True, minimum=0),
        _TERRAIN,
        ParamSpec("hiking_success", "bool", "the day's Hiking roll succeeded", default=False),
        _WEATHER,
    ),
    rule=HIKING,
)


def _handle(play: GurpsPlay, action: Call) -> None:
    actor = action.character
    leader = play.char(actor)
    p = action.params
    group = members(play, p.opt_str("group"), "group")
    row = terrain(p.str("terrain"))
    weather = p.float("weather")
    march_ids = (actor, *(g for g in group if g != actor))
    if group:
        leadership = leader.skill("leadership")
        if leadership is None or leadership < LEADERSHIP_NEEDED:
            raise RuleRefusal(
                f"{leader.name} needs Leadership {LEADERSHIP_NEEDED}+ to roll for the group "
                f"(has {leadership if leadership is not None else 'none'}); each hiker rolls alone ({HIKING_GROUP})"
            )
        levels = [_hiking(play, cid) for cid in march_ids]
        base = group_hiking_skill(levels)
        label = f"group's average Hiking (led by {leader.name})"
        play.explain(
            f"{leader.name} (Leadership {leadership}) rolls once for {len(march_ids)} hikers against their "
            f"average Hiking skill {base} (skills {', '.join(map(str, levels))})",
            HIKING_GROUP,
            actor=actor,
        )
    else:
        override = p.opt_int("skill_level")
        base = override if override is not None else _hiking(play, actor)
        label = f"{leader.name}'s Hiking"
    for cid in march_ids:
        march = daily_march(play.char(cid).move, row.key, False, weather)
        play.explain(
            f"{play.char(cid).name}: without the Hiking bonus, {float(march.miles):g} mi today", HIKING, actor=cid
        )
    check = SuccessRoll(kind="gurps.hiking", label=label, base=base, modifiers=gm_modifier(p.int("modifier")))
    ask(
        play,
        check,
        purpose="feat.hike",
        rule=HIKING,
        actor=actor,
        data={"terrain": row.key, "weather": weather, "members": list(march_ids)},
    )


def _hiking(play: GurpsPlay, actor: str) -> int:
    level = play.char(actor).skill("hiking")
    # Hiking always has the seed's default (HT-5), so a level is always found.
    return int(level) if level is not None else play.char(actor).ht - 5


def _on_hike(play: GurpsPlay, pending: PendingCheck, result: CheckResult) -> None:
    ids = [str(i) for i in pending.data["members"]]
    success = result.success
    text = "everyone marches 20% farther" if success else "no bonus today"
    play.explain(f"Hiking roll {'succeeds' if success else 'fails'}: {text}", HIKING, actor=pending.actor)
    per_member: dict[str, float] = {}
    for cid in ids:
        march = daily_march(play.char(cid).move, str(pending.data["terrain"]), success, float(pending.data["weather"]))
        per_member[cid] = float(march.miles)
        for step in march.steps():
            play.explain(f"{play.char(cid).name}: {step.text}", step.rule, actor=cid)
    miles = min(per_member.values())
    if len(ids) > 1:
        play.explain(f"the group keeps together at its slowest pace: {miles:g} mi", HIKING_GROUP, actor=pending.actor)
    play.result.update({"miles": miles, "hiking_success": success, "members": per_member})


HIKE_ACTION = ActionSpec(
    name="hike",
    help="March for a day: the daily Hiking roll (or a leader's group roll) and the miles covered.",
    handler=_handle,
    params=(
        _TERRAIN,
        ParamSpec(
            "group",
            "str",
            "comma-separated ids of the others the actor leads (needs Leadership 12+)",
            names_character=True,
        ),
        _WEATHER,
        ParamSpec("modifier", "int", "GM's modifier to the Hiking roll", default=0, overrides_rules=True),
        ParamSpec(
            "skill_level", "int", "Hiking skill to roll against instead of the sheet's", minimum=0, overrides_rules=True
        ),
    ),
    kind="feat",
)

HIKING_CHECK_HANDLERS: dict[str, CheckHandler] = {"feat.hike": _on_hike}
