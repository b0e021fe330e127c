"""What a campaign's history folds into: the game state plus the campaign's own bookkeeping.

A :class:`Table` is the game state (clock, characters, conditions, timers, pending checks,
settings) and, beside it, each character's sheet (edits rebuild from it), who plays each PC,
which characters are NPCs, and the highest state id ever handed out (so ids are never reused,
even after an undo). Snapshots are this, as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rulekeeper.campaign.jsonable import canonical, dumps
from rulekeeper.campaign.seat import OTHERS_OPTION
from rulekeeper.core.action import ParamSpec
from rulekeeper.core.engine import NO_DICE, sync_derived
from rulekeeper.core.frozen import evolve
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.section import ROLL_MODES, ROLL_MODES_OPTION
from rulekeeper.core.serial import state_from_json, state_to_json
from rulekeeper.core.state import AutomationLevel, GameState, Settings
from rulekeeper.core.who_rolls import NPC_AUTOMATION, NPC_AUTOMATION_OPTION, PLAYERS_OPTION, npc_levels_text
from rulekeeper.errors import InputError

__all__ = [
    "ROUND_SECONDS",
    "Table",
    "decode_table",
    "encode_table",
    "initial_table",
    "merge_settings",
    "roll_modes",
    "settings_json",
]

#: An option every system reads through the engine (``next_round``), beside the system's own.
ROUND_SECONDS = ParamSpec("round_seconds", kind="int", help="seconds in a round", minimum=1)
_LEVELS = ", ".join(level.value for level in AutomationLevel)


@dataclass(frozen=True)
class Table:
    game: GameState[Any]
    sheets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    players: Mapping[str, str] = field(default_factory=dict)
    npcs: frozenset[str] = frozenset()
    id_mark: int = 1
    #: Players' actions on characters they do not play, waiting for the GM or answered
    #: (``campaign.requests``), as JSON mappings so a snapshot keeps them as they are.
    requests: tuple[Mapping[str, Any], ...] = ()

    def with_game(self, game: GameState[Any]) -> Table:
        return evolve(self, game=game)


def settings_json(settings: Settings) -> dict[str, Any]:
    return {
        "automation": {k: v.value for k, v in settings.automation.items()},
        # Who plays whom is known to the engine for one command only, never stored (core.who_rolls).
        "options": {k: v for k, v in settings.options.items() if k != PLAYERS_OPTION},
    }


def _automation_key(ruleset: Ruleset[Any], key: str) -> str:
    key = key.strip().lower()
    kinds = ruleset.check_kinds
    if key == "*" or not kinds:
        return key
    if any(kind == key or kind.startswith(key + ".") for kind in kinds):
        return key
    raise InputError(
        f"no {ruleset.name} check kind {key!r}",
        expected="'*' or one of " + ", ".join(sorted(kinds)) + " (or a dotted prefix of one)",
        where="automation",
    )


def _level(key: str, value: Any) -> AutomationLevel:
    if isinstance(value, AutomationLevel):
        return value
    try:
        return AutomationLevel(str(value).strip().lower())
    except ValueError:
        raise InputError(f"{key}={value!r} is not an automation level", expected=_LEVELS, where="automation") from None


def merge_settings(
    ruleset: Ruleset[Any],
    settings: Settings,
    automation: Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
) -> Settings:
    """``settings`` with the given changes; a value of ``None`` removes a key (back to the default)."""
    levels = dict(settings.automation)
    for raw_key, value in (automation or {}).items():
        key = _automation_key(ruleset, str(raw_key))
        if value is None:
            levels.pop(key, None)
        else:
            levels[key] = _level(key, value)
    specs = {p.name: p for p in (ROUND_SECONDS, OTHERS_OPTION, NPC_AUTOMATION, *ruleset.rule_options)}
    opts = dict(settings.options)
    for name, value in (options or {}).items():
        if str(name).replace("-", "_") == NPC_AUTOMATION_OPTION:
            text = npc_levels_text(value, lambda key: _automation_key(ruleset, key))
            if text is None:
                opts.pop(NPC_AUTOMATION_OPTION, None)
            else:
                opts[NPC_AUTOMATION_OPTION] = text
            continue
        if str(name).replace("-", "_") == ROLL_MODES_OPTION:
            modes = roll_modes(ruleset, opts.get(ROLL_MODES_OPTION), value)
            if modes:
                opts[ROLL_MODES_OPTION] = modes
            else:
                opts.pop(ROLL_MODES_OPTION, None)
            continue
        spec = specs.get(str(name).replace("-", "_"))
        if spec is None:
            raise InputError(
                f"no {ruleset.name} rule option {name!r}",
                expected="one of " + ", ".join(sorted([*specs, ROLL_MODES_OPTION])),
                where="options",
            )
        if value is None:
            opts.pop(spec.name, None)
        else:
            # Stored as it reads back from JSON, so a live table and a reloaded one hold equal values.
            opts[spec.name] = canonical(spec.coerce(value, "options"), f"option {spec.name}")
    return Settings(automation=levels, options=opts, roll_rules=settings.roll_rules)


def roll_modes(ruleset: Ruleset[Any], current: Any, changes: Any) -> dict[str, str]:
    """The GM's roll modes (``{KIND or prefix or "*": public|private|blind}``) after ``changes``;
    a mode of ``None`` goes back to the rules' own, and ``None`` for the whole clears them all."""
    modes = {str(k): str(v) for k, v in current.items()} if isinstance(current, Mapping) else {}
    if changes is None:
        return {}
    if not isinstance(changes, Mapping):
        raise InputError(
            f"roll_modes must map check kinds to modes, not {changes!r}",
            expected='{"KIND": "public|private|blind"}, KIND a check kind, a dotted prefix of one or *',
            where="roll_modes",
        )
    for raw_key, value in changes.items():
        key = _automation_key(ruleset, str(raw_key))
        if value is None:
            modes.pop(key, None)
            continue
        mode = str(value).strip().lower()
        if mode not in ROLL_MODES:
            raise InputError(
                f"{key}={value!r} is not a roll mode", expected=", ".join(ROLL_MODES), where="roll_modes"
            )
        modes[key] = mode
    return modes


def initial_table(ruleset: Ruleset[Any], settings: Mapping[str, Any]) -> Table:
    merged = merge_settings(ruleset, Settings(), settings.get("automation"), settings.get("options"))
    game = ruleset.new_state(merged)
    # A campaign stored before every roll became a check keeps the rules its history was played by.
    rules = settings.get("roll_rules", 1)
    return Table(game=game.with_settings(replace(game.settings, roll_rules=int(rules))))


def encode_table(ruleset: Ruleset[Any], table: Table) -> str:
    return dumps(
        {
            "game": state_to_json(ruleset, table.game),
            "sheets": table.sheets,
            "players": table.players,
            "npcs": sorted(table.npcs),
            "id_mark": table.id_mark,
            **({"requests": list(table.requests)} if table.requests else {}),
        }
    )


def decode_table(ruleset: Ruleset[Any], text: str) -> Table:
    data = json.loads(text)
    # A table stored before derived conditions were kept in step is brought in step as it loads.
    game = sync_derived(ruleset, state_from_json(ruleset, data["game"]), NO_DICE).state
    return Table(
        game=game,
        sheets=data["sheets"],
        players=data["players"],
        npcs=frozenset(data["npcs"]),
        id_mark=int(data["id_mark"]),
        requests=tuple(data.get("requests", ())),
    )
