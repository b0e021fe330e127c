"""Citations for GURPS rules: every consequence names seed 004's section and, where given, the page."""

from __future__ import annotations

from rulekeeper.core.citation import Rule

__all__ = ["SEED", "SYSTEM", "rule"]

SYSTEM = "gurps"
SEED = "004"


def rule(section: str, page: str | None = None, reading: str | None = None) -> Rule:
    """A citation of seed 004: ``section`` is the seed's heading, ``page`` a Lite/Basic Set page."""
    return Rule(system=SYSTEM, section=section, seed=SEED, page=page, reading=reading)
