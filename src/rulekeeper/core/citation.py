"""Rule citations: every consequence the engine applies says which rule produced it.

Rule code cites the specification file it implements (``seed="004"``); what a GM reads names
the public source instead ("GURPS Lite 4e, Jumping"). The mapping lives here, once, so no
citation anywhere has to spell out its book.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["SOURCES", "SYSTEM_TITLES", "Rule"]

#: Seed file -> (full title, short title) of the public text it holds (see shared/README.md).
SOURCES: dict[str, tuple[str, str]] = {
    "000": ("Gods & Monsters", "G&M"),
    "001": ("VI·VIII·X", "VI·VIII·X"),
    "002": ("Gods & Monsters", "G&M"),
    "003": ("Wrath & Glory", "W&G"),
    "004": ("GURPS Lite 4e", "GURPS Lite"),
}

#: System name -> (full title, short title), for citations of our own rules brief or bookkeeping.
SYSTEM_TITLES: dict[str, tuple[str, str]] = {
    "gurps": ("GURPS Lite 4e", "GURPS Lite"),
    "gods-and-monsters": ("Gods & Monsters", "G&M"),
    "wrath-and-glory": ("Wrath & Glory", "W&G"),
    "vi-viii-x": ("VI·VIII·X", "VI·VIII·X"),
    "campaign": ("rulekeeper campaign", "campaign"),
    "core": ("rulekeeper", "rulekeeper"),
}

# "Using verve (rules brief (shared/rules/gods-and-monsters.md))" -> "Using verve", brief.
_BRIEF = re.compile(r"\s*\((?:our )?rules brief[^)]*\)*\s*$")


@dataclass(frozen=True, slots=True)
class Rule:
    """A reference to the rule behind a consequence.

    ``seed`` is the specification file (e.g. ``"004"``), ``section`` the heading in it, and
    ``page`` a book page where the seed gives one (``"B327"``, ``"Lite p. 17"``).
    ``reading`` marks consequences that follow a reading we chose for an ambiguity.
    """

    system: str
    section: str
    seed: str | None = None
    page: str | None = None
    reading: str | None = None

    def _titles(self) -> tuple[str, str]:
        if self.seed in SOURCES:
            return SOURCES[self.seed]
        return SYSTEM_TITLES.get(self.system, (self.system, self.system))

    def _section(self) -> tuple[str, bool]:
        """The heading without the rules-brief note, and whether there was one."""
        stripped = _BRIEF.sub("", self.section)
        return stripped, stripped != self.section

    @property
    def source(self) -> str:
        """The public text the rule comes from, e.g. ``"GURPS Lite 4e"``."""
        return self._titles()[0]

    @property
    def tag(self) -> str:
        """A short tag for one-line output: ``[GURPS Lite: Jumping]``."""
        # "Non-combat cases: Climb" tags as "Climb": the topic is what a reader looks for.
        return f"[{self._titles()[1]}: {self._section()[0].rsplit(': ', 1)[-1]}]"

    def __str__(self) -> str:
        # Every step of every answer writes its rule out, and a game cites a few dozen rules.
        return _cited(self)


@functools.lru_cache(maxsize=4096)
def _cited(rule: Rule) -> str:
    """What ``str(rule)`` reads."""
    section, brief = rule._section()
    parts = [rule.source, section]
    if rule.page:
        parts.append(rule.page)
    text = ", ".join(parts)
    if brief:
        text += " (our rules brief)"
    if rule.reading:
        text += f" (reading: {rule.reading})"
    return text
