"""Names typed at the table: character ids in any case, and errors that say where they were looked for.

At 11 pm "Ingrid", "ingrid" and "INGRID" are one character; an id that matches nothing gets the
closest ones offered, and an unknown command names the campaign and system it was tried in
(and the system that does have it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rulekeeper.errors import UnknownNameError

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign

__all__ = ["campaign_label", "match_name", "resolve_actor", "unknown_command"]


def campaign_label(name: str, system: str) -> str:
    """``<system title> campaign 'friday'``."""
    from rulekeeper.core.citation import SYSTEM_TITLES

    title = SYSTEM_TITLES.get(system, (system,))[0]
    return f"{title} campaign {name!r}"


def match_name(typed: str, known: Iterable[str]) -> str | None:
    """``typed`` itself if known, else the one known name equal to it ignoring case."""
    names = list(known)
    if typed in names:
        return typed
    folded = [n for n in names if n.casefold() == typed.casefold()]
    return folded[0] if len(folded) == 1 else None


def _suggest(typed: str, known: Iterable[str]) -> str:
    import difflib

    names = list(known)
    by_fold = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(typed.casefold(), list(by_fold), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(repr(by_fold[c]) for c in close)}?" if close else ""


def resolve_actor(campaign: Campaign, typed: str) -> str:
    """The character id ``typed`` stands for in ``campaign``; unknown ids say what is close."""
    known = list(campaign.state.characters)
    found = match_name(typed, known)
    if found is not None:
        return found
    raise UnknownNameError(
        f"unknown character {typed!r} in {campaign_label(campaign.name, campaign.system)}{_suggest(typed, known)}",
        expected="one of: " + (", ".join(sorted(known)) or "none yet (rulekeeper char add NAME)"),
    )


def unknown_command(word: str, system: str, campaign: str, commands: Iterable[str]) -> UnknownNameError:
    """An unknown command, named against the campaign in play and the systems that have it."""
    from rulekeeper.core import get_ruleset, system_names
    from rulekeeper.core.citation import SYSTEM_TITLES

    elsewhere = [
        SYSTEM_TITLES.get(name, (name,))[0]
        for name in system_names()
        if name != system and word in get_ruleset(name).actions()
    ]
    hint = f" ({word} is a {' and '.join(elsewhere)} action)" if elsewhere else _suggest(word, commands)
    return UnknownNameError(
        f"no action {word!r} in {campaign_label(campaign, system)}{hint}",
        expected="a command or action of this system ('rulekeeper --help' lists them)",
    )
