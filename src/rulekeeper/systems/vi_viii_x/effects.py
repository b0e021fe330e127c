"""The stateful side of the rules: damage and healing through a Play, states at zero, the fatality
countdown, and the states derived from the sheet kept in step with it.

Every explanation written here names its rule; a line a player may read carries its own
player-safe wording in ``data["player"]`` (see :func:`tell`), everything else is the GM's.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Any

from rulekeeper.core.arc import ArcThreshold
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import DAY, format_duration
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section, TimerSpec
from rulekeeper.core.state import Timer
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.vi_viii_x.character import Character, Fatality
from rulekeeper.systems.vi_viii_x.checks import ArcStats, roll_table, state_modifiers, threshold_name
from rulekeeper.systems.vi_viii_x.damage import StatChange, take_damage
from rulekeeper.systems.vi_viii_x.recovery import restore
from rulekeeper.systems.vi_viii_x.rules import DISEASE, INJURIES, SYSTEM
from rulekeeper.systems.vi_viii_x.states import DERIVED_STATES, STATE_AT_ZERO, STATES, derived_states

__all__ = [
    "FATALITY_SECTION",
    "TIMER_PREFIX",
    "ask_arct",
    "damage_pair",
    "ensure_recovery",
    "fatality_begins",
    "fatality_ends",
    "heal_points",
    "next_turn_start",
    "permanent_ks",
    "refuse_unless_able",
    "share_last",
    "sync_states",
    "tell",
    "timer_kind",
    "turn_seconds",
]

TIMER_PREFIX = f"{SYSTEM}."


def timer_kind(name: str) -> str:
    return TIMER_PREFIX + name


def turn_seconds(play: Play[Any]) -> int:
    """Length of a turn: a per-system setting, 6 seconds unless the table says otherwise."""
    return int(play.option("round_seconds", 6))


def next_turn_start(play: Play[Any]) -> int:
    """The clock at the start of the turn after the current one."""
    turn = turn_seconds(play)
    return (play.now // turn + 1) * turn


def tell(play: Play[Any], text: str, rule: Rule, actor: str | None, player: str | None = None, **data: Any) -> None:
    """Explain a step; ``player`` is the wording a player may read (omit it for GM-only steps)."""
    if player is not None:
        data["player"] = player
    play.explain(text, rule, actor=actor, **data)


def share_last(play: Play[Any], player: str) -> None:
    """Give the step just written (by core code such as ``add_condition``) a player-safe wording."""
    if not play.steps:
        return  # nothing was explained (a simulation's quiet engine path)
    last = play.steps[-1]
    play.steps[-1] = replace(last, data={**last.data, "player": player})


def _changes_text(changes: tuple[StatChange, ...], *, player: bool) -> str:
    shown = [c.render() for c in changes if not (player and c.secret)]
    return ", ".join(shown)


# -- states derived from the sheet ------------------------------------------------------------
def sync_states(play: Play[Character], actor: str) -> None:
    """Add or lift the states the sheet's numbers imply (injured, burdened, fatigued, starving ...)."""
    now = derived_states(play.char(actor))
    for name in DERIVED_STATES:
        present = play.has(actor, name)
        info = STATES[name]
        if name in now and not present:
            play.add_condition(actor, name, info.rule, text=f"{actor} is {name}: {info.effect}")
            if name != "injured":
                share_last(play, f"{actor} is {name}")
        elif name not in now and present:
            play.remove_condition(actor, name, info.rule)
            if name != "injured":
                share_last(play, f"{actor} is no longer {name}")


def refuse_unless_able(play: Play[Character], actor: str, doing: str, blocked: Collection[str] = ()) -> None:
    """Refuse an action a permanently dead, unconscious or otherwise blocked character cannot take."""
    character = play.char(actor)
    if character.permanently_dead:
        raise RuleRefusal(f"{actor} is permanently dead and cannot {doing} ({INJURIES})")
    for condition in play.state.conditions_of(actor):
        if condition.name in blocked:
            raise RuleRefusal(f"{actor} cannot {doing} while {condition.name} ({STATES[condition.name].rule})")


# -- damage and the fatality countdown --------------------------------------------------------
def damage_pair(
    play: Play[Character],
    actor: str,
    ks: str,
    us: str | None,
    amount: int,
    *,
    what: str,
    rule: Rule,
) -> tuple[StatChange, ...]:
    """Lower the ``ks``/``us`` pair by ``amount`` (US first), then apply what follows from it."""
    character, changes = take_damage(play.char(actor), ks, us, amount)
    play.put(actor, character)
    pair = ks + (f"/{us}" if us else "")
    moved = _changes_text(changes, player=False) or "nothing left to lower"
    shown = _changes_text(changes, player=True)
    tell(
        play,
        f"{actor} takes {amount} {what} on {pair}: {moved}",
        rule,
        actor,
        # No amount for the player: the amount beside the KS's fall is what the US took.
        player=f"{actor} takes {what}" + (f": {shown}" if shown else ""),
        damage=amount,
    )
    _check_zero(play, actor, ks, us)
    ensure_recovery(play, actor)
    sync_states(play, actor)
    return changes


def _check_zero(play: Play[Character], actor: str, ks: str, us: str | None) -> None:
    """A pair at 0 or below brings its state from the next turn, for a countdown of KS + US originals."""
    character = play.char(actor)
    if character.ks[ks].current > 0 or ks in character.fatalities:
        return
    state = STATE_AT_ZERO[ks]
    turns = character.ks[ks].original + (character.us[us].original if us else 0)
    begins = next_turn_start(play)
    fatality = Fatality(
        ks=ks, us=us, state=state, turns=turns, begins=begins, permanent_at=begins + turns * turn_seconds(play)
    )
    play.put(actor, replace(character, fatalities={**character.fatalities, ks: fatality}))
    clock = play.now
    play.schedule(begins - clock, timer_kind(f"fatality-begins.{ks}"), f"{actor}: {state} from this turn", actor=actor)
    play.schedule(
        fatality.permanent_at - clock,
        timer_kind(f"fatality-ends.{ks}"),
        f"{actor}: {state} becomes permanent",
        actor=actor,
    )
    originals = f"{ks} {character.ks[ks].original}" + (f" + {us} {character.us[us].original}" if us else "")
    tell(
        play,
        f"{actor}'s {ks} is at {character.ks[ks].current}: {state} from the next turn, then a fatality countdown "
        f"of {turns} turns ({originals}) before it is permanent, in {format_duration(fatality.permanent_at - clock)}",
        INJURIES,
        actor,
        player=f"{actor}'s {ks} is at {character.ks[ks].current}: {state} from the next turn",
    )


def fatality_begins(play: Play[Character], actor: str, ks: str) -> None:
    fatality = play.char(actor).fatalities.get(ks)
    if fatality is None or play.has(actor, fatality.state):
        return
    play.add_condition(
        actor,
        fatality.state,
        INJURIES,
        data={"ks": ks, "permanent": False},
        text=f"{actor} is in the {fatality.state} state; the fatality countdown of {fatality.turns} turns runs",
    )
    share_last(play, f"{actor} is in the {fatality.state} state until healed or the countdown ends")


def fatality_ends(play: Play[Character], actor: str, ks: str) -> None:
    character = play.char(actor)
    fatality = character.fatalities.get(ks)
    if fatality is None or fatality.permanent:
        return
    done = replace(fatality, permanent=True)
    play.put(actor, replace(character, fatalities={**character.fatalities, ks: done}))
    play.add_condition(
        actor,
        fatality.state,
        INJURIES,
        data={"ks": ks, "permanent": True},
        text=f"the fatality countdown ran out: {actor}'s {fatality.state} is permanent",
    )
    share_last(play, f"{actor}'s {fatality.state} is permanent")
    if fatality.state == "death":
        # Nothing further happens to the dead: no recovery, hunger, effort or stun rolls.
        for timer in play.state.timers_of(actor):
            if timer.kind.startswith(TIMER_PREFIX):
                play.cancel_timers(actor=actor, kind=timer.kind)
        play.drop_pending(actor=actor)


def _lift_fatalities(play: Play[Character], actor: str) -> None:
    """Healing that lifts the KS above 0 before the countdown ends cancels the state (VIII.1)."""
    character = play.char(actor)
    kept = dict(character.fatalities)
    for ks, fatality in character.fatalities.items():
        if fatality.permanent or character.ks[ks].current <= 0:
            continue
        del kept[ks]
        play.cancel_timers(actor=actor, kind=timer_kind(f"fatality-begins.{ks}"))
        play.cancel_timers(actor=actor, kind=timer_kind(f"fatality-ends.{ks}"))
        play.remove_condition(actor, fatality.state, quiet=True)
        tell(
            play,
            f"{actor}'s {ks} is back above 0 before the countdown ended: no longer in the {fatality.state} state",
            INJURIES,
            actor,
            player=f"{actor}'s {ks} is back above 0: no longer in the {fatality.state} state",
        )
    if len(kept) != len(character.fatalities):
        play.put(actor, replace(play.char(actor), fatalities=kept))


# -- healing ------------------------------------------------------------------------------
def permanent_ks(character: Character) -> frozenset[str]:
    return frozenset(ks for ks, f in character.fatalities.items() if f.permanent)


def heal_points(
    play: Play[Character],
    actor: str,
    points: int,
    *,
    ks: str | None,
    us: str | None,
    what: str,
    rule: Rule,
) -> tuple[StatChange, ...]:
    """Give back up to ``points``, KS first then US, never above an original value; cancel lifted states."""
    character = play.char(actor)
    healed, changes = restore(character, points, ks, us, exclude=permanent_ks(character))
    play.put(actor, healed)
    used = sum(c.after - c.before for c in changes)
    moved = _changes_text(changes, player=False) or "nothing to heal"
    shown = _changes_text(changes, player=True)
    tell(
        play,
        f"{what}: {used} of {points} point(s) healed: {moved}",
        rule,
        actor,
        player=f"{what}" + (f": {shown}" if shown else ""),
        healed=used,
    )
    _lift_fatalities(play, actor)
    for ailment in healed.ailments:
        if not ailment.eradicated and all(healed.current(s) >= healed.original(s) for s in ailment.stats):
            _eradicate(play, actor, ailment.name)
    sync_states(play, actor)
    return changes


def _eradicate(play: Play[Character], actor: str, name: str) -> None:
    character = play.char(actor)
    ailments = tuple(replace(a, eradicated=True) if a.name == name else a for a in character.ailments)
    play.put(actor, replace(character, ailments=ailments))
    # GM-only: the moment of eradication is when the last (perhaps secret) stat came back, and a
    # partly recovered victim may still feel ill (VIII.3, Disease); the player feels their known stats.
    tell(play, f"every point {name} took is back: the {name} is eradicated", DISEASE, actor)


def ensure_recovery(play: Play[Character], actor: str) -> None:
    """Keep one daily natural-recovery timer while the character is hurt (VIII.2)."""
    character = play.char(actor)
    if not character.is_injured or character.permanently_dead:
        return
    if play.state.timers_of(actor, timer_kind("recovery")):
        return
    play.schedule(DAY, timer_kind("recovery"), f"{actor}: a day of natural recovery", actor=actor)


# -- checks -------------------------------------------------------------------------------
def ask_arct(
    play: Play[Character],
    actor: str,
    *,
    kind: str,
    purpose: str,
    what: str,
    stats: ArcStats,
    threshold: int,
    rule: Rule,
    gm_modifier: int = 0,
    extra: tuple[Modifier, ...] = (),
    data: dict[str, Any] | None = None,
) -> CheckResult | None:
    """Ask for an ARCT with every modifier the character's states bring; its result goes to ``on_check``."""
    mods: list[Modifier] = []
    if gm_modifier:
        mods.append(Modifier(gm_modifier, "GM modifier"))
    mods.extend(extra)
    mods.extend(state_modifiers(play, actor))
    check = ArcThreshold(
        kind=f"{SYSTEM}.{kind}",
        label=f"{actor}: {what}, ARCT on {stats.label} against {threshold_name(threshold)}",
        stats=stats.value,
        threshold=threshold,
        modifiers=tuple(mods),
        table=roll_table(play),
    )
    payload = {"threshold": threshold, "stats_label": stats.label, **(data or {})}
    return play.check(check, purpose=purpose, rule=rule, actor=actor, data=payload)


def _fatality(name: str, step: Callable[[Play[Character], str, str], None]) -> TimerSpec:
    """The timers ``<name>.<known stat>`` of the countdown, each handing its stat to ``step``."""
    prefix = timer_kind(f"{name}.")

    def fires(play: Play[Character], timer: Timer) -> None:
        assert timer.actor is not None  # the section needs an actor
        step(play, timer.actor, timer.kind.removeprefix(prefix))

    return TimerSpec(prefix, fires, family=True)


#: The fatality countdown (VIII.1): a stat at zero brings its state, which may become permanent.
FATALITY_SECTION = Section(
    "fatality",
    timers=(
        _fatality("fatality-begins", fatality_begins),
        _fatality("fatality-ends", fatality_ends),
    ),
    skip_orphans=True,
    needs_actor=True,
)
