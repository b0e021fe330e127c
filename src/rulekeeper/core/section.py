"""Rule sections: one topic of one system (GURPS injury, G&M dying, W&G respite ...) as data.

A section declares what its topic contributes -- its actions and calculators, the kinds of check
it asks for, what each check purpose does with its result and what is at stake, what each timer
does when it fires, and its hooks on a condition's start and end and on roll modifiers. A
:class:`~rulekeeper.core.ruleset.Ruleset` is the sum of its sections: :class:`SectionTables`
merges them once, refuses two sections that claim the same name, and finds the one declaration
for a purpose or a timer kind (an unknown one is an error, never silently ignored).

A section's module imports only ``core/``, ``dice/`` and lower sections of its own system, never
the ruleset that dispatches to it, so the import arrows point one way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from rulekeeper.errors import UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.core.action import ActionSpec, CalculatorSpec
    from rulekeeper.core.check import CheckResult, Modifier
    from rulekeeper.core.play import Play
    from rulekeeper.core.stakes import Stakes
    from rulekeeper.core.state import AnyCheck, Condition, GameState, PendingCheck, Timer

__all__ = [
    "ROLL_MODES",
    "ROLL_MODES_OPTION",
    "ROLL_MODE_KEY",
    "CheckHandler",
    "CheckKind",
    "CheckSpec",
    "ConditionHook",
    "DeferredSection",
    "RollMode",
    "RollModifiers",
    "Section",
    "SectionClash",
    "SectionTables",
    "StakesWords",
    "TimerHandler",
    "TimerSpec",
]

#: What a check's result does: ``(play, pending, result)``.
CheckHandler = Callable[["Play[Any]", "PendingCheck", "CheckResult"], None]
#: What a timer does when it fires: ``(play, timer)``.
TimerHandler = Callable[["Play[Any]", "Timer"], None]
#: What is at stake in a check left for the table: ``(purpose, check, actor, data)``.
StakesWords = Callable[[str, "AnyCheck", "str | None", "Mapping[str, Any]"], "Stakes | None"]
#: A hook on a condition's start or end: ``(play, condition)``.
ConditionHook = Callable[["Play[Any]", "Condition"], None]
#: Modifiers a section's state puts on a roll: ``(state, actor, score) -> modifiers``.
RollModifiers = Callable[["GameState[Any]", str, str], "tuple[Modifier, ...]"]


_Spec = TypeVar("_Spec", "CheckSpec", "TimerSpec")


class SectionClash(RuntimeError):
    """Two sections of one ruleset claim the same purpose, timer kind, check kind, action,
    calculator or condition hook: a programming error, reported when the ruleset is built."""


#: Who sees a check (Foundry's and GURPS Game Aid's roll modes): ``public`` everyone at the
#: table, ``private`` its player and the GM, ``blind`` the GM only.
RollMode = Literal["public", "private", "blind"]
ROLL_MODES: tuple[RollMode, ...] = ("public", "private", "blind")
#: The campaign option (every system's, beside its rule options) holding the GM's roll modes,
#: ``{KIND or prefix or "*": mode}``; and the step data key a check's line carries its mode in
#: when the table rolled it in another mode than the rules declare.
ROLL_MODES_OPTION = "roll_modes"
ROLL_MODE_KEY = "roll_mode"


@dataclass(frozen=True)
class CheckKind:
    """A kind of check a section asks for: the key of the table's automation settings.

    ``secret``: the GM rolls it apart (no player sees it pending, nor the lines that report it):
    its roll mode is ``blind`` unless the GM chooses otherwise (``Ruleset.roll_mode``); other
    kinds are ``private``.
    """

    kind: str
    help: str
    secret: bool = False


@dataclass(frozen=True)
class CheckSpec:
    """One check purpose: what its result does and, for a check left to the table, what is at
    stake. ``family``: ``purpose`` is a prefix, and every purpose that starts with it is this
    spec's (purposes built from data, such as a G&M ailment's stages)."""

    purpose: str
    on_result: CheckHandler
    stakes: StakesWords | None = None
    family: bool = False


@dataclass(frozen=True)
class TimerSpec:
    """One timer kind and what firing does (``family``: ``kind`` is a prefix, as ``purpose`` above)."""

    kind: str
    on_fire: TimerHandler
    family: bool = False


@dataclass(frozen=True)
class Section:
    """One topic of one system and everything it contributes.

    ``skip_orphans``: a check or timer of this section whose character has left the game (or,
    with ``needs_actor``, that names no character) does nothing -- the roll outlived its subject.
    """

    name: str
    actions: Mapping[str, ActionSpec] = field(default_factory=dict)
    calculators: Mapping[str, CalculatorSpec] = field(default_factory=dict)
    check_kinds: tuple[CheckKind, ...] = ()
    checks: tuple[CheckSpec, ...] = ()
    timers: tuple[TimerSpec, ...] = ()
    condition_start: Mapping[str, ConditionHook] = field(default_factory=dict)
    condition_end: Mapping[str, ConditionHook] = field(default_factory=dict)
    roll_modifiers: RollModifiers | None = None
    skip_orphans: bool = False
    needs_actor: bool = False

    def skips(self, play: Play[Any], actor: str | None) -> bool:
        if actor is None:
            return self.needs_actor
        return self.skip_orphans and actor not in play.state.characters


@dataclass(frozen=True)
class DeferredSection:
    """A section loaded on first use (``location`` is ``"module:NAME"``), so a command that
    never touches it never pays for importing it (GURPS's feats). It claims every purpose that
    starts with ``purpose_prefix``, every timer kind that starts with ``timer_prefix`` and every
    action the eager sections lack; its check kinds are declared by an eager section."""

    location: str
    purpose_prefix: str
    timer_prefix: str

    def load(self) -> Section:
        module_name, _, attr = self.location.partition(":")
        section = getattr(importlib.import_module(module_name), attr)
        if not isinstance(section, Section):
            raise TypeError(f"{self.location} is not a Section")
        if section.check_kinds:
            raise SectionClash(f"deferred section {section.name!r} declares check kinds: declare them eagerly")
        # Its purposes and timers are found by their prefixes before it is loaded: one without
        # would be unknown until something else happened to load the section.
        stray = [c.purpose for c in section.checks if not c.purpose.startswith(self.purpose_prefix)]
        stray += [t.kind for t in section.timers if not t.kind.startswith(self.timer_prefix)]
        if stray:
            raise SectionClash(f"deferred section {section.name!r} claims {', '.join(stray)} outside its prefixes")
        return section


def _prefixed(name: str, families: Mapping[str, Any]) -> str | None:
    """The longest family prefix ``name`` starts with."""
    best: str | None = None
    for prefix in families:
        if name.startswith(prefix) and (best is None or len(prefix) > len(best)):
            best = prefix
    return best


class SectionTables:
    """The lookup tables of one ruleset's sections, built once.

    Each name -- a purpose, a timer kind, a check kind, an action, a calculator, a condition hook
    -- belongs to exactly one section; a second claim raises :class:`SectionClash` at once, so two
    topics can never silently fight over a purpose.
    """

    def __init__(self, system: str, sections: Iterable[Section | DeferredSection]) -> None:
        self.system = system
        self.sections: list[Section] = []
        self.deferred: list[DeferredSection] = []
        self.check_kinds: dict[str, CheckKind] = {}
        self.checks: dict[str, tuple[CheckSpec, Section]] = {}
        self.check_families: dict[str, tuple[CheckSpec, Section]] = {}
        self.timers: dict[str, tuple[TimerSpec, Section]] = {}
        self.timer_families: dict[str, tuple[TimerSpec, Section]] = {}
        self.actions: dict[str, ActionSpec] = {}
        self.calculators: dict[str, CalculatorSpec] = {}
        self.condition_start: dict[str, ConditionHook] = {}
        self.condition_end: dict[str, ConditionHook] = {}
        self.roll_modifiers: list[RollModifiers] = []
        self._owner: dict[tuple[str, str], str] = {}
        for section in sections:
            if isinstance(section, DeferredSection):
                self.deferred.append(section)
            else:
                self.add(section)
        for deferred in self.deferred:
            for purpose in (*self.checks, *self.check_families):
                if purpose.startswith(deferred.purpose_prefix):
                    raise SectionClash(
                        f"{system}: purpose {purpose!r} falls under deferred section {deferred.location}"
                    )
            for kind in (*self.timers, *self.timer_families):
                if kind.startswith(deferred.timer_prefix):
                    raise SectionClash(
                        f"{system}: timer kind {kind!r} falls under deferred section {deferred.location}"
                    )

    def add(self, section: Section) -> None:
        claims: list[tuple[str, str]] = [
            *(("check kind", k.kind) for k in section.check_kinds),
            *(("purpose", c.purpose) for c in section.checks),
            *(("timer kind", t.kind) for t in section.timers),
            *(("action", name) for name in section.actions),
            *(("calculator", name) for name in section.calculators),
            *(("condition-start hook", name) for name in section.condition_start),
            *(("condition-end hook", name) for name in section.condition_end),
        ]
        # A second claim -- by another section, or the same section listing a name twice (whose
        # second entry would silently win) -- is refused, before anything of the section is merged.
        seen: dict[tuple[str, str], str] = dict(self._owner)
        for claim in claims:
            owner = seen.setdefault(claim, section.name)
            if owner != section.name or claims.count(claim) > 1:
                what, name = claim
                raise SectionClash(
                    f"{self.system}: {what} {name!r} is claimed twice (by sections {owner!r} and {section.name!r})"
                )
        self._owner = seen
        self.sections.append(section)
        self.check_kinds.update((k.kind, k) for k in section.check_kinds)
        for check in section.checks:
            (self.check_families if check.family else self.checks)[check.purpose] = (check, section)
        for timer in section.timers:
            (self.timer_families if timer.family else self.timers)[timer.kind] = (timer, section)
        self.actions.update(section.actions)
        self.calculators.update(section.calculators)
        self.condition_start.update(section.condition_start)
        self.condition_end.update(section.condition_end)
        if section.roll_modifiers is not None:
            self.roll_modifiers.append(section.roll_modifiers)

    def load_deferred(self, match: Callable[[DeferredSection], bool] = lambda _: True) -> bool:
        """Load the deferred sections ``match`` picks; False if none was waiting."""
        picked = [d for d in self.deferred if match(d)]
        for deferred in picked:
            self.deferred.remove(deferred)
            self.add(deferred.load())
        return bool(picked)

    def check(self, purpose: str) -> tuple[CheckSpec, Section]:
        """The one declaration of ``purpose``; raises ``UnknownNameError`` for an unknown one."""
        return self._find(purpose, self.checks, self.check_families, "check purpose", lambda d: d.purpose_prefix)

    def timer(self, kind: str) -> tuple[TimerSpec, Section]:
        """The one declaration of timer ``kind``; raises ``UnknownNameError`` for an unknown one."""
        return self._find(kind, self.timers, self.timer_families, "timer kind", lambda d: d.timer_prefix)

    def _find(
        self,
        name: str,
        exact: Mapping[str, tuple[_Spec, Section]],
        families: Mapping[str, tuple[_Spec, Section]],
        what: str,
        claimed: Callable[[DeferredSection], str],
    ) -> tuple[_Spec, Section]:
        found = exact.get(name)
        if found is None and (prefix := _prefixed(name, families)) is not None:
            found = families[prefix]
        if found is None and self.load_deferred(lambda d: name.startswith(claimed(d))):
            return self._find(name, exact, families, what, claimed)
        if found is None:
            known = sorted([*exact, *(f"{p}*" for p in families)])
            raise UnknownNameError(
                f"{self.system} has no rule for {what} {name!r}", expected="one of " + ", ".join(known)
            )
        return found
