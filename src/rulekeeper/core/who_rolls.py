"""Who rolls, by whose character (issue #27 item 2): automation per check kind *and* per PC/NPC.

A table that lets players roll for their characters usually wants the engine to roll for the GM's
NPCs ("PCs prompt, NPCs auto"). The table's ``automation`` levels apply to every character; the
option ``npc_automation`` (same keys: a check kind, a dotted prefix of one, or ``*``) overrides
them for a check an NPC rolls. A character is a PC when a member of the campaign plays it; the
campaign layer tells the engine which those are, for the length of each command only
(:func:`with_players`), since who plays whom is the campaign's bookkeeping, not the game's state.
The engine used on its own (scenarios, simulations) knows no players, and every character counts
as a PC there: the option then changes nothing.

The option is a text ("*=auto" or "gurps.ht=prompt, *=auto"), so the dashboard's settings form,
``campaign settings -o`` and the API all set it the same way; the API also takes a mapping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.state import AutomationLevel, Settings
from rulekeeper.errors import InputError

__all__ = [
    "NPC_AUTOMATION",
    "NPC_AUTOMATION_OPTION",
    "PLAYERS_OPTION",
    "is_npc",
    "level_for",
    "npc_level",
    "npc_levels",
    "npc_levels_text",
    "summary",
    "with_players",
    "without_players",
]

NPC_AUTOMATION_OPTION = "npc_automation"
#: Set by the campaign layer for one command (the characters a member plays); never stored.
PLAYERS_OPTION = "_players"

NPC_AUTOMATION = ParamSpec(
    NPC_AUTOMATION_OPTION,
    "str",
    "who rolls an NPC's checks, over the automation levels (which then apply to PCs): "
    "KIND=LEVEL pairs, e.g. '*=auto' for 'PCs as set, NPCs auto'; a PC is a character a member plays "
    "(empty, the default: NPCs are rolled as PCs)",
    default="",
)

_LEVELS = ", ".join(level.value for level in AutomationLevel)
_PAIR = re.compile(r"\s*([^=,\s]+)\s*=\s*([a-z]+)\s*")


def npc_levels_text(value: Any, check_key: Any = None) -> str | None:
    """The option as stored: canonical ``KIND=LEVEL`` text (``None`` or empty clears it). ``value`` is
    that text as a person types it, or a mapping (the API); ``check_key`` checks each key against
    the system's check kinds (``campaign.table``'s reader), naming the wrong one."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, Mapping):
        pairs = [(str(k), v) for k, v in value.items() if v is not None]
    elif isinstance(value, str):
        pairs = []
        for part in value.split(","):
            if not part.strip():
                continue
            found = _PAIR.fullmatch(part.lower())
            if found is None:
                raise InputError(
                    f"cannot read {part.strip()!r} in npc_automation",
                    expected=f"KIND=LEVEL pairs separated by commas, e.g. '*=auto'; LEVEL one of {_LEVELS}",
                    where=NPC_AUTOMATION_OPTION,
                )
            pairs.append((found.group(1), found.group(2)))
    else:
        raise InputError(
            f"npc_automation cannot be {value!r}",
            expected="text such as '*=auto' or a mapping of check kinds to levels",
            where=NPC_AUTOMATION_OPTION,
        )
    out: dict[str, str] = {}
    for key, level in pairs:
        name = check_key(key) if check_key is not None else key.strip().lower()
        try:
            out[name] = AutomationLevel(str(level).strip().lower()).value
        except ValueError:
            raise InputError(
                f"{key}={level!r} is not an automation level", expected=_LEVELS, where=NPC_AUTOMATION_OPTION
            ) from None
    if not out:
        return None
    # Most specific first, '*' last: the text reads as it is applied.
    return ", ".join(f"{k}={v}" for k, v in sorted(out.items(), key=lambda kv: (kv[0] == "*", kv[0])))


@lru_cache(maxsize=64)
def npc_levels(text: str) -> Mapping[str, AutomationLevel]:
    """The stored text read back into levels."""
    out: dict[str, AutomationLevel] = {}
    for part in text.split(","):
        key, _, level = part.partition("=")
        if key.strip():
            out[key.strip()] = AutomationLevel(level.strip())
    return out


def is_npc(settings: Settings, actor: str | None) -> bool:
    """Whether ``actor`` is an NPC as far as the engine knows: no member plays it. Without a
    campaign telling it who plays whom, no character is."""
    players = settings.options.get(PLAYERS_OPTION)
    return actor is not None and players is not None and actor not in players


def level_for(settings: Settings, kind: str, actor: str | None) -> AutomationLevel:
    """Who rolls a check of ``kind`` that ``actor`` rolls: the NPC levels for an NPC when one of
    their keys matches (the longest), else the table's automation levels."""
    text = settings.options.get(NPC_AUTOMATION_OPTION)
    if isinstance(text, str) and text and is_npc(settings, actor):
        level = npc_level(npc_levels(text), kind)
        if level is not None:
            return level
    return settings.level_for(kind)


def npc_level(levels: Mapping[str, AutomationLevel], kind: str) -> AutomationLevel | None:
    """The NPC level of the longest key matching ``kind`` (``*`` last), or None if none does."""
    probe = kind
    while probe:
        if probe in levels:
            return levels[probe]
        probe = probe.rpartition(".")[0]
    return levels.get("*")


def summary(settings: Settings) -> str | None:
    """Who rolls, in one plain line, when PCs and NPCs are rolled differently ("who rolls: PCs
    *=prompt; NPCs *=auto (a PC is a character a member plays)"); None when one rule serves all."""
    text = settings.options.get(NPC_AUTOMATION_OPTION)
    if not isinstance(text, str) or not text:
        return None
    pcs = ", ".join(f"{k}={v.value}" for k, v in settings.automation.items()) or "*=auto"
    return f"who rolls: PCs {pcs}; NPCs {text}, else as PCs (a PC is a character a member plays)"


def with_players(settings: Settings, players: Iterable[str]) -> Settings:
    """``settings`` knowing which characters members play, for one command (only when NPC levels
    are set: otherwise nothing depends on it, and the settings stay exactly as stored)."""
    if not settings.options.get(NPC_AUTOMATION_OPTION):
        return settings
    return Settings(
        automation=settings.automation,
        options={**settings.options, PLAYERS_OPTION: tuple(sorted(players))},
        roll_rules=settings.roll_rules,
    )


def without_players(settings: Settings) -> Settings:
    if PLAYERS_OPTION not in settings.options:
        return settings
    options = {k: v for k, v in settings.options.items() if k != PLAYERS_OPTION}
    return Settings(automation=settings.automation, options=options, roll_rules=settings.roll_rules)
