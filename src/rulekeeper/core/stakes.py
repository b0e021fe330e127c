"""What a pending check is for, in the system's own terms, as data every front end can show.

A bare "fortitude 7 or less on d20, 35% to succeed" does not tell a player that the roll keeps
them conscious, or that "success" on a death roll means they start dying. Rule code that asks
for a check says so here; :func:`describe_pending` adds the exact odds, the distribution of the
outcome that matters for pools and plain rolls, and the name of each typed die.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekeeper.core.state import PendingCheck

__all__ = ["Stakes", "describe_pending", "distribution_rows"]


@dataclass(frozen=True)
class Stakes:
    """``purpose``: what the roll is for; ``on_success`` / ``on_failure``: what each result does;
    ``dice``: the name of each typed die in order, where they differ (``"Wrath die"``);
    ``outcome`` and ``distribution``: the quantity that matters and its exact odds, as
    ``(value, "p/q")`` rows (Wounds turned into Shock, Icons on a pool)."""

    purpose: str
    on_success: str = ""
    on_failure: str = ""
    dice: tuple[str, ...] = ()
    outcome: str = ""
    distribution: tuple[tuple[int, str], ...] = ()


def distribution_rows(table: dict[int, Fraction] | tuple[tuple[int, Fraction], ...]) -> tuple[tuple[int, str], ...]:
    """Exact ``(value, "p/q")`` rows, ascending, from a mapping or pairs of fractions."""
    items = table.items() if isinstance(table, dict) else table
    return tuple((value, str(p)) for value, p in sorted(items) if p)


def _percent(p: Fraction) -> str:
    return f"{float(p):.2%}"


def describe_pending(pending: PendingCheck) -> dict[str, Any]:
    """Everything a player needs before rolling: purpose, stakes, odds, distribution, die names."""
    check = pending.check
    stakes = pending.stakes
    sides = check.dice_sides
    names = list(stakes.dice) if stakes is not None else []
    p = check.probability()
    crit = check.critical_probability()
    rows: tuple[tuple[int, str], ...] = stakes.distribution if stakes is not None else ()
    outcome = stakes.outcome if stakes is not None else ""
    plain = check.type == "dice-roll"
    if check.type == "dice-roll" and not rows:
        rows = distribution_rows(check.distribution())
        outcome = outcome or "total"
    if check.type == "wg-pool":
        from rulekeeper.core.dice_pool import pool_distribution

        if not rows:
            rows = distribution_rows(pool_distribution(check.dice_count))
            outcome = outcome or f"Icons (DN {check.target})"
        if not names:
            names = ["Wrath die"] * check.wrath_count + ["pool die"] * (check.dice_count - check.wrath_count)
    dice = [
        {"die": f"d{s}", "name": names[i] if i < len(names) and names[i] else f"die {i + 1}"}
        for i, s in enumerate(sides)
    ]
    return {
        "for": stakes.purpose if stakes is not None else pending.purpose,
        "on_success": stakes.on_success if stakes is not None else "",
        "on_failure": stakes.on_failure if stakes is not None else "",
        "odds": None if plain else {"success": str(p), "text": _percent(p)},
        "critical": None if crit is None else {"success": str(crit), "text": _percent(crit)},
        "dice": dice,
        "outcome": outcome,
        "distribution": [{"value": v, "p": q, "text": _percent(Fraction(q))} for v, q in rows],
    }
