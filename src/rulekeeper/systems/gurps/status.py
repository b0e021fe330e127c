"""State changes shared by injury, fatigue, recovery and combat: thresholds, death, unconsciousness, stun.

Conditions used (lowercase names, as stored in the game state):

* ``reeling`` (HP < 1/3), ``very tired`` (FP < 1/3), ``verge of collapse`` (FP <= 0): kept in
  step with HP and FP by :func:`sync_thresholds`;
* ``fading``: at 0 HP or below and still awake, rolling HT each turn;
* ``unconscious`` (data ``causes``: "injury" and/or "fatigue"), ``needs treatment`` (failed the
  12-hour roll at -HP or below), ``collapsed`` (failed the Will roll at 0 FP), ``dead``;
* ``stunned`` (recovered by a roll each turn), ``stunned by fear`` (a Fright Check's, for a set
  time): either is a stun (:func:`is_stunned`); ``shock``, ``resting``, ``in combat``, ``surprised``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.citation import Rule
from rulekeeper.core.frozen import evolve
from rulekeeper.systems.gurps.rules import FATIGUE_COLLAPSE, REELING, STUN, VERY_TIRED
from rulekeeper.systems.gurps.thresholds import is_reeling, is_very_tired
from rulekeeper.systems.gurps.waking import schedule_fp_recovery, schedule_wake

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = [
    "INCAPACITATED",
    "STUNS",
    "THRESHOLD_CONDITIONS",
    "derived_thresholds",
    "die",
    "fall_unconscious",
    "incapacity",
    "is_stunned",
    "is_unconscious_from",
    "living_actor",
    "stun",
    "sync_thresholds",
    "wake_from",
]

#: Conditions under which a character can take no maneuver but Do Nothing (or nothing at all).
INCAPACITATED = ("dead", "unconscious", "collapsed")


#: The conditions that stun (seed 004, "Do Nothing"; Lite p. 30): a stun ends by a roll each turn,
#: a Fright Check's by itself after its time (roll_rules 8; before, it was kept as ``stunned``).
STUNS = ("stunned", "stunned by fear")


def is_stunned(play: Play[GurpsCharacter], actor: str) -> bool:
    return any(play.has(actor, name) for name in STUNS)


#: The conditions that follow from current HP and FP alone.
THRESHOLD_CONDITIONS = frozenset({"reeling", "very tired", "verge of collapse"})


def derived_thresholds(char: GurpsCharacter) -> frozenset[str]:
    """Which threshold conditions current HP and FP put ``char`` in (none once dead)."""
    if char.dead:
        return frozenset()
    holds = {
        "reeling": char.reeling,
        "very tired": char.very_tired,
        "verge of collapse": char.fp > 0 and char.current_fp <= 0,
    }
    return frozenset(name for name, on in holds.items() if on)


def sync_thresholds(play: Play[GurpsCharacter], actor: str) -> None:
    """Add or remove reeling / very tired / verge of collapse to match current HP and FP."""
    char = play.char(actor)
    if char.dead:
        for name in ("reeling", "very tired", "verge of collapse"):
            play.remove_condition(actor, name, quiet=True)
        return
    # Run after every command for every character: the reason is written only when one changes.
    wanted = (
        ("reeling", is_reeling(char.hp, char.current_hp), REELING),
        ("very tired", is_very_tired(char.fp, char.current_fp), VERY_TIRED),
        ("verge of collapse", char.fp > 0 and char.current_fp <= 0, FATIGUE_COLLAPSE),
    )
    for name, should, rule in wanted:
        has = play.has(actor, name)
        if should and not has:
            play.add_condition(actor, name, rule, text=_threshold_text(actor, name, char))
        elif has and not should:
            play.remove_condition(actor, name, rule)


def _threshold_text(actor: str, name: str, char: GurpsCharacter) -> str:
    if name == "reeling":
        return f"{actor} has less than 1/3 of HP left ({char.current_hp}/{char.hp}): reeling, Move and Dodge halved"
    if name == "very tired":
        return (
            f"{actor} has less than 1/3 of FP left ({char.current_fp}/{char.fp}): very tired, Move, Dodge and ST halved"
        )
    return (
        f"{actor} is at {char.current_fp} FP: on the verge of collapse -- every further FP lost also "
        "costs 1 HP, and acting takes a Will roll"
    )


def is_unconscious_from(play: Play[GurpsCharacter], actor: str, cause: str) -> bool:
    cond = play.state.condition(actor, "unconscious")
    return cond is not None and cause in cond.data.get("causes", ())


def die(play: Play[GurpsCharacter], actor: str, rule: Rule, why: str) -> None:
    """The character dies: every timer and pending check about them ends."""
    char = play.char(actor)
    if char.dead:
        return
    play.put(actor, evolve(char, dead=True, incoming=()))
    for cond in play.state.conditions_of(actor):
        if cond.name not in ("dead", "in combat"):
            play.remove_condition(actor, cond.name, quiet=True)
    play.add_condition(actor, "dead", rule, text=f"{actor} dies: {why}")
    play.cancel_timers(actor=actor)
    play.drop_pending(actor=actor)
    play.result["dead"] = True


def living_actor(play: Play[GurpsCharacter], pending: PendingCheck) -> str | None:
    """The actor a roll was asked for, or None if they died while it waited (nothing follows)."""
    actor = pending.actor
    assert actor is not None
    return None if play.char(actor).dead else actor


def fall_unconscious(play: Play[GurpsCharacter], actor: str, rule: Rule, cause: str, text: str) -> None:
    """Knock the character out for ``cause`` ("injury" or "fatigue") and start the way back."""
    char = play.char(actor)
    if char.dead:
        return
    old = play.state.condition(actor, "unconscious")
    causes = tuple(old.data.get("causes", ())) if old is not None else ()
    if cause in causes:
        return
    # A timed faint (a Fright Check's) is swallowed by the longer-lasting injury or fatigue
    # unconsciousness: only those two causes need lifting to wake.
    causes = tuple(c for c in causes if c in ("injury", "fatigue"))
    for name in ("fading", *STUNS, "collapsed", "resting"):
        play.remove_condition(actor, name, quiet=True)
    for kind in ("gurps.consciousness", "gurps.stun", "gurps.rest-end"):
        play.cancel_timers(actor=actor, kind=kind)
    play.drop_pending(actor=actor, purpose="consciousness")
    play.drop_pending(actor=actor, purpose="stun-recovery")
    play.put(actor, evolve(play.char(actor), turn=evolve(char.turn, maneuver=None, aim=None, task=None)))
    play.add_condition(actor, "unconscious", rule, data={"causes": [*causes, cause]}, text=text)
    play.result["unconscious"] = True
    if cause == "injury":
        schedule_wake(play, actor)
    else:
        schedule_fp_recovery(play, actor)


def wake_from(play: Play[GurpsCharacter], actor: str, cause: str, rule: Rule, text: str) -> None:
    """Lift one cause of unconsciousness; the character wakes when none is left."""
    cond = play.state.condition(actor, "unconscious")
    if cond is None:
        return
    causes = [c for c in cond.data.get("causes", ()) if c != cause]
    if causes:
        play.remove_condition(actor, "unconscious", quiet=True)
        play.add_condition(
            actor,
            "unconscious",
            rule,
            data={"causes": causes},
            text=f"{text}, but {actor} stays unconscious ({', '.join(causes)})",
        )
        return
    if cause == "injury":
        play.cancel_timers(actor=actor, kind="gurps.wake")
        play.drop_pending(actor=actor, purpose="wake")
    play.remove_condition(actor, "unconscious", quiet=True)
    play.remove_condition(actor, "needs treatment", quiet=True)
    play.explain(text, rule, actor=actor)
    play.event("condition-removed", actor, name="unconscious")
    play.result["awake"] = True


def stun(play: Play[GurpsCharacter], actor: str, rule: Rule = STUN, *, mental: bool = False, text: str = "") -> None:
    """Stun the character: -4 to active defenses, Do Nothing, and a recovery roll at the end of each turn.

    The roll is HT for physical stun and IQ for mental stun (seed 004, "Do Nothing"); the first
    comes at the end of the character's next turn, one second from now.
    """
    char = play.char(actor)
    if char.dead or play.has(actor, "unconscious"):
        return
    kind = "mental" if mental else "physical"
    play.add_condition(
        actor,
        "stunned",
        rule,
        data={"kind": kind},
        text=text or f"{actor} is stunned ({kind}): -4 to active defenses and must Do Nothing",
    )
    play.cancel_timers(actor=actor, kind="gurps.stun")
    play.schedule(1, "gurps.stun", f"{actor}: roll to recover from stun", actor=actor, data={"kind": kind})


def incapacity(play: Play[GurpsCharacter], actor: str) -> str | None:
    """Why the character can do nothing at all right now, or None."""
    for name in INCAPACITATED:
        if play.has(actor, name):
            return name
    if play.char(actor).dead:
        return "dead"
    return None
