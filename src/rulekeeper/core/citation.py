"""Rule citations: every consequence the engine applies says which rule produced it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule"]


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

    def __str__(self) -> str:
        parts = [self.system]
        if self.seed:
            parts.append(f"seed {self.seed}")
        parts.append(f"§{self.section}")
        if self.page:
            parts.append(self.page)
        text = ", ".join(parts)
        if self.reading:
            text += f" (reading: {self.reading})"
        return text
