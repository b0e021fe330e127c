"""Injury: losing and regaining HP, and every HP threshold (seed 004, "Damage & Injury", "General Damage").

:func:`take_injury` is the one way HP goes down. It applies, in order: the loss itself; shock
for the next turn; a major wound's HT roll; reeling; death at -5 x HP or an HT roll for each
multiple of -HP newly reached; the HT roll to stay conscious at 0 HP or below; and the Will
rolls of a character who was aiming or concentrating. Every roll goes through ``play.check``,
so its consequence is the handler its purpose names in ``INJURY_SECTION``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import CheckSpec, Section
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.rules import (
    AIM,
    CONCENTRATE,
    CONSCIOUSNESS,
    DEATH,
    MAJOR_WOUND,
    SHOCK,
    UNCONSCIOUS_RECOVERY,
)
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.status import (
    die,
    fall_unconscious,
    is_unconscious_from,
    living_actor,
    stun,
    sync_thresholds,
)
from rulekeeper.systems.gurps.thresholds import (
    consciousness_penalty,
    dead_at,
    death_multiples_crossed,
    is_major_wound,
    shock_penalty,
    wake_band,
)
from rulekeeper.systems.gurps.waking import schedule_wake

if TYPE_CHECKING:
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = [
    "INJURY_SECTION",
    "ask_consciousness_roll",
    "heal",
    "shock_modifier",
    "take_injury",
]


def _out_for_another_reason(play: Play[GurpsCharacter], actor: str) -> bool:
    """Unconscious, but not (yet) from injury, in a campaign whose rules count the injury too."""
    return (
        play.state.settings.conditions_kept_apart
        and play.has(actor, "unconscious")
        and not is_unconscious_from(play, actor, "injury")
    )


def take_injury(
    play: Play[GurpsCharacter],
    actor: str,
    injury: int,
    rule: Rule,
    *,
    wound: bool = True,
    location: str = "torso",
) -> None:
    """Take ``injury`` HP from ``actor`` because of ``rule`` and apply every HP threshold.

    ``injury`` is already after DR and wounding. ``wound`` is False for HP lost to fatigue,
    which is not a single wound and so cannot be a major wound.
    """
    if injury <= 0:
        return
    char = play.char(actor)
    if char.hp == 0:
        # HP 0 is GCS's and the bestiaries' mark of an insubstantial being (a specter): it has no
        # body for injury to reach (docs/systems/gurps.md, "Attributes of 0")
        play.explain(f"{actor} has HP 0 (insubstantial): the injury does not touch it", rule, actor=actor)
        return
    before = char.current_hp
    after = before - injury
    play.put(actor, evolve(char, current_hp=after))
    play.explain(f"{actor} loses {injury} HP ({before} -> {after} of {char.hp})", rule, actor=actor)
    play.result["injury"] = play.result.get("injury", 0) + injury
    play.result["hp"] = after
    if char.dead:
        return

    crossed = death_multiples_crossed(char.hp, before, after)
    if 5 in crossed:
        die(play, actor, DEATH, f"HP reached {after}, at or below -5 x HP ({dead_at(char.hp)})")
        return
    _add_shock(play, actor, injury)
    if wound and is_major_wound(char.hp, injury) and not play.has(actor, "unconscious"):
        ask_success_roll(
            play,
            kind="gurps.major-wound",
            label=f"{actor} HT against a major wound",
            base=char.ht,
            purpose="major-wound",
            rule=MAJOR_WOUND,
            actor=actor,
            data={"injury": injury, "location": location},
        )
        if play.char(actor).dead:
            return
    sync_thresholds(play, actor)

    for multiple in crossed:
        play.explain(f"{actor} is at -{multiple} x HP or worse: HT roll to avoid death", DEATH, actor=actor)
        ask_success_roll(
            play,
            kind="gurps.death",
            label=f"{actor} HT to avoid death (-{multiple} x HP)",
            base=char.ht,
            purpose="death",
            rule=DEATH,
            actor=actor,
            data={"multiple": multiple},
        )
        if play.char(actor).dead:
            return

    if after <= 0 and _out_for_another_reason(play, actor):
        # Out already (a faint, fatigue) and now at 0 HP or below: the injury keeps them out
        # too, and they wake by its rolls (seed 004, Recovering from Unconsciousness), not when
        # the faint or the fatigue ends (roll_rules 8).
        band = wake_band(char.hp, after)
        fall_unconscious(
            play,
            actor,
            UNCONSCIOUS_RECOVERY,
            "injury",
            f"{actor} is at {after} HP while unconscious: waking now takes "
            + ("a single HT roll after 12 hours" if band == "12 hours" else "an HT roll every hour"),
        )
    elif after <= 0 and not play.has(actor, "unconscious") and not play.has(actor, "fading"):
        play.add_condition(
            actor,
            "fading",
            CONSCIOUSNESS,
            text=f"{actor} is at {after} HP: an HT roll each turn to stay conscious",
        )
        ask_consciousness_roll(play, actor)
    elif after <= 0 and play.has(actor, "fading") and not _rolls_each_second(play, actor):
        _ask_unless_asked(play, actor)  # a new injury out of combat: one roll now

    turn = play.char(actor).turn
    if turn.maneuver == "aim" and turn.aim is not None:
        ask_success_roll(
            play,
            kind="gurps.will.aim",
            label=f"{actor} Will to keep aiming while injured",
            base=char.will,
            purpose="aim",
            rule=AIM,
            actor=actor,
        )
    if turn.maneuver == "concentrate" and turn.task is not None:
        ask_concentration_roll(play, actor, "injured")


def ask_concentration_roll(play: Play[GurpsCharacter], actor: str, why: str) -> None:
    """Will-3 to keep concentrating after being injured, knocked down or forced to defend."""
    char = play.char(actor)
    ask_success_roll(
        play,
        kind="gurps.will.concentrate",
        label=f"{actor} Will to keep concentrating ({why})",
        base=char.will,
        modifiers=(Modifier(-3, "interrupted while concentrating"),),
        purpose="concentrate",
        rule=CONCENTRATE,
        actor=actor,
    )


def _add_shock(play: Play[GurpsCharacter], actor: str, injury: int) -> None:
    char = play.char(actor)
    penalty = shock_penalty(char.hp, injury)
    if not penalty:
        return
    old = play.state.condition(actor, "shock")
    if old is not None:
        penalty = max(-4, penalty + int(old.data.get("penalty", 0)))
    # Shock lasts for the character's next turn; two seconds is an upper bound when nobody
    # records turns (every character has a turn each second).
    play.add_condition(
        actor,
        "shock",
        SHOCK,
        duration=2 * int(play.option("round_seconds", 1)),
        data={"penalty": penalty, "turn": char.turn.number + 1},
        text=f"{actor} is in shock: {penalty} to DX, IQ and skills based on them on the next turn",
    )


def shock_modifier(play: Play[GurpsCharacter], actor: str) -> Modifier | None:
    """The shock penalty to DX- and IQ-based rolls (attacks, feints, most skills), if any.

    Active defenses are not DX rolls and are not affected (reading; the Basic Set agrees).
    """
    cond = play.state.condition(actor, "shock")
    if cond is None:
        return None
    return Modifier(int(cond.data.get("penalty", 0)), "shock")


# How the seed's HT roll "each turn" at 0 HP or below (seed 004, General Damage) is read, option
# ``fading_rolls``. Turns belong to a fight: an hour passing outside one is not 3,600 rolls. So
# ``turns`` rolls each second (a turn) while the character is in combat, and out of combat only
# when a new injury comes, as the seed has it for a character who woke at 0 HP or below (no roll every second
# unless newly injured: seed 004, Recovering from Unconsciousness). ``seconds`` rolls every
# second whatever happens, as campaigns before roll_rules 5 were played (and still replay).
FADING_ROLLS = ("turns", "seconds")


def _fading_rolls(play: Play[GurpsCharacter]) -> str:
    reading = play.option("fading_rolls", None)
    if reading is None:
        return "turns" if play.state.settings.every_check_holds_time else "seconds"
    return str(reading)


def _rolls_each_second(play: Play[GurpsCharacter], actor: str) -> bool:
    return _fading_rolls(play) == "seconds" or play.has(actor, "in combat")


def _ask_unless_asked(play: Play[GurpsCharacter], actor: str) -> None:
    if play.state.timers_of(actor, "gurps.consciousness"):
        return  # the next turn's roll is already due
    if any(p.actor == actor and p.purpose == "consciousness" for p in play.state.pending):
        return
    ask_consciousness_roll(play, actor)


def resume_turn_rolls(play: Play[GurpsCharacter], actor: str) -> None:
    """A fight begins for a character fading out of combat: the HT roll comes each turn again."""
    if _fading_rolls(play) == "seconds":
        return  # the series never stopped
    asked = any(p.actor == actor and p.purpose == "consciousness" for p in play.state.pending)
    if play.has(actor, "fading") and not play.state.timers_of(actor, "gurps.consciousness") and not asked:
        play.schedule(1, "gurps.consciousness", f"{actor}: HT roll to stay conscious", actor=actor)


def ask_consciousness_roll(play: Play[GurpsCharacter], actor: str) -> None:
    char = play.char(actor)
    mods: list[Modifier] = []
    if play.option("consciousness_penalty", False):
        mods.append(Modifier(consciousness_penalty(char.hp, char.current_hp), "per full multiple of HP below 0"))
    ask_success_roll(
        play,
        kind="gurps.consciousness",
        label=f"{actor} HT to stay conscious",
        base=char.ht,
        modifiers=mods,
        purpose="consciousness",
        rule=CONSCIOUSNESS,
        actor=actor,
    )


def heal(play: Play[GurpsCharacter], actor: str, amount: int, rule: Rule, *, treatment: bool = False) -> None:
    """Give back HP (never above the maximum); a character above 0 HP stops fading.

    ``treatment`` is medical help for a character who failed the 12-hour roll: the normal
    waking rolls resume (reading: the seed says only that they cannot wake without it).
    """
    char = play.char(actor)
    if char.dead:
        raise RuleRefusal(f"{actor} is dead; no healing brings them back (seed 004, General Damage)")
    after = min(char.hp, char.current_hp + amount)
    gained = after - char.current_hp
    play.put(actor, evolve(char, current_hp=after))
    play.explain(f"{actor} regains {gained} HP ({char.current_hp} -> {after} of {char.hp})", rule, actor=actor)
    play.result["healed"] = play.result.get("healed", 0) + gained
    play.result["hp"] = after
    sync_thresholds(play, actor)
    if after > 0 and play.has(actor, "fading"):
        play.remove_condition(actor, "fading", CONSCIOUSNESS)
        play.cancel_timers(actor=actor, kind="gurps.consciousness")
        play.drop_pending(actor=actor, purpose="consciousness")
    if treatment and play.has(actor, "needs treatment"):
        play.remove_condition(actor, "needs treatment", UNCONSCIOUS_RECOVERY)
        play.cancel_timers(actor=actor, kind="gurps.wake")
        play.drop_pending(actor=actor, purpose="untreated")
    cond = play.state.condition(actor, "unconscious")
    if cond is not None and "injury" in cond.data.get("causes", ()) and not play.has(actor, "needs treatment"):
        # The waking rule depends on current HP, so healing may move the character to a faster band.
        play.cancel_timers(actor=actor, kind="gurps.wake")
        play.drop_pending(actor=actor, purpose="wake")
        schedule_wake(play, actor)


# -- what each roll's result does (the section below) ---------------------------------------
def _death_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is None:
        return
    if not result.success:
        die(play, actor, DEATH, f"failed the HT roll at -{pending.data.get('multiple')} x HP")
    else:
        play.explain(f"{actor} clings to life", DEATH, actor=actor)


def _consciousness_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is None or not play.has(actor, "fading"):
        return  # healed or knocked out since the roll was asked for
    if result.success and not _rolls_each_second(play, actor):
        play.explain(
            f"{actor} stays conscious; out of combat there is no turn to roll for again: the next HT roll "
            "comes with a new injury or the next fight (option fading_rolls)",
            CONSCIOUSNESS,
            actor=actor,
        )
    elif result.success:
        play.explain(f"{actor} stays conscious this turn", CONSCIOUSNESS, actor=actor)
        play.schedule(1, "gurps.consciousness", f"{actor}: HT roll to stay conscious", actor=actor)
    else:
        fall_unconscious(
            play,
            actor,
            CONSCIOUSNESS,
            "injury",
            f"{actor} fails the HT roll at {play.char(actor).current_hp} HP and falls unconscious",
        )


def _major_wound_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is None:
        return
    if result.success:
        play.explain(f"{actor} shrugs off the major wound", MAJOR_WOUND, actor=actor)
    elif result.margin <= -5:
        fall_unconscious(
            play, actor, MAJOR_WOUND, "injury", f"{actor} fails the major-wound roll by 5 or more and passes out"
        )
    else:
        char = play.char(actor)
        if char.posture != "prone":
            play.put(actor, evolve(char, posture="prone"))
            play.explain(f"{actor} is knocked down (prone)", MAJOR_WOUND, actor=actor)
        stun(play, actor, MAJOR_WOUND, text=f"{actor} is stunned by the major wound")
        turn = play.char(actor).turn
        if turn.maneuver == "concentrate" and turn.task is not None:
            ask_concentration_roll(play, actor, "knocked down")


def _aim_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is not None and not result.success:
        turn = play.char(actor).turn
        play.put(actor, evolve(play.char(actor), turn=evolve(turn, aim=None)))
        play.explain(f"{actor} loses their aim", AIM, actor=actor)


def _concentration_rolled(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = living_actor(play, pending)
    if actor is not None and not result.success:
        turn = play.char(actor).turn
        play.put(actor, evolve(play.char(actor), turn=evolve(turn, task=None)))
        play.explain(f"{actor} loses concentration and must start over", CONCENTRATE, actor=actor)


#: Injury (seed 004, "Injuries"): the rolls an injury asks for -- to stay conscious, to survive,
#: against a major wound, and to keep aiming or concentrating when hurt.
INJURY_SECTION = Section(
    "injury",
    checks=(
        CheckSpec("consciousness", _consciousness_rolled, check_stakes),
        CheckSpec("death", _death_rolled, check_stakes),
        CheckSpec("major-wound", _major_wound_rolled, check_stakes),
        CheckSpec("aim", _aim_rolled, check_stakes),
        CheckSpec("concentrate", _concentration_rolled, check_stakes),
    ),
    skip_orphans=True,
)
