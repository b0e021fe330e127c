"""What a pending check is for, in the system's own terms, as data every front end can show.

A bare "fortitude 7 or less on d20, 35% to succeed" does not tell a player that the roll keeps
them conscious, or that "success" on a death roll means they start dying. Rule code that asks
for a check says so here; :func:`describe_pending` adds the exact odds, the distribution of the
outcome that matters for pools and plain rolls, and the name of each typed die.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rulekeeper.core.state import PendingCheck

__all__ = ["Stakes", "describe_pending", "distribution_rows", "odds_label", "pending_entry", "without_secrets"]


@dataclass(frozen=True)
class Stakes:
    """``purpose``: what the roll is for; ``on_success`` / ``on_failure``: what each result does;
    ``dice``: the name of each typed die in order, where they differ (``"Wrath die"``);
    ``outcome`` and ``distribution``: the quantity that matters and its exact odds, as
    ``(value, "p/q")`` rows (Wounds turned into Shock, Icons on a pool); ``headline``: which of the
    success odds and that distribution a front end leads with; ``odds_words``: what the odds are
    of, for the character, in a few words ("starts dying" where a death contest's success means
    that): the label of the odds; ``odds_row``: with a distribution headline, the row whose odds
    the label gives (Determination: every Wound shrugged off)."""

    purpose: str
    on_success: str = ""
    on_failure: str = ""
    dice: tuple[str, ...] = ()
    outcome: str = ""
    distribution: tuple[tuple[int, str], ...] = ()
    headline: Literal["odds", "distribution"] = "odds"
    odds_words: str = ""
    odds_row: int | None = None


def distribution_rows(table: dict[int, Fraction] | tuple[tuple[int, Fraction], ...]) -> tuple[tuple[int, str], ...]:
    """Exact ``(value, "p/q")`` rows, ascending, from a mapping or pairs of fractions."""
    items = table.items() if isinstance(table, dict) else table
    return tuple((value, str(p)) for value, p in sorted(items) if p)


def _percent(p: Fraction) -> str:
    return f"{float(p):.2%}"


def odds_label(
    stakes: Stakes | None,
    probability: Fraction | None,
    rows: tuple[tuple[int, str], ...],
    outcome: str,
    *,
    fallback: str = "",
) -> str:
    """The odds in words: what the result means for the character and its chance ("starts dying
    12.00%"); a plain roll's range of its total. Never the bare word "success": a label falls back
    on the words of a success, then on the stakes' purpose, then on ``fallback`` (the check's own
    label, for a purpose whose section gives no stakes)."""
    words = fallback
    if stakes is not None:
        words = stakes.odds_words or stakes.on_success or stakes.purpose
    if probability is None:  # a plain roll or a distribution headline
        if stakes is not None and stakes.odds_row is not None:
            p = sum((Fraction(q) for value, q in rows if value == stakes.odds_row), Fraction(0))
            return f"{words} {_percent(p)}"
        if not rows:
            return words or outcome
        return f"{words or outcome}: {rows[0][0]} to {rows[-1][0]}"
    return f"{words or 'success'} {_percent(probability)}"


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
    plain = False
    if check.type == "dice-roll":  # a plain roll: no success, the distribution of its total
        plain = True
        if not rows:
            rows = distribution_rows(check.distribution())
            outcome = outcome or "total"
    headline = "distribution" if plain or (stakes is not None and stakes.headline == "distribution") else "odds"
    dice = [
        {"die": f"d{s}", "name": names[i] if i < len(names) and names[i] else f"die {i + 1}"}
        for i, s in enumerate(sides)
    ]
    return {
        # A purpose without declared stakes is named by its check's label, never by its code name.
        "for": stakes.purpose if stakes is not None else (check.label or "a roll"),
        "on_success": stakes.on_success if stakes is not None else "",
        "on_failure": stakes.on_failure if stakes is not None else "",
        "plain": plain,
        "headline": headline,
        "odds": None if headline == "distribution" else {"success": str(p), "text": _percent(p)},
        "critical": None if crit is None else {"success": str(crit), "text": _percent(crit)},
        "dice": dice,
        "outcome": outcome,
        "distribution": [{"value": v, "p": q, "text": _percent(Fraction(q))} for v, q in rows],
        "label": odds_label(
            stakes,
            None if headline == "distribution" else p,
            rows,
            outcome,
            fallback=check.label if plain else f"{check.label} succeeds",
        ),
    }


# What a check's stakes may show when its odds or outcome would be computed from a secret stat.
_PUBLIC_STAKES = ("for", "on_success", "on_failure", "plain", "dice")


def without_secrets(stakes: dict[str, Any]) -> dict[str, Any]:
    """``describe_pending`` output with no odds, critical odds or distribution: only what the roll is
    for, what each result does and the die names (the system's stakes words them without secrets)."""
    return {key: stakes[key] for key in _PUBLIC_STAKES}


def pending_entry(pending: PendingCheck) -> dict[str, Any]:
    """A pending check as data, with its exact odds and stakes: the one builder behind the GM's
    pending list and a player's own where odds reveal nothing. A plain roll (damage, a table) has no
    success, so it has no success probability either."""
    check = pending.check
    stakes = describe_pending(pending)
    plain = bool(stakes["plain"])
    p = check.probability()
    crit = check.critical_probability()
    return {
        "id": pending.id,
        "actor": pending.actor,
        "kind": check.kind,
        "purpose": pending.purpose,
        "check": check.describe(),
        "dice": [f"d{s}" for s in check.dice_sides],
        "probability": None if plain else float(p),
        "probability_exact": None if plain else str(p),
        "critical_probability": None if crit is None else float(crit),
        "created": pending.created,
        "odds_label": stakes["label"],
        "stakes": stakes,
    }
