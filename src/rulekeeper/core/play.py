"""The working side of ``apply(state, action, dice) -> Outcome``.

A :class:`Play` is created for one command. Rule code reads and replaces immutable state
through it, explains each step with its rule, rolls through the injected dice source, asks for
checks (rolled now, left pending, or only noted, per the table's automation settings) and
schedules follow-ups. :meth:`Play.outcome` freezes the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rulekeeper.core.check import Check, CheckResult
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import format_duration
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.explain import Step
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import ROLL_MODE_KEY
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import AnyCheck, AutomationLevel, Condition, GameState, PendingCheck, Timer
from rulekeeper.core.waiting_commands import COMMAND_TIMER
from rulekeeper.core.who_rolls import level_for as who_level_for
from rulekeeper.dice.source import DiceExhausted, DiceSource
from rulekeeper.errors import UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.core.ruleset import Ruleset
    from rulekeeper.dice import Roll

__all__ = ["WITHDRAWN_RULE", "Event", "Outcome", "Play", "announce_check"]

WITHDRAWN_RULE = Rule(system="core", section="Pending checks")

C = TypeVar("C")


@dataclass(frozen=True)
class Event:
    """Something that happened, for logs and live views (``condition-added``, ``timer-fired``)."""

    kind: str
    actor: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome(Generic[C]):
    """The frozen result of one command."""

    state: GameState[C]
    events: tuple[Event, ...]
    pending: tuple[PendingCheck, ...]
    explanation: tuple[Step, ...]
    result: Mapping[str, Any]
    checks: tuple[CheckResult, ...] = ()

    def render(self) -> str:
        return "\n".join(step.render() for step in self.explanation)


class Play(Generic[C]):
    """Mutable scratchpad for one command over immutable state."""

    def __init__(
        self,
        ruleset: Ruleset[C],
        state: GameState[C],
        dice: DiceSource,
        *,
        explain: bool = True,
        table_dice: bool = False,
    ) -> None:
        self.ruleset = ruleset
        # True when the command came with dice typed at the table: a GM-secret check then waits
        # for the GM rather than take them (Settings.secret_rolls_apart).
        self.table_dice = table_dice
        # False for bulk simulation: the same rules run, but no step text, roll rendering or odds
        # are built, since nobody reads them; the outcome's explanation is then empty.
        self.explaining = explain
        self.state = state
        self.dice = dice
        self.steps: list[Step] = []
        # The roll mode the table chose for the check whose consequences are being explained,
        # when it is not the rules' own: those lines are that roll's too (see explain).
        self._consequence_mode: str | None = None
        self.events: list[Event] = []
        self.new_pending: list[PendingCheck] = []
        self.checks: list[CheckResult] = []
        self.result: dict[str, Any] = {}
        # Rules time: when a check that waited for dice is resolved after the clock moved on, its
        # consequences happen when it was due, and the engine then catches up to the clock.
        self.as_of: int | None = None
        # The newest check this command left for the table: later rolls the engine makes are held
        # behind it, so they take their dice after it, as they would if the engine rolled it too.
        self.holding: int | None = None
        # True while time is being played (timers firing, late rolls settling): a check left for
        # the table then holds up the timers due after it.
        self.in_timeline = False

    @property
    def now(self) -> int:
        """The game time consequences happen at (the clock, or the due time of a late roll)."""
        return self.state.clock if self.as_of is None else self.as_of

    # -- characters -------------------------------------------------------------------------
    def char(self, actor: str) -> C:
        try:
            return self.state.characters[actor]
        except KeyError:
            known = ", ".join(sorted(self.state.characters)) or "none yet"
            raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}") from None

    def put(self, actor: str, character: C) -> None:
        chars = dict(self.state.characters)
        chars[actor] = character
        self.state = evolve(self.state, characters=chars)

    def option(self, name: str, default: Any) -> Any:
        return self.state.settings.option(name, default)

    # -- explanation -----------------------------------------------------------------------
    def explain(
        self,
        text: str,
        rule: Rule,
        *,
        actor: str | None = None,
        roll: str | None = None,
        dice: tuple[int, ...] = (),
        **data: Any,
    ) -> None:
        if not self.explaining:
            return
        kind = data.get("check")
        if isinstance(kind, str) and ROLL_MODE_KEY not in data:
            # A check's line carries the table's roll mode when it is not the rules' own, so who
            # may read it is settled when it is written (histories from before read as they did).
            mode = self.ruleset.roll_mode(self.state.settings, kind)
            if mode != self.ruleset.declared_roll_mode(kind):
                data[ROLL_MODE_KEY] = mode
        elif self._consequence_mode is not None and ROLL_MODE_KEY not in data:
            data[ROLL_MODE_KEY] = self._consequence_mode
        self.steps.append(Step(text=text, rule=rule, actor=actor, roll=roll, dice=dice, data=data))

    def event(self, event_kind: str, actor: str | None = None, **data: Any) -> None:
        self.events.append(Event(kind=event_kind, actor=actor, data=data))

    def _new_id(self) -> int:
        nid = self.state.next_id
        self.state = evolve(self.state, next_id=nid + 1)
        return nid

    # -- dice ------------------------------------------------------------------------------
    def roll(self, notation: str, reason: str, rule: Rule, *, actor: str | None = None) -> Roll:
        """Roll dice notation through the injected source and explain it."""
        from rulekeeper.dice import roll as roll_dice

        try:
            result = roll_dice(notation, self.dice)
        except DiceExhausted as exc:
            raise _missing(exc, reason) from None
        if not self.explaining:
            return result
        self.explain(
            f"{reason}: {result.total}",
            rule,
            actor=actor,
            roll=str(result),
            dice=tuple(d.value for d in result.dice),
        )
        return result

    def _level_for(self, kind: str, actor: str | None) -> AutomationLevel:
        """Who rolls a check of ``kind`` that ``actor`` rolls: the table's choice (by PC or NPC,
        ``core.who_rolls``), except that a GM-secret check never takes dice typed with the
        command -- it waits for the GM (Settings.secret_rolls_apart)."""
        settings = self.state.settings
        level = who_level_for(settings, kind, actor)
        if (
            level is AutomationLevel.AUTO
            and self.table_dice
            and settings.secret_rolls_apart
            and self.ruleset.roll_mode(settings, kind) == "blind"
        ):
            return AutomationLevel.PROMPT
        return level

    def check(
        self,
        check: AnyCheck,
        *,
        purpose: str,
        rule: Rule,
        actor: str | None = None,
        data: Mapping[str, Any] | None = None,
        stakes: Stakes | None = None,
    ) -> CheckResult | None:
        """Ask for a check; what happens next depends on the table's automation level.

        ``auto``: roll now and hand the result to the ruleset's ``on_check`` at once.
        ``prompt``: leave a pending check (with its odds) until dice are typed in.
        ``note``: record the check and its odds only; the table applies any consequence.
        """
        level = self._level_for(check.kind, actor)
        if stakes is None and level is not AutomationLevel.AUTO:
            stakes = self.ruleset.stakes_for(purpose, check, actor, data or {})
        pending = PendingCheck(
            id=self._new_id(),
            check=check,
            purpose=purpose,
            actor=actor,
            created=self.now,
            data=dict(data or {}),
            rule=rule,
            stakes=stakes,
        )
        odds = _odds_text(check) if self.explaining else ""
        if level is AutomationLevel.AUTO and self.holding is not None:
            pending = evolve(pending, after=self.holding)
            self.state = evolve(self.state, pending=(*self.state.pending, pending))
            self.new_pending.append(pending)
            self.explain(
                f"held: {check.describe()} is rolled by the engine once check #{self.holding} is settled "
                f"-- check #{pending.id}",
                rule,
                actor=actor,
                check=check.kind,
                pending=pending.id,
            )
            self.event("check-held", actor, id=pending.id, kind=check.kind, after=self.holding)
            return None
        if level is AutomationLevel.AUTO:
            announce_check(self.dice, pending)
            try:
                result = check.resolve(self.dice)
            except DiceExhausted as exc:
                raise _missing(exc, check.describe()) from None
            self.explain(result.text, rule, actor=actor, dice=result.dice, check=check.kind, odds=odds)
            self.checks.append(result)
            self._on_check(pending, result)
            return result
        if level is AutomationLevel.PROMPT:
            settings = self.state.settings
            holds = (self.in_timeline or settings.every_check_holds_time) and settings.every_roll_a_check
            pending = evolve(pending, blocks_time=holds)
            self.state = evolve(self.state, pending=(*self.state.pending, pending))
            self.new_pending.append(pending)
            if self.state.settings.every_roll_a_check:
                self.holding = pending.id
            self.explain(
                f"waiting for dice: {check.describe()} ({odds}) -- pending check #{pending.id}",
                rule,
                actor=actor,
                check=check.kind,
                pending=pending.id,
            )
            self.event("check-pending", actor, id=pending.id, kind=check.kind)
            return None
        self.explain(f"noted, not rolled: {check.describe()} ({odds})", rule, actor=actor, check=check.kind)
        self.event("check-noted", actor, kind=check.kind)
        return None

    def roll_check(
        self,
        check: DiceRoll,
        *,
        purpose: str,
        rule: Rule,
        actor: str | None = None,
        data: Mapping[str, Any] | None = None,
        stakes: Stakes | None = None,
    ) -> CheckResult | None:
        """Ask for a plain roll (damage, an injury table) by its kind's automation level.

        Its consequences always go through ``on_check`` with ``purpose``, so the rules continue
        at once under ``auto`` and when the dice are typed under ``prompt``. Under ``auto`` it is
        explained as a plain roll and takes no state id, exactly as the roll it replaces did, so
        stored campaigns replay unchanged.
        """
        if self.state.settings.every_roll_a_check and (
            self._level_for(check.kind, actor) is not AutomationLevel.AUTO or self.holding is not None
        ):
            return self.check(check, purpose=purpose, rule=rule, actor=actor, data=data, stakes=stakes)
        pending = PendingCheck(
            id=0, check=check, purpose=purpose, actor=actor, created=self.now, data=dict(data or {}), rule=rule
        )
        announce_check(self.dice, pending)
        try:
            result = check.resolve(self.dice)
        except DiceExhausted as exc:
            raise _missing(exc, check.describe()) from None
        self.explain(result.text, rule, actor=actor, roll=str(result.details.get("roll")), dice=result.dice)
        self.ruleset.on_check(self, pending, result)
        return result

    def resolve_pending(self, pending: PendingCheck, result: CheckResult, rule: Rule) -> None:
        """Apply dice to a pending check; the explanation cites the rule that asked for it."""
        self.state = evolve(self.state, pending=tuple(p for p in self.state.pending if p.id != pending.id))
        self.explain(result.text, pending.rule or rule, actor=pending.actor, dice=result.dice, check=pending.check.kind)
        self.checks.append(result)
        self.event("check-resolved", pending.actor, id=pending.id)
        self._on_check(pending, result)

    def _on_check(self, pending: PendingCheck, result: CheckResult) -> None:
        """Hand the result to the rules; what they explain of it shares the check's roll mode
        when the table chose one apart from the rules' (a blind Vision roll's "notices it")."""
        kind = pending.check.kind
        mode = self.ruleset.roll_mode(self.state.settings, kind)
        outer = self._consequence_mode
        if mode != self.ruleset.declared_roll_mode(kind):
            self._consequence_mode = mode
        try:
            self.ruleset.on_check(self, pending, result)
        finally:
            self._consequence_mode = outer

    def drop_pending(self, *, actor: str | None = None, purpose: str | None = None) -> None:
        """Withdraw pending checks that no longer apply (the condition that asked for them ended).

        Each withdrawn check is explained, so a table waiting to roll it sees why it went away.
        """
        gone = [
            p
            for p in self.state.pending
            if (actor is None or p.actor == actor) and (purpose is None or p.purpose == purpose)
        ]
        if not gone:
            return
        ids = {p.id for p in gone}
        self.state = evolve(self.state, pending=tuple(p for p in self.state.pending if p.id not in ids))
        for p in gone:
            self.explain(
                f"pending check #{p.id} withdrawn, no longer needed: {p.check.describe()}",
                p.rule or WITHDRAWN_RULE,
                actor=p.actor,
                check=p.check.kind,
            )
            self.event("check-withdrawn", p.actor, id=p.id)

    # -- time ------------------------------------------------------------------------------
    def schedule(
        self,
        delay: int,
        kind: str,
        label: str,
        *,
        actor: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> Timer:
        timer = Timer(
            id=self._new_id(),
            due=self.now + delay,
            kind=kind,
            label=label,
            actor=actor,
            data=dict(data or {}),
        )
        self.state = evolve(self.state, timers=(*self.state.timers, timer))
        self.event("timer-set", actor, kind=kind, due=timer.due, label=label)
        return timer

    def cancel_timers(self, *, actor: str | None = None, kind: str | None = None) -> tuple[Timer, ...]:
        # A command waiting behind a check is the table's, not a rule's follow-up: what befalls its
        # character (death, waking) never cancels it; it is judged in its turn.
        gone = tuple(t for t in self.state.timers_of(actor, kind) if t.kind != COMMAND_TIMER or kind == COMMAND_TIMER)
        if gone:
            ids = {t.id for t in gone}
            self.state = evolve(self.state, timers=tuple(t for t in self.state.timers if t.id not in ids))
            for t in gone:
                self.event("timer-cancelled", t.actor, kind=t.kind, label=t.label)
        return gone

    # -- conditions ------------------------------------------------------------------------
    def add_condition(
        self,
        actor: str,
        name: str,
        rule: Rule,
        *,
        duration: int | None = None,
        data: Mapping[str, Any] | None = None,
        text: str | None = None,
    ) -> Condition:
        """Add (or refresh) a named condition; one with a duration ends by itself."""
        self.remove_condition(actor, name, quiet=True)
        until = None if duration is None else self.now + duration
        cond = Condition(
            id=self._new_id(),
            name=name,
            actor=actor,
            since=self.now,
            until=until,
            data=dict(data or {}),
        )
        self.state = evolve(self.state, conditions=(*self.state.conditions, cond))
        if duration is not None:
            self.schedule(duration, "core.condition-ends", f"{name} ends", actor=actor, data={"name": name})
        span = f" for {format_duration(duration)}" if duration is not None else ""
        self.explain(text or f"{actor} is {name}{span}", rule, actor=actor)
        self.event("condition-added", actor, name=name, until=until)
        return cond

    def remove_condition(self, actor: str, name: str, rule: Rule | None = None, *, quiet: bool = False) -> bool:
        present = self.state.has_condition(actor, name)
        if not present:
            return False
        self.state = evolve(
            self.state,
            conditions=tuple(c for c in self.state.conditions if not (c.actor == actor and c.name == name)),
            timers=tuple(
                t
                for t in self.state.timers
                if not (t.kind == "core.condition-ends" and t.actor == actor and t.data.get("name") == name)
            ),
        )
        if not quiet:
            if rule is not None:
                self.explain(f"{actor}: {name} ends", rule, actor=actor)
            self.event("condition-removed", actor, name=name)
        return True

    def has(self, actor: str, name: str) -> bool:
        return self.state.has_condition(actor, name)

    # -- result ----------------------------------------------------------------------------
    def outcome(self) -> Outcome[C]:
        return Outcome(
            state=self.state,
            events=tuple(self.events),
            pending=tuple(self.new_pending),
            explanation=tuple(self.steps),
            result=dict(self.result),
            checks=tuple(self.checks),
        )


def announce_check(dice: DiceSource, pending: PendingCheck) -> None:
    """Tell a dice source which check its next values are for, if it asks (``before_check``): a
    scenario replayed under ``auto`` gives each check the dice its ``resolve`` step typed, whenever
    the engine rolls it. Sources that do not ask are not told."""
    hook = getattr(dice, "before_check", None)
    if hook is not None:
        hook(pending)


def _missing(exc: DiceExhausted, what: str) -> DiceExhausted:
    """Dice typed up front that run out say which roll was missing them, not just a die number.

    The roll is described only then: a try block costs nothing when the dice are there, where
    describing every check before rolling it was a good share of a simulated fight."""
    return DiceExhausted(f"{exc.message}, for {what}", expected=exc.expected)


def _odds_text(check: Check) -> str:
    if isinstance(check, DiceRoll):
        rows = check.distribution()
        return f"no target: totals {rows[0][0]} to {rows[-1][0]}"
    p = check.probability()
    text = f"{float(p):.1%} to succeed"
    crit = check.critical_probability()
    if crit:
        text += f", {float(crit):.1%} critical success"
    return text
