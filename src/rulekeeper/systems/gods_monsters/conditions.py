"""The names of the conditions Gods & Monsters puts on characters, and small questions about them.

Both packages (seed 000 here, seed 002 in ``consequences``) use these names, so a rule that
asks "is this character unconscious?" sees the same state whichever rule put it there.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.play import Play

__all__ = [
    "ASLEEP",
    "DEAD",
    "DOOMED",
    "DYING",
    "RESTING",
    "SEMI_CONSCIOUS",
    "SHOCK",
    "UNCONSCIOUS",
    "counts_as_unconscious",
    "is_dead",
    "is_out",
]

UNCONSCIOUS = "unconscious"
SEMI_CONSCIOUS = "semi-conscious"
DYING = "dying"  # the dying timer runs (seed 000, "A time to die")
DOOMED = "doomed"  # the timer ran out: dies at the end of the scene, heroic last effort allowed
DEAD = "dead"
SHOCK = "shock"  # "killed" by an illusion (seed 002, "Actions and consequences: Illusions")
ASLEEP = "asleep"  # a night's rest in progress
RESTING = "resting"  # a full day of rest in progress


# Ailment conditions from seed 002 that leave a character unable to act (consequences/ailment_play.py).
AILMENT_KNOCKOUTS = ("sleeping", "paralyzed")


def counts_as_unconscious(play: Play[Any], actor: str) -> bool:
    """Unconscious or semi-conscious: semi-consciousness counts as unconsciousness for death
    rolls (seed 002, semi-consciousness) and so for the +2 and the slower dying timer."""
    return play.has(actor, UNCONSCIOUS) or play.has(actor, SEMI_CONSCIOUS) or play.has(actor, SHOCK)


def is_dead(play: Play[Any], actor: str) -> bool:
    return play.has(actor, DEAD)


def is_out(play: Play[Any], actor: str) -> bool:
    """Dead, unconscious in any way, or knocked out by an ailment (seed 002 sleep or paralysis):
    no consciousness roll is asked of such a character."""
    return (
        is_dead(play, actor)
        or counts_as_unconscious(play, actor)
        or any(play.has(actor, name) for name in AILMENT_KNOCKOUTS)
    )
