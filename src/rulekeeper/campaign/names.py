"""What a name (campaign, GM, player, character) may be: short, printable, one line."""

from __future__ import annotations

import unicodedata
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_NAME_CHARS

__all__ = ["check_name"]

# Bidirectional overrides make a name display as something else; the other format characters
# (joiners inside emoji, say) are harmless.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unprintable(ch: str) -> bool:
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")


def check_name(name: Any, what: str) -> str:
    """``name`` stripped, or an ``InputError`` saying what a ``what`` may be."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"empty {what}", expected=f"a {what} such as 'Saturday group'")
    text: str = name.strip()
    if len(text) > MAX_NAME_CHARS:
        raise InputError(
            f"{what} of {len(text):,} characters", expected=f"up to {MAX_NAME_CHARS} characters (docs/limits.md)"
        )
    bad = next((ch for ch in text if _unprintable(ch)), None)
    if bad is not None:
        raise InputError(
            f"{what} {text[:40]!r} holds the control character U+{ord(bad):04X}",
            expected=f"up to {MAX_NAME_CHARS} printable characters on one line",
        )
    return text
