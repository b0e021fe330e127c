"""GCS's name and number criteria ("is", "starts_with", "at_least" ...), as features use them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["number_matches", "tags_match", "text_matches"]


def text_matches(criteria: Any, value: str) -> bool:
    """A string criterion: ``{"compare": "starts_with", "qualifier": "fast-draw"}``; missing means any."""
    if not isinstance(criteria, Mapping):
        return True
    compare = str(criteria.get("compare") or "any")
    qualifier = str(criteria.get("qualifier") or "").lower()
    text = value.lower()
    tests = {
        "any": True,
        "is": text == qualifier,
        "is_not": text != qualifier,
        "contains": qualifier in text,
        "does_not_contain": qualifier not in text,
        "starts_with": text.startswith(qualifier),
        "does_not_start_with": not text.startswith(qualifier),
        "ends_with": text.endswith(qualifier),
        "does_not_end_with": not text.endswith(qualifier),
    }
    return tests.get(compare, False)


def tags_match(criteria: Any, tags: Iterable[str]) -> bool:
    """A tag criterion holds when some tag matches it (a negative one, when no tag breaks it)."""
    if not isinstance(criteria, Mapping):
        return True
    compare = str(criteria.get("compare") or "any")
    values = [str(t) for t in tags]
    if compare == "any":
        return True
    if compare.startswith("does_not") or compare == "is_not":
        return all(text_matches(criteria, t) for t in values)
    return any(text_matches(criteria, t) for t in values)


def number_matches(criteria: Any, value: float) -> bool:
    """A number criterion: ``{"compare": "at_least", "qualifier": 2}``; a missing qualifier is 0."""
    if not isinstance(criteria, Mapping):
        return True
    compare = str(criteria.get("compare") or "any")
    raw = criteria.get("qualifier", 0)
    qualifier = float(raw) if isinstance(raw, (int, float)) and not isinstance(raw, bool) else 0.0
    tests = {
        "any": True,
        "is": value == qualifier,
        "is_not": value != qualifier,
        "at_least": value >= qualifier,
        "at_most": value <= qualifier,
    }
    return tests.get(compare, False)
