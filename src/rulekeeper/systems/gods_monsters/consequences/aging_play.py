"""The ``birthday`` action: a year older, and from 40 + endurance an aging point (see :mod:`.aging`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters.character import ABILITIES, GmCharacter
from rulekeeper.systems.gods_monsters.consequences.aging import TRADE_LOSS, aging_starts_at, can_trade
from rulekeeper.systems.gods_monsters.consequences.playing import refuse_if_dead
from rulekeeper.systems.gods_monsters.consequences.sections import AGING, c_rule

__all__ = ["AGING_ACTIONS", "AGING_SECTION"]


def _birthday(play: Play[GmCharacter], action: Call) -> None:
    actor = action.character
    refuse_if_dead(play, actor, "age")
    character = play.char(actor)
    trade = action.params.str("trade")
    age = character.age + 1
    start = aging_starts_at(character.endurance)
    cite = c_rule(AGING, reading="only the start age uses endurance; the special-contributor rate is unconfirmed")
    if age < start:
        if trade != "none":
            raise RuleRefusal(
                f"{actor} turns {age}: no aging point is due before {start} (40 + endurance), so there is "
                f"nothing to trade (seed 002, {AGING})"
            )
        play.put(actor, replace(character, age=age))
        play.explain(f"{actor} turns {age}; aging begins at {start} (40 + endurance)", cite, actor=actor)
        play.result["aging"] = {"age": age, "starts_at": start, "point": None}
        return
    if trade == "none":
        after = replace(
            character,
            age=age,
            injuries=character.injuries + 1,
            unhealable_injuries=character.unhealable_injuries + 1,
        )
        play.put(actor, after)
        play.explain(
            f"{actor} turns {age}: one unhealable injury point ({after.unhealable_injuries} in all; "
            f"injuries {character.injuries} → {after.injuries})",
            cite,
            actor=actor,
        )
        play.result["aging"] = {"age": age, "starts_at": start, "point": "injury", "injuries": after.injuries}
        return
    score = character.score(trade)
    if not can_trade(score):
        raise RuleRefusal(
            f"{actor}'s {trade} is {score}: losing {TRADE_LOSS} would not leave it above one (seed 002, {AGING})"
        )
    changes: dict[str, Any] = {"age": age, trade: score - TRADE_LOSS}
    play.put(actor, replace(character, **changes))
    play.explain(
        f"{actor} turns {age} and takes the aging point as {trade} {score} → {score - TRADE_LOSS} instead of an injury",
        cite,
        actor=actor,
    )
    play.result["aging"] = {"age": age, "starts_at": start, "point": trade, trade: score - TRADE_LOSS}


AGING_ACTIONS: dict[str, ActionSpec] = {
    "birthday": ActionSpec(
        "birthday",
        "A year passes: from age 40 + endurance an unhealable injury, or -2 to an ability instead (seed 002, Aging)",
        _birthday,
        params=(
            ParamSpec(
                "trade",
                "choice",
                "take the aging point as a 2-point loss in this ability instead of an injury",
                default="none",
                choices=("none", *ABILITIES),
            ),
        ),
        kind="feat",
    ),
}


#: Aging (seed 002).
AGING_SECTION = Section("aging", actions=AGING_ACTIONS)
