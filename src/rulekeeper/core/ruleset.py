"""The one protocol every game system implements, and the registry that finds systems by name.

Systems are subclasses of :class:`Ruleset`, found by name or alias. A system is the sum of its
rule sections (:mod:`rulekeeper.core.section`): the base class merges them once and dispatches
every check result, timer, stake and condition hook by lookup -- no system overrides that. Their
modules are imported only when asked for, so a front end that never touches a system never pays
for loading it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, final

from rulekeeper.core.explain import LATE_TIMERS
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import (
    ROLL_MODE_KEY,
    ROLL_MODES,
    ROLL_MODES_OPTION,
    DeferredSection,
    RollMode,
    Section,
    SectionTables,
)
from rulekeeper.core.state import ROLL_RULES, GameState, Settings
from rulekeeper.errors import UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.core.action import ActionSpec, CalculatorSpec, ParamSpec
    from rulekeeper.core.check import CheckResult, Modifier
    from rulekeeper.core.combat import Combat
    from rulekeeper.core.explain import Step
    from rulekeeper.core.odds import Odds
    from rulekeeper.core.play import Play
    from rulekeeper.core.presentation import Standing, Vitals
    from rulekeeper.core.sheet_format import SheetFormat
    from rulekeeper.core.stakes import Stakes
    from rulekeeper.core.state import AnyCheck, Condition, PendingCheck, Timer
    from rulekeeper.core.turn import Choice, Tap, TurnAction, TurnOffer

__all__ = ["SYSTEMS", "Ruleset", "canonical_system_name", "get_ruleset", "system_names"]

C = TypeVar("C")


class Ruleset(Generic[C]):
    """Base class of the four systems.

    Class attributes describe the system; ``sections`` lists its rule sections, whose actions,
    calculators, check kinds, check purposes, timers and hooks this class merges when it is built
    (two sections claiming one name is an error then); ``rule_options`` lists options a table
    may change, with their defaults.
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str]
    round_seconds: ClassVar[int] = 6
    character_type: ClassVar[type[Any]]
    sections: ClassVar[tuple[Section | DeferredSection, ...]] = ()
    rule_options: ClassVar[tuple[ParamSpec, ...]] = ()
    rest_kinds: ClassVar[tuple[str, ...]] = ()
    #: Conditions that follow from a character's numbers alone (reeling, Wounded ...). The engine
    #: recomputes them after every change, so a stored copy can never drift from the sheet.
    derived_condition_names: ClassVar[frozenset[str]] = frozenset()
    #: Whether dice typed for a pending check beyond the check's own go on to its consequences'
    #: rolls (a GURPS attack's damage typed with the defence's dice). A system whose follow-up
    #: rolls a player should choose to make (W&G's Memorable Injury) says no: a surplus is refused.
    typed_dice_feed_consequences: ClassVar[bool] = True

    def __init__(self) -> None:
        self.tables = SectionTables(self.name, self.sections)
        self._actions = _SectionActions(self.tables)
        self._check_kinds = {k: spec.help for k, spec in self.tables.check_kinds.items()}
        self._secret_kinds = frozenset(k for k, spec in self.tables.check_kinds.items() if spec.secret)

    @property
    def check_kinds(self) -> Mapping[str, str]:
        """Every kind of check the system asks for (the keys of automation settings), with its help."""
        return self._check_kinds

    @property
    def secret_check_kinds(self) -> frozenset[str]:
        """Check kinds the GM rolls in secret (GURPS Danger Sense): no player sees them pending,
        nor the explanation lines that report them."""
        return self._secret_kinds

    # -- what the system offers -------------------------------------------------------------
    def actions(self) -> Mapping[str, ActionSpec]:
        """Every section's actions (a deferred section's are loaded when one is first asked for)."""
        return self._actions

    def calculators(self) -> Mapping[str, CalculatorSpec]:
        self.tables.load_deferred()
        return dict(self.tables.calculators)

    # -- characters ------------------------------------------------------------------------
    def new_character(self, sheet: Mapping[str, Any]) -> C:
        """Build a character from a sheet (a mapping of the system's own field names).

        Raises ``InputError`` naming each bad field and the expected form.
        """
        raise NotImplementedError

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        """The sheet a new character is built from: one without a name is named by its id, so
        explanations never read " falls". Systems whose sheets mark NPCs read ``npc`` here;
        a system whose sheets have no name overrides this."""
        return sheet if sheet.get("name") else {**sheet, "name": actor}

    def sheet_formats(self) -> Mapping[str, SheetFormat]:
        """The sheet file formats this system reads (and maybe writes back), by option name
        (:mod:`rulekeeper.core.sheet_format`); none by default."""
        return {}

    def view(self, state: GameState[C], actor: str) -> dict[str, Any]:
        """Everything about a character, derived values and conditions included (the GM's view)."""
        raise NotImplementedError

    def player_view(self, state: GameState[C], actor: str) -> dict[str, Any]:
        """What the character's player may see. Systems with secrets override this."""
        return self.view(state, actor)

    def table_view(self, state: GameState[C], actor: str) -> dict[str, Any]:
        """What everyone at the table sees of a character: its name and visible conditions
        ("unconscious", "Dying"). Systems whose conditions can betray a secret override this."""
        name = getattr(state.characters[actor], "name", None) or actor
        return {"actor": actor, "name": str(name), "conditions": sorted({c.name for c in state.conditions_of(actor)})}

    def secret_words(self, state: GameState[C]) -> frozenset[str]:
        """Words that are themselves the GM's secret (VI·VIII·X: the unknown stats' names): a
        message to a player that holds one is withheld whole, since its wording can't be trusted
        to hide the rest. None by default."""
        return frozenset()

    def declared_roll_mode(self, kind: str) -> RollMode:
        """Who sees a check of ``kind`` by the rules' own word: ``blind`` (the GM only) for a
        secret kind (``CheckKind.secret``: GURPS Danger Sense), else ``private`` (its player and
        the GM)."""
        return "blind" if kind in self.secret_check_kinds else "private"

    def roll_mode(self, settings: Settings | None, kind: str) -> RollMode:
        """Who sees a check of ``kind`` at this table: the GM's choice in the ``roll_modes``
        option (a kind, a dotted prefix of one, or ``*``; the longest match wins), else the
        rules' own (:meth:`declared_roll_mode`)."""
        modes = None if settings is None else settings.options.get(ROLL_MODES_OPTION)
        if isinstance(modes, Mapping) and modes:
            keys = [k for k in modes if k == "*" or k == kind or kind.startswith(f"{k}.")]
            if keys:
                best = max(keys, key=lambda k: -1 if k == "*" else len(k))
                for mode in ROLL_MODES:
                    if modes[best] == mode:
                        return mode
        return self.declared_roll_mode(kind)

    def is_secret(self, pending: PendingCheck, settings: Settings) -> bool:
        """A check the GM rolls in secret (its roll mode at this table is ``blind``): no player sees
        it waiting, nor may resolve it. ``settings`` is required: a caller that left it out judged
        by the rules' default and disagreed with a table that changed the mode."""
        return self.roll_mode(settings, pending.check.kind) == "blind"

    def player_pending(self, state: GameState[C], pending: PendingCheck) -> dict[str, Any]:
        """A pending check as its player may see it: what to roll and, by default, the exact odds.

        Systems with secrets override this so a check shows no secret stat or odds computed from one.
        """
        from rulekeeper.core.stakes import pending_entry

        return pending_entry(pending)

    def player_text(self, step: Step) -> str | None:
        """The wording of one explanation step a player may read, or ``None`` if it stays with the GM.

        A step marked ``gm_only`` or one reporting a GM-secret check (``secret_check_kinds``)
        never reaches a player, whatever the system; the rest is worded by :meth:`player_wording`.
        Every player-facing surface (CLI ``--as-player``, the API, live events, pages) asks here,
        so the secret cannot leak through one of them alone.
        """
        if self.is_secret_step(step):
            return None
        return self.player_wording(step)

    def is_secret_step(self, step: Step) -> bool:
        """A step that is the GM's secret in any system: marked ``gm_only``, or reporting a
        GM-secret check -- by the roll mode the check was rolled in (``roll_mode``, written on
        the step when the table chose other than the rules), else by the rules' own word."""
        if step.data.get("gm_only"):
            return True
        if step.rule.system == "core" and LATE_TIMERS in step.text:
            # Names any character's timers, and says time waits even behind a GM-secret check:
            # judged when read, so histories written before read the same (core.engine).
            return True
        mode = step.data.get(ROLL_MODE_KEY)
        if mode is not None:
            return bool(mode == "blind")
        return step.data.get("check") in self.secret_check_kinds

    def player_wording(self, step: Step) -> str | None:
        """How a player reads a step that is not secret (by default as the GM does). Systems whose
        steps can carry a secret stat override this (VI·VIII·X words each step for players apart)."""
        return step.text

    def player_lines(self, steps: Sequence[Step]) -> list[str]:
        """The explanation lines a player may read, in order (see :meth:`player_text`)."""
        return [text for step in steps if (text := self.player_text(step)) is not None]

    def new_state(self, settings: Settings | None = None) -> GameState[C]:
        """A new game, playing by the current rules for rolls (see ``Settings.roll_rules``)."""
        return GameState(system=self.name, settings=evolve(settings or Settings(), roll_rules=ROLL_RULES))

    # -- conditions derived from the sheet ----------------------------------------------------
    def derived_conditions(self, character: C) -> frozenset[str]:
        """Which of :attr:`derived_condition_names` hold for ``character``."""
        return frozenset()

    def sync_derived(self, play: Play[C], actor: str) -> None:
        """Add and lift derived conditions so ``actor``'s stored ones equal :meth:`derived_conditions`.

        Systems override this to explain each change with its rule; the engine calls it for every
        character after every action, resolution, advance, new character and sheet edit.
        """

    # -- dispatch by the sections' declarations (never overridden) ------------------------------
    @final
    def on_check(self, play: Play[C], pending: PendingCheck, result: CheckResult) -> None:
        """Apply the consequence of a check the ruleset asked for: the section that declared
        ``pending.purpose`` handles it; an undeclared purpose raises ``UnknownNameError``."""
        spec, section = self.tables.check(pending.purpose)
        if not section.skips(play, pending.actor):
            spec.on_result(play, pending, result)

    @final
    def on_timer(self, play: Play[C], timer: Timer) -> None:
        """A scheduled follow-up fell due: the section that declared its kind acts on it."""
        spec, section = self.tables.timer(timer.kind)
        if not section.skips(play, timer.actor):
            spec.on_fire(play, timer)

    @final
    def stakes_for(self, purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
        """What a check left for the table is for, in the system's own words (None: say nothing)."""
        spec, _ = self.tables.check(purpose)
        return None if spec.stakes is None else spec.stakes(purpose, check, actor, data)

    @final
    def on_condition_start(self, play: Play[C], condition: Condition) -> None:
        """The rules have just put ``condition`` on a character: the section hooked on its name reacts."""
        hook = self.tables.condition_start.get(condition.name)
        if hook is not None:
            hook(play, condition)

    @final
    def on_condition_end(self, play: Play[C], condition: Condition) -> None:
        """A condition with a duration has just run out: the section hooked on its name reacts."""
        hook = self.tables.condition_end.get(condition.name)
        if hook is not None:
            hook(play, condition)

    @final
    def roll_modifiers(self, state: GameState[C], actor: str, score: str) -> tuple[Modifier, ...]:
        """Modifiers every section's state puts on ``actor``'s roll of ``score``, in section order."""
        return tuple(m for hook in self.tables.roll_modifiers for m in hook(state, actor, score))

    # -- what the front ends ask (core/presentation.py, core/odds.py, core/combat.py) ---------
    #: The options of ``rulekeeper check SYSTEM`` and ``GET /api/check/{system}`` beyond
    #: ``target`` and ``modifier``: the system's own way of asking for exact odds.
    odds_params: ClassVar[tuple[ParamSpec, ...]] = ()

    def odds(self, values: Mapping[str, Any]) -> Odds:
        """The exact odds of one of the system's checks, from ``target``, ``modifier`` and the
        :attr:`odds_params` (already validated). A system without one says so."""
        from rulekeeper.errors import UnknownNameError

        raise UnknownNameError(f"{self.title} has no check odds calculator", expected="rulekeeper roll DICE")

    def vitals(self, view: Mapping[str, Any], *, npc: bool = False) -> Vitals:
        """What a card and a status line show of a character, read from a (projected) view only,
        so a player's card never shows more than that player's view holds. ``npc``: a campaign
        NPC, which may show other resources than a player's character."""
        from rulekeeper.core.presentation import Vitals

        return Vitals()

    #: Conditions that only mark bookkeeping (a fight's order), left out of condition lists.
    bookkeeping_conditions: ClassVar[frozenset[str]] = frozenset()

    def turn_order(self, state: GameState[C], views: Mapping[str, Mapping[str, Any]]) -> tuple[list[str], str | None]:
        """The order characters act in a fight, and who acts next (``None``: not known); by
        default no fight order at all."""
        return [], None

    def standing(self, state: GameState[C], actor: str) -> Standing:
        """How ``actor`` stands (dead, dying, unconscious, wounded or unhurt), read from the state.

        By default from conditions of those names; systems read their own sheets."""
        from rulekeeper.core.presentation import Standing

        for level in ("dead", "dying", "unconscious"):
            if state.has_condition(actor, level):
                return Standing(level, True, 0)
        return Standing("unhurt", False, 0)

    #: The actions a character takes on their own turn, for the player's phone (core/turn.py).
    turn_actions: ClassVar[tuple[TurnAction, ...]] = ()

    @final
    def turn(self, state: GameState[C], actor: str, view: Mapping[str, Any]) -> TurnOffer:
        """What ``actor``'s turn offers (core/turn.py): the declared :attr:`turn_actions`, the
        sheet's pick-lists and the one-tap rolls and defences. ``view`` is the projection of
        the character its asker may see; the state serves rules that judge what is legal now."""
        from rulekeeper.core.turn import TurnOffer

        known = self.actions()
        actions = tuple(a for a in self.turn_actions if a.action in known)
        taps = tuple(t for t in self.turn_taps(state, actor, view) if t.action in known)
        waiting = self.turn_waiting(state, actor)
        return TurnOffer(actor, actions, self.turn_picks(state, actor, view), taps, waiting)

    def turn_picks(self, state: GameState[C], actor: str, view: Mapping[str, Any]) -> Mapping[str, tuple[Choice, ...]]:
        """Parameters whose values come from ``actor``'s sheet, with those values; none by default."""
        return {}

    def turn_taps(self, state: GameState[C], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        """Actions ready to send with one tap (rolls from the sheet, defences); none by default."""
        return ()

    def turn_waiting(self, state: GameState[C], actor: str) -> tuple[str, ...]:
        """What waits for ``actor``'s answer now (an attack to defend), in words; none by default."""
        return ()

    def combat(self) -> Combat:
        """How a simulated fighter takes a turn in this system (``rulekeeper simulate``)."""
        from rulekeeper.core.combat import Combat

        return Combat()


class _SectionActions(Mapping[str, "ActionSpec"]):
    """The sections' actions; a deferred section's are loaded only once one of them is asked for
    or all are listed (GURPS's feats are a good part of what loading GURPS costs)."""

    def __init__(self, tables: SectionTables) -> None:
        self._tables = tables

    def __getitem__(self, name: str) -> ActionSpec:
        found = self._tables.actions.get(name)
        if found is None and self._tables.load_deferred():
            found = self._tables.actions.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        self._tables.load_deferred()
        return iter(self._tables.actions)

    def __len__(self) -> int:
        self._tables.load_deferred()
        return len(self._tables.actions)


# Names, aliases and where each system lives. Imported lazily by get_ruleset().
SYSTEMS: dict[str, str] = {
    "gurps": "rulekeeper.systems.gurps:GurpsRuleset",
    "gods-and-monsters": "rulekeeper.systems.gods_monsters:GodsMonstersRuleset",
    "wrath-and-glory": "rulekeeper.systems.wrath_glory:WrathGloryRuleset",
    "vi-viii-x": "rulekeeper.systems.vi_viii_x:ViViiiXRuleset",
}
_ALIASES: dict[str, str] = {
    "gurps": "gurps",
    "gurps4e": "gurps",
    "gods-and-monsters": "gods-and-monsters",
    "gods_monsters": "gods-and-monsters",
    "gm": "gods-and-monsters",
    "wrath-and-glory": "wrath-and-glory",
    "wrath_glory": "wrath-and-glory",
    "wg": "wrath-and-glory",
    "vi-viii-x": "vi-viii-x",
    "vi_viii_x": "vi-viii-x",
    "6810": "vi-viii-x",
    "kup": "vi-viii-x",
}
_LOADED: dict[str, Ruleset[Any]] = {}


def register_system(name: str, location: str, aliases: tuple[str, ...] = ()) -> None:
    """Make a ruleset findable by name: ``location`` is ``"module:ClassName"``, imported on first use.

    The four built-in systems are registered above; this is for house systems and tests.
    """
    SYSTEMS[name] = location
    for alias in (name, *aliases):
        _ALIASES[alias.lower()] = name
    _LOADED.pop(name, None)


def unregister_system(name: str) -> None:
    SYSTEMS.pop(name, None)
    _LOADED.pop(name, None)
    for alias in [a for a, target in _ALIASES.items() if target == name]:
        del _ALIASES[alias]


def system_names() -> tuple[str, ...]:
    """Every system's name, plug-ins (core/plugins.py) included."""
    from rulekeeper.core.plugins import discover

    discover()
    return tuple(SYSTEMS)


def canonical_system_name(name: str) -> str:
    key = name.strip().lower()
    if key not in _ALIASES:
        from rulekeeper.core.plugins import discover, learn_aliases

        discover()  # a plug-in's name: looked for only when the name is no built-in one
        if key not in _ALIASES:
            learn_aliases()
    if key not in _ALIASES:
        raise UnknownNameError(
            f"unknown game system {name!r}",
            expected="one of " + ", ".join(f"{n} ({', '.join(a)})" if a else n for n, a in _alias_list()),
        )
    return _ALIASES[key]


def _alias_list() -> list[tuple[str, list[str]]]:
    return [(n, [a for a, target in _ALIASES.items() if target == n and a != n and "_" not in a]) for n in SYSTEMS]


def get_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset for a system name or alias (``gm``, ``wg``, ``6810``)."""
    canonical = canonical_system_name(name)
    if canonical not in _LOADED:
        module_name, _, class_name = SYSTEMS[canonical].partition(":")
        cls = getattr(importlib.import_module(module_name), class_name)
        _LOADED[canonical] = cls()
        for alias in cls.aliases:  # a plug-in's aliases are known once its class is
            _ALIASES.setdefault(alias.lower(), canonical)
    return _LOADED[canonical]
