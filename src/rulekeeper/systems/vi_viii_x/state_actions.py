"""Actions on the states of the character (seed 001, VIII.4) and on plain ARCs.

The GM sets the circumstantial states (blind, prone, slowed ...); the rules set the others.
``arc`` and ``reaction`` ask for the action resolution check of the rules brief's "Context".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekeeper.core.action import Call
from rulekeeper.core.arc import ArcOpposed, ArcThreshold, RollModifierTable
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.params import Params
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.core.state import PendingCheck, Timer
from rulekeeper.errors import InputError
from rulekeeper.systems.vi_viii_x.character import Burden, Character
from rulekeeper.systems.vi_viii_x.checks import (
    ArcStats,
    face_for_modifier,
    pair_stats,
    parse_threshold,
    roll_table,
    skill_stats_in_play,
    state_modifiers,
)
from rulekeeper.systems.vi_viii_x.damage import choose_us
from rulekeeper.systems.vi_viii_x.effects import (
    ask_arct,
    next_turn_start,
    refuse_unless_able,
    share_last,
    sync_states,
    tell,
    timer_kind,
    turn_seconds,
)
from rulekeeper.systems.vi_viii_x.rules import ARC, SYSTEM, state_rule
from rulekeeper.systems.vi_viii_x.stakes import check_stakes
from rulekeeper.systems.vi_viii_x.states import INCAPACITATING, STATES
from rulekeeper.systems.vi_viii_x.visibility import player_character_view

__all__ = [
    "BLIND_TABLE",
    "STATES_SECTION",
    "arc",
    "burden",
    "cast",
    "player_view",
    "reaction",
    "record_arc",
    "set_som",
    "set_state",
    "sight",
    "stun",
    "stun_check",
    "stun_failed",
    "stun_passed",
    "stun_periods",
]

# Blind: an action that needs sight happens only on a 1 on 1d6 (VIII.4). As a check: one d6
# whose face 1 counts 1 and the rest 0, needing more than 0.
BLIND_TABLE = RollModifierTable(values=(1, 0, 0, 0, 0, 0), name="d6: only a 1 succeeds")


def _stats(play: Play[Character], actor: str, p: Params) -> ArcStats:
    character = play.char(actor)
    skill = p.opt_str("skill")
    if skill:
        return skill_stats_in_play(play, actor, skill)
    ks = (p.opt_str("ks") or "bu").upper()
    return pair_stats(character, ks, choose_us(character, ks, p.opt_str("us")))


def record_arc(play: Play[Character], actor: str | None, result: CheckResult, what: str) -> None:
    """Put an ARC's outcome in the result and tell the player whether it worked (never its numbers)."""
    verdict = "succeeds" if result.success else "fails"
    play.result.update(
        {
            "success": result.success,
            "result": result.total,
            "target": result.target,
            "margin": result.margin,
            "roll_modifier": result.details.get("roll_modifier"),
        }
    )
    tell(play, f"{what} {verdict} by {result.margin}", ARC, actor, player=f"{what} {verdict}")


def arc(play: Play[Character], action: Call) -> None:
    """An ARC on a KS and US (or a skill): ARCT against a threshold, or ARCO against an opponent's ARC."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "act", INCAPACITATING)
    given, opponent = p.opt_str("threshold"), p.opt_int("opponent_stats")
    if (given is None) == (opponent is None):
        raise InputError(
            "an ARC needs a threshold or an opponent, not both",
            expected="threshold (ARCT) or opponent_stats (ARCO)",
            where="threshold",
        )
    stats = _stats(play, actor, p)
    mods = ([Modifier(p.int("gm_modifier"), "GM modifier")] if p.int("gm_modifier") else []) + list(
        state_modifiers(play, actor)
    )
    table = roll_table(play)
    what = f"{actor}'s ARC on {stats.label}"
    check: ArcThreshold | ArcOpposed
    if opponent is None:
        threshold = parse_threshold(given)
        check = ArcThreshold(f"{SYSTEM}.arc", f"{what} against {threshold}", stats.value, threshold, tuple(mods), table)
    else:
        opp = (Modifier(p.int("opponent_modifier"), "opponent's modifiers"),) if p.int("opponent_modifier") else ()
        check = ArcOpposed(
            f"{SYSTEM}.arc", f"{what} against an opponent", stats.value, opponent, tuple(mods), opp, table
        )
    read, opponent_read = p.opt_int("roll_modifier"), p.opt_int("opponent_roll_modifier")
    if read is None:
        play.check(check, purpose="arc", rule=ARC, actor=actor, data={"what": what})
        return
    # A roll modifier read off the dice at the table is judged at once.
    face = face_for_modifier(table, read)
    if isinstance(check, ArcThreshold):
        result = check.judge(face)
    else:
        if opponent_read is None:
            raise InputError(
                "the opponent's roll modifier is needed too",
                expected="opponent_roll_modifier",
                where="opponent_roll_modifier",
            )
        result = check.judge(face, face_for_modifier(table, opponent_read))
    play.explain(result.text, ARC, actor=actor, dice=result.dice, check=check.kind)
    play.checks.append(result)
    record_arc(play, actor, result, what)


def reaction(play: Play[Character], action: Call) -> None:
    """A Reaction check: automatic success when Exalted, a heavy malus when Panicked (VIII.4).

    Being surprised is what calls for it, so the check ends the Surprised state.
    """
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "react", INCAPACITATING)
    character = play.char(actor)
    if play.has(actor, "surprised"):
        play.remove_condition(actor, "surprised", state_rule("Surprised/under pressure"))
    if character.som >= 10:
        tell(
            play,
            f"{actor} is exalted: the Reaction check succeeds without a roll",
            state_rule("Exalted"),
            actor,
            player=f"{actor} is exalted: the Reaction check succeeds",
        )
        play.result.update({"success": True, "automatic": True})
        return
    extra: tuple[Modifier, ...] = ()
    if character.som <= 1:
        extra = (Modifier(int(play.option("panicked_reaction_modifier", -3)), "panicked: Reaction check"),)
    ask_arct(
        play,
        actor,
        kind="reaction",
        purpose="reaction",
        what="Reaction check",
        stats=_stats(play, actor, p),
        threshold=parse_threshold(p.str("threshold")),
        gm_modifier=p.int("gm_modifier"),
        extra=extra,
        rule=state_rule("Surprised/under pressure"),
    )


def set_state(play: Play[Character], action: Call) -> None:
    """Put a GM-set state on or off; ``modifier`` is the GM's adjustment it brings to every check."""
    actor = action.character
    p = action.params
    name = p.str("kind")
    info = STATES[name]
    if not p.bool("on"):
        if not play.remove_condition(actor, name, info.rule):
            raise InputError(f"{actor} is not {name}", expected="a state the character is in", where="kind")
        share_last(play, f"{actor} is no longer {name}")
        play.result.update({"state": name, "on": False})
        return
    if p.opt_str("limbs") is not None and name != "entangled":
        raise InputError("limbs applies to entangled only", expected="no limbs for this state", where="limbs")
    opposite = {"slowed": "hasted", "hasted": "slowed"}.get(name)
    if opposite and play.remove_condition(actor, opposite, info.rule):
        share_last(play, f"{actor} is no longer {opposite}")
    data: dict[str, Any] = {"modifier": p.int("modifier")}
    if name == "entangled":
        data["limbs"] = p.opt_str("limbs") or "legs"
    turns = p.opt_int("turns")
    duration = None if turns is None else turns * turn_seconds(play)
    play.add_condition(actor, name, info.rule, duration=duration, data=data, text=f"{actor} is {name}: {info.effect}")
    share_last(play, f"{actor} is {name}")
    play.result.update({"state": name, "on": True})


def set_som(play: Play[Character], action: Call) -> None:
    """State of mind 1-10: 10 is Exalted, 1 Panicked (VIII.4)."""
    actor = action.character
    value = action.params.int("value")
    play.put(actor, replace(play.char(actor), som=value))
    tell(play, f"{actor}'s SOM is now {value}", state_rule("Exalted"), actor, player=f"{actor}'s SOM is {value}")
    sync_states(play, actor)
    play.result.update({"som": value})


def burden(play: Play[Character], action: Call) -> None:
    """The burden rank carried: anything over normal clothes burdens, more than full overloads (VIII.4)."""
    actor = action.character
    rank = Burden(action.params.str("kind"))
    play.put(actor, replace(play.char(actor), burden=rank))
    rule = state_rule("Burdened/Overloaded")
    tell(play, f"{actor} carries a {rank.value} burden", rule, actor, player=f"{actor} carries a {rank.value} burden")
    sync_states(play, actor)
    play.result.update({"burden": rank.value})


def cast(play: Play[Character], action: Call) -> None:
    """A deafened character cannot cast spells or counterspells (VIII.4); the spell itself is another chapter's."""
    actor = action.character
    refuse_unless_able(play, actor, "cast a spell", INCAPACITATING | {"deafened"})
    spell = action.params.opt_str("spell") or "a spell"
    tell(
        play,
        f"{actor} may cast {spell}; nothing in the character's states forbids it",
        state_rule("Deafened"),
        actor,
        player=f"{actor} may cast {spell}",
    )
    play.result.update({"may_cast": True})


def stun(play: Play[Character], action: Call) -> None:
    """A stunning blow: unconscious, then a Stamina ARCT; on success awake the next turn (VIII.4 "Stunned")."""
    actor = action.character
    p = action.params
    refuse_unless_able(play, actor, "be stunned")
    threshold = parse_threshold(p.str("threshold"))
    rule = state_rule("Stunned")
    play.cancel_timers(actor=actor, kind=timer_kind("stun-reroll"))
    play.cancel_timers(actor=actor, kind=timer_kind("stun-wakes"))
    play.add_condition(actor, "stunned", rule, data={"threshold": threshold}, text=f"{actor} is stunned: unconscious")
    share_last(play, f"{actor} is stunned and falls unconscious")
    stun_check(play, actor, threshold, attempt=1, gm_modifier=p.int("gm_modifier"))


def stun_check(play: Play[Character], actor: str, threshold: int, *, attempt: int, gm_modifier: int = 0) -> None:
    ask_arct(
        play,
        actor,
        kind="stun",
        purpose="stun",
        what=f"waking from a stun (attempt {attempt})",
        stats=skill_stats_in_play(play, actor, "stamina"),
        threshold=threshold,
        gm_modifier=gm_modifier,
        rule=state_rule("Stunned"),
        data={"attempt": attempt, "gm_modifier": gm_modifier},
    )


def stun_periods(play: Play[Character]) -> tuple[int, ...]:
    """Turns to wait before each new ARCT. The seed's table is missing: a placeholder option, 1 turn each."""
    raw = play.option("stun_period_turns", (1,))
    try:
        periods = tuple(int(v) for v in (raw if isinstance(raw, (list, tuple)) else str(raw).split(",")))
    except (TypeError, ValueError):
        periods = ()
    if not periods or any(v < 1 for v in periods):
        raise InputError(
            f"stun_period_turns {raw!r}", expected="one or more whole numbers of turns, at least 1", where="options"
        )
    return periods


def stun_failed(play: Play[Character], actor: str, data: dict[str, Any]) -> None:
    """A failed stun ARCT: try again after the period for this attempt (the last period repeats)."""
    attempt = int(data.get("attempt", 1))
    periods = stun_periods(play)
    wait = periods[min(attempt - 1, len(periods) - 1)]
    play.schedule(
        wait * turn_seconds(play),
        timer_kind("stun-reroll"),
        f"{actor}: another Stamina ARCT to wake from the stun",
        actor=actor,
        data={"attempt": attempt + 1, "gm_modifier": data.get("gm_modifier", 0), "threshold": data["threshold"]},
    )
    tell(
        play,
        f"{actor} stays unconscious; another ARCT in {wait} turn(s)",
        state_rule("Stunned", reading="re-roll periods are an option; the seed's table is missing"),
        actor,
        player=f"{actor} stays unconscious",
    )


def stun_passed(play: Play[Character], actor: str) -> None:
    play.schedule(
        next_turn_start(play) - play.now, timer_kind("stun-wakes"), f"{actor} wakes from the stun", actor=actor
    )
    tell(
        play,
        f"{actor} will regain consciousness at the start of the next turn",
        state_rule("Stunned"),
        actor,
        player=f"{actor} will wake next turn",
    )


def sight(play: Play[Character], action: Call) -> None:
    """An action that needs sight: a blind character manages it only on a 1 on 1d6 (VIII.4 "Blind")."""
    actor = action.character
    refuse_unless_able(play, actor, "act", INCAPACITATING)
    task = action.params.opt_str("task") or "an action that needs sight"
    if not play.has(actor, "blind"):
        tell(
            play, f"{actor} can see: {task} needs no blind roll", state_rule("Blind"), actor, player=f"{task}: no roll"
        )
        play.result.update({"possible": True, "rolled": False})
        return
    check = ArcThreshold(
        kind=f"{SYSTEM}.blind",
        label=f"{actor} blind: {task}, a 1 on 1d6",
        stats=0,
        threshold=0,
        table=BLIND_TABLE,
    )
    play.check(check, purpose="sight", rule=state_rule("Blind"), actor=actor, data={"task": task})


def player_view(play: Play[Character], action: Call) -> None:
    """Show what the character's player may see (no unknown stat, nothing computed from one)."""
    actor = action.character
    view = player_character_view(play.state, actor).to_dict()
    play.result.update({"player_view": view, "fields": sorted(view)})


# -- what a check's result or a timer does (the section below) ----------------------------
def _on_arc(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    record_arc(play, pending.actor, result, str(pending.data.get("what", "ARC")))


def _on_reaction(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    record_arc(play, pending.actor, result, "Reaction check")


def _on_stun(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None  # the section needs an actor
    play.result.update({"woke": result.success})
    if not play.has(actor, "stunned"):
        return
    if result.success:
        stun_passed(play, actor)
    else:
        stun_failed(play, actor, dict(pending.data))


def _on_sight(play: Play[Character], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    play.result.update({"possible": result.success, "rolled": True})
    verdict = "manages" if result.success else "cannot manage"
    task = pending.data.get("task", "the action")
    tell(play, f"{actor} {verdict} {task}", state_rule("Blind"), actor, player=f"{actor} {verdict} {task}")


def _stun_reroll(play: Play[Character], timer: Timer) -> None:
    actor = timer.actor
    assert actor is not None
    if play.has(actor, "stunned"):
        data = timer.data
        stun_check(
            play, actor, int(data["threshold"]), attempt=int(data["attempt"]), gm_modifier=int(data["gm_modifier"])
        )


def _stun_wakes(play: Play[Character], timer: Timer) -> None:
    actor = timer.actor
    assert actor is not None
    if play.has(actor, "stunned"):
        play.remove_condition(actor, "stunned", state_rule("Stunned"))
        tell(play, f"{actor} regains consciousness", state_rule("Stunned"), actor, player=f"{actor} wakes up")


#: The action resolution check, the Reaction check and the states of the character (VIII.4).
STATES_SECTION = Section(
    "states",
    check_kinds=(
        CheckKind(f"{SYSTEM}.arc", "an ARC the table asks for (ARCT or ARCO)"),
        CheckKind(f"{SYSTEM}.reaction", "a Reaction check"),
        CheckKind(f"{SYSTEM}.stun", "Stamina ARCT to wake from a stun"),
        CheckKind(f"{SYSTEM}.blind", "1d6 for a blind character's action that needs sight (a 1 succeeds)"),
    ),
    checks=(
        CheckSpec("arc", _on_arc, check_stakes),
        CheckSpec("reaction", _on_reaction, check_stakes),
        CheckSpec("stun", _on_stun, check_stakes),
        CheckSpec("sight", _on_sight, check_stakes),
    ),
    timers=(TimerSpec(timer_kind("stun-reroll"), _stun_reroll), TimerSpec(timer_kind("stun-wakes"), _stun_wakes)),
    skip_orphans=True,
    needs_actor=True,
)
