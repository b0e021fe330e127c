"""An encounter: who fights on which side, how each fights, and when the fight stops.

The file is the scenario format (``format: 1``, ``system``, ``settings``, ``characters``) with
three more keys, ``sides``, ``tactics`` and ``stop`` (docs/scenarios.md, "Encounters"). Loading
validates everything and builds each fighter's character once, through the ruleset, so a fight
only copies ready-made state.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulekeeper.core import get_ruleset, system_names
from rulekeeper.core.state import AutomationLevel, GameState, Settings
from rulekeeper.errors import InputError, RulesError, UnknownNameError
from rulekeeper.sim.tactics import Tactic, parse_tactic

__all__ = ["Encounter", "Fighter", "build_encounter", "load_document", "read_encounter"]

MEMBER_KEYS = ("count", "character")
MAX_FIGHTERS = 64
MAX_ROUNDS = 1000


@dataclass(frozen=True)
class Fighter:
    id: str
    side: str
    tactic: Tactic
    character: Any  # the system's frozen character type


@dataclass(frozen=True)
class Encounter:
    """A validated encounter, ready to fight any number of times."""

    system: str
    title: str
    fighters: tuple[Fighter, ...]
    sides: tuple[str, ...]
    max_rounds: int = 100
    until: str = "side-out"  # or "rounds": fight all max_rounds even if a side is out
    settings: Settings = field(default_factory=Settings)
    document: Mapping[str, Any] = field(default_factory=dict)

    def start_state(self) -> GameState[Any]:
        ruleset = get_ruleset(self.system)
        state = ruleset.new_state(self.settings)
        return replace(state, characters={f.id: f.character for f in self.fighters})


def read_encounter(path: str | Path) -> dict[str, Any]:
    """The raw document of an encounter file (YAML or JSON), as plain data."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror}", expected="an encounter file (YAML or JSON)") from None
    import yaml

    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{p}:{mark.line + 1}" if mark is not None else str(p)
        raise InputError(
            f"not valid YAML or JSON ({getattr(exc, 'problem', exc)})", expected="a mapping", where=where
        ) from None
    if not isinstance(doc, dict):
        raise InputError("an encounter file must be a mapping", expected="format: 1, system, sides", where=str(p))
    return doc


def load_document(path: str | Path, characters: Mapping[str, Any] | None = None) -> Encounter:
    return build_encounter(read_encounter(path), characters=characters)


def _deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(copy.deepcopy(dict(base)))
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _settings(raw: Any) -> Settings:
    if raw is None:
        return Settings()
    if not isinstance(raw, Mapping):
        raise InputError("settings must be a mapping", expected="automation and options", where="settings")
    options = raw.get("options") or {}
    if not isinstance(options, Mapping):
        raise InputError("settings.options must be a mapping", expected="option name -> value", where="settings")
    # Every check is rolled by the engine in a simulation: nobody is at the table to type dice.
    return Settings(automation={"*": AutomationLevel.AUTO}, options=dict(options))


def build_encounter(doc: Mapping[str, Any], *, characters: Mapping[str, Any] | None = None) -> Encounter:
    """Validate a raw encounter and build its fighters.

    ``characters`` are ready-made character objects (a campaign's current characters); a member
    that names one and gives no sheet fields fights as that character is now.
    """
    if doc.get("format") != 1:
        raise InputError(f"unsupported format {doc.get('format')!r}", expected="format: 1", where="format")
    system = doc.get("system")
    if not isinstance(system, str):
        raise InputError("missing system", expected="one of " + ", ".join(system_names()), where="system")
    try:
        ruleset = get_ruleset(system)
    except UnknownNameError as exc:
        raise InputError(str(exc), where="system") from None
    sheets = doc.get("characters") or {}
    if not isinstance(sheets, Mapping):
        raise InputError("characters must be a mapping", expected="character id -> sheet", where="characters")
    sides_raw = doc.get("sides")
    if not isinstance(sides_raw, Mapping) or len(sides_raw) < 2:
        raise InputError(
            "an encounter needs at least two sides", expected="sides: {heroes: {...}, foes: {...}}", where="sides"
        )
    tactics_raw = doc.get("tactics") or {}
    if not isinstance(tactics_raw, Mapping):
        raise InputError("tactics must be a mapping", expected="side or character id -> tactic", where="tactics")
    side_names = tuple(str(s) for s in sides_raw)
    fighters: list[Fighter] = []
    members: set[str] = set()
    for side in side_names:
        group = sides_raw[side]
        if not isinstance(group, Mapping) or not group:
            raise InputError(
                f"side {side!r} has no members", expected="member id -> sheet fields (or {})", where=f"sides.{side}"
            )
        side_tactic = parse_tactic(tactics_raw.get(side) or {}, f"tactics.{side}")
        for member, raw in group.items():
            member = str(member)
            where = f"sides.{side}.{member}"
            raw = raw or {}
            if not isinstance(raw, Mapping):
                raise InputError("a member must be a mapping", expected="sheet fields, count, character", where=where)
            members.add(member)
            count = raw.get("count", 1)
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_FIGHTERS:
                raise InputError(
                    f"bad count {count!r}", expected=f"a whole number from 1 to {MAX_FIGHTERS}", where=f"{where}.count"
                )
            ref = str(raw.get("character", member))
            own = {k: v for k, v in raw.items() if k not in MEMBER_KEYS}
            tactic = parse_tactic(tactics_raw.get(member) or {}, f"tactics.{member}", side_tactic)
            ids = [member] if count == 1 else [f"{member}-{i}" for i in range(1, count + 1)]
            for fid in ids:
                character = _character(ruleset, fid, ref, own, sheets, characters, where)
                fighters.append(Fighter(id=fid, side=side, tactic=tactic, character=character))
    ids_seen = [f.id for f in fighters]
    dup = sorted({i for i in ids_seen if ids_seen.count(i) > 1})
    if dup:
        raise InputError(f"fighter id(s) used twice: {', '.join(dup)}", expected="one id per fighter", where="sides")
    if len(fighters) > MAX_FIGHTERS:
        raise InputError(f"{len(fighters)} fighters", expected=f"at most {MAX_FIGHTERS}", where="sides")
    for key in tactics_raw:
        if key not in side_names and key not in members:
            raise InputError(
                f"tactic for unknown side or member {key!r}",
                expected="one of " + ", ".join([*side_names, *sorted(members)]),
                where="tactics",
            )
    combat = ruleset.combat()
    for f in fighters:
        target = f.tactic.target
        if target not in ("first", "weakest", "strongest", "random") and not any(
            g.id == target and g.side != f.side for g in fighters
        ):
            raise InputError(
                f"{f.id} targets {target!r}, not a foe here",
                expected="a foe's id, first, weakest, strongest or random",
                where=f"tactics.{f.id}.target",
            )
        combat.check_tactic(f.id, f.tactic)
    max_rounds, until = _stop(doc.get("stop"))
    title = str(doc.get("title") or "encounter")
    return Encounter(
        system=ruleset.name,
        title=title,
        fighters=tuple(fighters),
        sides=side_names,
        max_rounds=max_rounds,
        until=until,
        settings=_settings(doc.get("settings")),
        document=dict(doc),
    )


def _character(
    ruleset: Any,
    fid: str,
    ref: str,
    own: Mapping[str, Any],
    sheets: Mapping[str, Any],
    ready: Mapping[str, Any] | None,
    where: str,
) -> Any:
    if ready is not None and ref in ready:
        if own:
            raise InputError(
                f"{ref} comes from the campaign; its sheet cannot be changed here",
                expected="no sheet fields for a campaign character",
                where=where,
            )
        return ready[ref]
    base = sheets.get(ref) or {}
    if not isinstance(base, Mapping):
        raise InputError("a character sheet must be a mapping", expected="sheet fields", where=f"characters.{ref}")
    sheet = _deep_merge(base, own)
    if not sheet and ref not in sheets:
        raise InputError(
            f"no sheet for {ref!r}", expected="sheet fields, a characters entry or --campaign", where=where
        )
    try:
        return ruleset.new_character(ruleset.sheet_for(fid, sheet, npc=False))
    except RulesError as exc:
        raise InputError(str(exc), where=where) from None
    except (TypeError, ValueError, KeyError) as exc:
        raise InputError(
            f"bad sheet ({exc})", expected="the system's sheet fields (docs/systems/)", where=where
        ) from None


def _stop(raw: Any) -> tuple[int, str]:
    if raw is None:
        return 100, "side-out"
    if not isinstance(raw, Mapping) or not set(raw) <= {"rounds", "until"}:
        raise InputError(f"bad stop {raw!r}", expected="{until: side-out or rounds, rounds: N}", where="stop")
    until = raw.get("until", "side-out")
    if until not in ("side-out", "rounds"):
        raise InputError(f"bad stop.until {until!r}", expected="side-out or rounds", where="stop.until")
    rounds = raw.get("rounds", 100)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InputError(
            f"bad stop.rounds {rounds!r}", expected=f"a whole number from 1 to {MAX_ROUNDS}", where="stop.rounds"
        )
    return rounds, str(until)
