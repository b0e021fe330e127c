"""The next step back from unconsciousness or fatigue, as a timer (seed 004, "Recovering from
Unconsciousness", "Recovering from Fatigue").

Its own module, below status, injury and recovery, since all three schedule these steps: none
of them has to import another to do it (the old status/injury/recovery/fatigue import ring).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.clock import HOUR, MINUTE
from rulekeeper.systems.gurps.thresholds import wake_band

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["FP_TICK", "WAKE_DELAYS", "schedule_fp_recovery", "schedule_wake"]

WAKE_DELAYS: dict[str, int] = {"15 minutes": 15 * MINUTE, "hourly": HOUR, "12 hours": 12 * HOUR}
FP_TICK = 10 * MINUTE


def schedule_wake(play: Play[GurpsCharacter], actor: str) -> None:
    """The next waking step for an unconscious character, by current HP band."""
    char = play.char(actor)
    if play.has(actor, "needs treatment"):
        play.schedule(12 * HOUR, "gurps.untreated", f"{actor}: HT roll to survive untreated", actor=actor)
        return
    band = wake_band(char.hp, char.current_hp)
    label = {
        "15 minutes": f"{actor} wakes (1+ HP: after 15 minutes)",
        "hourly": f"{actor}: hourly HT roll to wake",
        "12 hours": f"{actor}: the single HT roll to wake after 12 hours",
    }[band]
    play.schedule(WAKE_DELAYS[band], "gurps.wake", label, actor=actor, data={"band": band})


def schedule_fp_recovery(play: Play[GurpsCharacter], actor: str) -> None:
    char = play.char(actor)
    if char.current_fp < char.fp and not play.state.timers_of(actor, "gurps.fp-recovery"):
        play.schedule(FP_TICK, "gurps.fp-recovery", f"{actor} regains 1 FP (10 minutes of rest)", actor=actor)
