"""Temporary bonus pools of survival (seed 000, "Temporary bonus pools").

A spell, specialty or spirit grants a pool kept apart from real survival. Eligible damage comes
off the pool first (see :func:`.damage.absorb`); the pool is gone once exhausted or when the
granting effect ends. The end is a timer at ``expires_at`` (kind ``gm.bonus-pool:<name>``).
A pool granted again under the same name replaces the old one (reading).
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.clock import format_duration
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section, TimerSpec
from rulekeeper.core.state import Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gods_monsters.character import BonusPool, GmCharacter
from rulekeeper.systems.gods_monsters.rules import BONUS_POOLS, rule

__all__ = ["POOLS_SECTION", "POOL_TIMER_PREFIX", "end_pool", "forget_pool_timers", "grant_pool", "on_pool_timer"]

POOL_TIMER_PREFIX = "gm.bonus-pool:"


def grant_pool(
    play: Play[GmCharacter],
    actor: str,
    *,
    name: str,
    points: int,
    duration: int | None,
    eligible: str = "any",
) -> BonusPool:
    character = play.char(actor)
    forget_pool_timers(play, actor, name)
    expires = None if duration is None else play.now + duration
    pool = BonusPool(name=name, points=points, expires_at=expires, eligible=eligible)
    others = tuple(p for p in character.bonus_pools if p.name != name)
    play.put(actor, replace(character, bonus_pools=(*others, pool)))
    span = f" for {format_duration(duration)}" if duration is not None else ""
    play.explain(
        f"{actor} gains a temporary bonus pool {name!r} of {points} survival{span} ({eligible} damage)",
        rule(BONUS_POOLS),
        actor=actor,
    )
    if duration is not None:
        play.schedule(
            duration, POOL_TIMER_PREFIX + name, f"bonus pool {name!r} of {actor} ends", actor=actor, data={"name": name}
        )
    play.result["bonus_pool"] = play.char(actor).bonus_pool_points
    return pool


def end_pool(play: Play[GmCharacter], actor: str, name: str) -> None:
    """The granting effect ends: the pool disappears, whatever is left in it."""
    character = play.char(actor)
    pool = next((p for p in character.bonus_pools if p.name == name), None)
    if pool is None:
        known = ", ".join(p.name for p in character.bonus_pools) or "none"
        raise RuleRefusal(f"{actor} has no bonus pool {name!r} (pools: {known})")
    play.put(actor, replace(character, bonus_pools=tuple(p for p in character.bonus_pools if p.name != name)))
    forget_pool_timers(play, actor, name)
    play.explain(
        f"the effect behind bonus pool {name!r} ends: its {pool.points} remaining points disappear",
        rule(BONUS_POOLS),
        actor=actor,
    )
    play.result["bonus_pool"] = play.char(actor).bonus_pool_points


def forget_pool_timers(play: Play[GmCharacter], actor: str, name: str) -> None:
    play.state = replace(
        play.state,
        timers=tuple(t for t in play.state.timers if not (t.actor == actor and t.kind == POOL_TIMER_PREFIX + name)),
    )


def on_pool_timer(play: Play[GmCharacter], timer: Timer) -> None:
    actor = timer.actor
    name = str(timer.data.get("name", ""))
    if actor is None or actor not in play.state.characters:
        return
    if any(p.name == name for p in play.char(actor).bonus_pools):
        end_pool(play, actor, name)


#: Bonus pools that run out after a while.
POOLS_SECTION = Section("bonus pools", timers=(TimerSpec(POOL_TIMER_PREFIX, on_pool_timer, family=True),))
