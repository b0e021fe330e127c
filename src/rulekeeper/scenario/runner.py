"""Running a validated scenario step by step and checking its expectations."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulekeeper.core.action import Action
from rulekeeper.core.clock import parse_duration
from rulekeeper.core.engine import (
    CountingSource,
    add_character,
    advance,
    apply_action,
    resolve_check,
    resolve_typed_in_order,
    typed_dice_source,
    typed_total,
    typed_values,
)
from rulekeeper.core.play import Outcome
from rulekeeper.core.state import AutomationLevel, GameState
from rulekeeper.dice.source import DiceSource, RecordingSource, ScriptedSource, SeededSource
from rulekeeper.errors import InputError, RulesError
from rulekeeper.scenario.ledger import CheckKey, CheckLedger, LedgerSource
from rulekeeper.scenario.loader import Scenario, ScenarioStep, load_scenario

__all__ = ["Failure", "ScenarioReport", "run_file", "run_scenario"]

_MISSING = object()


@dataclass(frozen=True)
class Failure:
    """An expectation that did not hold, or a step that could not run."""

    step: int
    line: int | None
    message: str
    expected: Any = None
    actual: Any = None

    def render(self) -> str:
        at = f"step {self.step}" + (f" (line {self.line})" if self.line else "")
        text = f"{at}: {self.message}"
        if self.expected is not None or self.actual is not None:
            text += f": expected {self.expected!r}, got {self.actual!r}"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "line": self.line,
            "message": self.message,
            "expected": self.expected,
            "actual": self.actual,
        }


@dataclass
class ScenarioReport:
    path: str
    title: str = ""
    system: str = ""
    steps_run: int = 0
    failures: list[Failure] = field(default_factory=list)
    invalid: str | None = None
    transcript: list[str] = field(default_factory=list)
    final_state: GameState[Any] | None = field(default=None, repr=False, compare=False)

    @property
    def passed(self) -> bool:
        return self.invalid is None and not self.failures

    @property
    def exit_code(self) -> int:
        if self.invalid is not None:
            return 2
        return 1 if self.failures else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "title": self.title,
            "system": self.system,
            "passed": self.passed,
            "steps_run": self.steps_run,
            "invalid": self.invalid,
            "failures": [f.to_json() for f in self.failures],
            "transcript": self.transcript,
        }


def run_file(path: str | Path, *, automation: str | None = None) -> ScenarioReport:
    try:
        scenario = load_scenario(path)
    except InputError as exc:
        return ScenarioReport(path=str(path), invalid=str(exc))
    return run_scenario(scenario, automation=automation)


def _matches(expected: Any, actual: Any) -> bool:
    # An empty mapping or list means "exactly empty": otherwise `fatalities: {}` would match anything.
    if isinstance(expected, Mapping):
        if not expected:
            return isinstance(actual, Mapping) and not actual
        return isinstance(actual, Mapping) and all(k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(_matches(e, a) for e, a in zip(expected, actual, strict=True))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(expected, actual, rel_tol=1e-6, abs_tol=1e-9)
    return bool(expected == actual)


def _mismatches(prefix: str, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    out: list[tuple[str, Any, Any]] = []
    for key, want in expected.items():
        got = actual.get(key, _MISSING) if isinstance(actual, Mapping) else _MISSING
        path = f"{prefix}.{key}" if prefix else str(key)
        if got is _MISSING:
            out.append((path, want, "<missing>"))
        elif isinstance(want, Mapping) and want and isinstance(got, Mapping):
            out.extend(_mismatches(path, want, got))
        elif not _matches(want, got):
            out.append((path, want, got))
    return out


class _Run:
    def __init__(self, scenario: Scenario, report: ScenarioReport, ledger: CheckLedger | None = None) -> None:
        self.scenario = scenario
        self.ledger = ledger
        # Played as written under a ledger: the check each resolve step settled, and the step that
        # asked for it (see _replay_auto).
        self.resolved: dict[int, CheckKey] = {}
        self.asked_at: dict[int, int] = {}
        self.born: dict[int, int] = {}  # pending check id -> the step that left it
        self.ruleset = scenario.ruleset
        self.report = report
        state: GameState[Any] = self.ruleset.new_state(scenario.settings)
        for actor, sheet in scenario.characters.items():
            state = add_character(self.ruleset, state, actor, sheet)
        self.state = state
        self.last: Outcome[Any] | None = None
        self.queue: list[int] = []  # pending checks in table order, for ``resolve: next``
        self.seen: set[int] = set()

    def fail(self, step: ScenarioStep, message: str, expected: Any = None, actual: Any = None) -> None:
        self.report.failures.append(Failure(step.index, step.line, message, expected, actual))

    def dice_for(self, step: ScenarioStep) -> tuple[DiceSource, ScriptedSource | None]:
        # A resolve step's dice are typed in for the check itself; its follow-ups fall back to seeded dice.
        if "dice" in step.data and step.kind != "resolve":
            scripted = ScriptedSource(step.data["dice"], label=f"dice of step {step.index}")
            return scripted, scripted
        return SeededSource(f"{self.scenario.seed}:{step.index}"), None

    def run_step(self, step: ScenarioStep, *, rolled: dict[int, CheckKey] | None = None) -> None:
        if step.kind == "expect":
            self.check_expect(step)
            return
        if rolled is not None and self.ledger is not None and rolled.get(step.index) in self.ledger.used:
            self.report.transcript.append(f"step {step.index}: its dice went to the engine, at the check's moment")
            return
        dice, scripted = self.dice_for(step)
        expect_error = step.data.get("expect_error")
        try:
            outcome = self.perform(step, dice)
        except RulesError as exc:
            if expect_error is not None and str(expect_error).lower() in str(exc).lower():
                self.report.transcript.append(f"step {step.index}: refused as expected: {exc}")
                return
            self.fail(step, f"{step.kind} failed: {exc}")
            return
        if expect_error is not None:
            self.fail(step, "expected the step to be refused", expected=expect_error, actual="it succeeded")
        if scripted is not None and scripted.remaining:
            self.fail(
                step,
                f"{len(scripted.remaining)} of the given dice were not used",
                expected=f"{scripted.used} dice",
                actual=list(step.data["dice"]),
            )
        self.state = outcome.state
        self.last = outcome
        for p in outcome.state.pending:
            self.born.setdefault(p.id, step.index)
        for line in outcome.explanation:
            self.report.transcript.append(f"step {step.index}: {line.render()}")

    def perform(self, step: ScenarioStep, dice: DiceSource) -> Outcome[Any]:
        data = step.data
        first_id = self.state.next_id
        typed: list[int] | None = data.get("dice")
        # Dice typed with the step are table dice, as in a campaign (a GM-secret check then waits
        # for the GM rather than take them: Settings.secret_rolls_apart).
        table_dice = typed is not None
        if self.ledger is not None:
            dice = LedgerSource(self.ledger, dice)
        if step.kind == "action":
            action = Action(name=data["action"], actor=data.get("actor"), params=data.get("params") or {})
            counted = CountingSource(dice)
            outcome = apply_action(self.ruleset, self.state, action, counted, table_dice=table_dice)
        elif step.kind == "resolve":
            target = data["resolve"]
            if target in ("last", "next"):
                if not self.state.pending:
                    raise InputError("no pending check to resolve", expected="a step that leaves a pending check")
                target = self.state.pending[-1].id if target == "last" else self.next_in_table_order()
            pending = self.state.find_pending(int(target))
            total = None if typed is None or pending is None else typed_total(self.state, pending, typed)
            if typed is not None and pending is not None and total is None:
                typed = list(typed_values(pending, typed, self.state.settings))
                dice = typed_dice_source(
                    pending,
                    typed,
                    dice,
                    self.state.settings,
                    surplus_feeds_consequences=self.ruleset.typed_dice_feed_consequences,
                )
            recording = RecordingSource(dice)
            if self.ledger is not None:
                dice = LedgerSource(self.ledger, recording)
                self.ledger.mark()
            counted = CountingSource(dice)
            outcome = resolve_check(self.ruleset, self.state, int(target), counted, total=total, table_dice=table_dice)
            if self.ledger is not None and self.ledger.first is not None and not self.ledger.replaying:
                self.resolved[step.index] = self.ledger.first
                self.ledger.recorded[self.ledger.first] = recording.values
                self.asked_at[step.index] = self.born.get(int(target), step.index)
            if total is not None:
                return outcome  # a total typed alone feeds nothing else
        else:
            if step.kind == "round":
                count = data.get("round") or 1
                seconds = count * int(self.state.settings.option("round_seconds", self.ruleset.round_seconds))
            else:
                seconds = parse_duration(str(data["advance"]), round_seconds=self.ruleset.round_seconds)
            counted = CountingSource(dice)
            outcome = advance(self.ruleset, self.state, seconds, counted, table_dice=table_dice)
        if typed is None:
            return outcome
        # Dice given up front feed the checks the step left pending, in the order they were asked for.
        return resolve_typed_in_order(self.ruleset, outcome, first_id, counted, len(typed))

    def next_in_table_order(self) -> int:
        """The pending check the rules asked for first, a roll's consequences before its siblings."""
        waiting = [p.id for p in self.state.pending if p.after is None]
        self.queue = [i for i in self.queue if i in waiting]
        fresh = [i for i in waiting if i not in self.queue and i not in self.seen]
        self.seen.update(fresh)
        self.queue = fresh + self.queue
        if not self.queue:
            raise InputError("no check waits for dice", expected="a step that leaves a pending check")
        return self.queue[0]

    def check_expect(self, step: ScenarioStep) -> None:
        expect = step.data["expect"]
        actor = expect.get("character")
        if actor is not None:
            view = self.ruleset.view(self.state, actor)
            for path, want, got in _mismatches("", expect.get("view") or {}, view):
                self.fail(step, f"{actor}.{path}", want, got)
            names = {c.name for c in self.state.conditions_of(actor)}
            wanted = expect.get("conditions")
            if wanted == [] and names:
                self.fail(step, f"{actor} should have no conditions", [], sorted(names))
            for name in wanted or []:
                if name not in names:
                    self.fail(step, f"{actor} should have condition {name!r}", name, sorted(names))
            for name in expect.get("no_conditions") or []:
                if name in names:
                    self.fail(step, f"{actor} should not have condition {name!r}", f"no {name}", sorted(names))
        if "result" in expect:
            result = dict(self.last.result) if self.last else {}
            for path, want, got in _mismatches("", expect["result"] or {}, result):
                self.fail(step, f"result.{path}", want, got)
        if "pending" in expect and len(self.state.pending) != expect["pending"]:
            self.fail(step, "pending checks", expect["pending"], [p.check.describe() for p in self.state.pending])
        if "clock" in expect and self.state.clock != expect["clock"]:
            self.fail(step, "clock (seconds)", expect["clock"], self.state.clock)
        labels = [t.label for t in self.state.timers]
        if expect.get("timers") == [] and labels:
            self.fail(step, "no timers", [], labels)
        for fragment in expect.get("timers") or []:
            if not any(str(fragment).lower() in label.lower() for label in labels):
                self.fail(step, f"a timer mentioning {fragment!r}", fragment, labels)
        if "text" in expect:
            text = self.last.render() if self.last else ""
            if str(expect["text"]).lower() not in text.lower():
                self.fail(step, "explanation text", expect["text"], text)


def run_scenario(scenario: Scenario, *, automation: str | None = None) -> ScenarioReport:
    """Run every step; ``automation`` (``auto``, ``prompt`` or ``note``) replaces the file's levels.

    Under ``auto`` a file written for a table that rolls its own dice still runs, with the same
    dice: see :func:`_replay_auto`.
    """
    report = ScenarioReport(path=scenario.path, title=scenario.title, system=scenario.system)
    report.transcript.extend(f"note: {line}" for line in scenario.notes)
    if automation is not None:
        try:
            level = AutomationLevel(automation)
        except ValueError:
            report.invalid = f"automation {automation!r} (expected auto, prompt or note)"
            return report
        if level is AutomationLevel.AUTO:
            return _replay_auto(scenario, report)
        scenario = replace(scenario, settings=replace(scenario.settings, automation={"*": level}))
    try:
        run = _Run(scenario, report)
    except RulesError as exc:
        report.invalid = str(exc)
        return report
    for step in scenario.steps:
        run.run_step(step)
        report.steps_run += 1
    report.final_state = run.state
    return report


def _replay_auto(scenario: Scenario, report: ScenarioReport) -> ScenarioReport:
    """The file with the engine rolling every check the table rolled: each takes, at its own moment,
    the dice the file's ``resolve`` step typed for it, whenever that step came (after an advance
    too). The file is first played as written to learn which dice belong to which check (see
    :mod:`rulekeeper.scenario.ledger`); a ``resolve`` step whose check the engine rolled is then
    passed over, and so are the expectations between the step that asked for that check and it,
    which describe a game still waiting for those dice. Kinds the file only notes stay noted:
    ``note`` is not about who rolls."""
    ledger = CheckLedger()
    try:
        written = _Run(scenario, ScenarioReport(path=scenario.path), ledger)
        for step in scenario.steps:
            written.run_step(step)
    except RulesError as exc:
        report.invalid = str(exc)
        return report
    ledger.restart()
    levels = {
        kind: level if level is AutomationLevel.NOTE else AutomationLevel.AUTO
        for kind, level in scenario.settings.automation.items()
    }
    levels.setdefault("*", AutomationLevel.AUTO)
    auto = replace(scenario, settings=replace(scenario.settings, automation=levels))
    expects = {step.index for step in scenario.steps if step.kind == "expect"}
    waiting = {i for r, asked in written.asked_at.items() for i in range(asked + 1, r) if i in expects}
    try:
        run = _Run(auto, report, ledger)
    except RulesError as exc:
        report.invalid = str(exc)
        return report
    for step in scenario.steps:
        if step.index in waiting:
            continue
        run.run_step(step, rolled=written.resolved)
        report.steps_run += 1
    report.final_state = run.state
    return report
