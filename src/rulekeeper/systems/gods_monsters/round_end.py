"""The end of a round (seed 000, "Injuries", "A time to die"): a failed consciousness roll takes
effect, then the death roll of a round in which injuries were gained.

Its own module, above both consciousness and dying, since it needs both (they were an import
circle while the timer lived in dying).
"""

from __future__ import annotations

from rulekeeper.core.clock import MINUTE
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section, TimerSpec
from rulekeeper.core.state import Timer
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.consciousness import fall_unconscious
from rulekeeper.systems.gods_monsters.dying import ROUND_END_TIMER, ask_death_roll
from rulekeeper.systems.gods_monsters.rules import INJURIES, rule

__all__ = ["ROUND_END_SECTION", "on_round_end"]


def on_round_end(play: Play[GmCharacter], timer: Timer) -> None:
    """Unconsciousness from a failed consciousness roll first, so the death roll gets its +2."""
    actor = timer.actor
    if actor is None or actor not in play.state.characters or cond.is_dead(play, actor):
        return
    if timer.data.get("fall_unconscious") and not cond.counts_as_unconscious(play, actor):
        minutes = max(1, play.char(actor).injuries)
        fall_unconscious(
            play,
            actor,
            minutes * MINUTE,
            rule(INJURIES, reading="unconscious for the injury total at the end of the round, at least 1 minute"),
            reason="the failed consciousness roll takes effect at the end of the round",
        )
    if timer.data.get("death_check"):
        ask_death_roll(
            play,
            actor,
            archetypal=bool(timer.data.get("archetypal")),
            fields=tuple(timer.data.get("fields", ())),
            phantasmal=bool(timer.data.get("phantasmal")),
        )


#: What the end of a round brings to a character hurt during it.
ROUND_END_SECTION = Section("end of round", timers=(TimerSpec(ROUND_END_TIMER, on_round_end),))
