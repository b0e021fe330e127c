"""What a name (campaign, GM, player, character) may be: short, printable, one line; and a new
campaign's or character's name, which stands in addresses (``/campaigns/{name}``), a slug."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_NAME_CHARS

__all__ = ["SLUG", "SLUG_FORM", "check_name", "check_sheet_text", "check_slug"]

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


SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
SLUG_FORM = "letters A-Z and a-z, digits, '-', '_' and '.', starting with a letter or digit, such as 'friday-night'"


def check_slug(name: Any, what: str) -> str:
    """``name`` as :func:`check_name` takes it, and URL-safe: it goes into page and API
    addresses as it is, so ``a/b``, ``..`` or ``//evil.example`` would make a campaign nobody can
    open. Checked when a name is chosen (a new campaign, a new character), never when a stored
    one is read back: a campaign made before keeps its name and still opens."""
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"empty {what}", expected=SLUG_FORM)
    text = check_name(name, what)
    if SLUG.fullmatch(text) is None:
        raise InputError(f"{what} {text[:40]!r} cannot stand in an address", expected=SLUG_FORM)
    return text


def check_sheet_text(value: Any, where: str = "sheet") -> None:
    """Every text in a sheet (its keys too, at any depth) printable: a name or note holding a
    terminal's control sequence (ESC, say) would redraw the GM's screen when shown, and a
    bidirectional override would disguise it (an independent review). A line break and a tab
    are text. Checked when a sheet is given, never when a stored one is read back."""
    if isinstance(value, str):
        bad = next((ch for ch in value if ch not in "\r\n\t" and _unprintable(ch)), None)
        if bad is not None:
            raise InputError(
                f"holds the control character U+{ord(bad):04X}",
                expected="printable text (line breaks and tabs at most)",
                where=where,
            )
    elif isinstance(value, Mapping):
        for key, item in value.items():
            check_sheet_text(key, where)
            check_sheet_text(item, f"{where}.{key}" if isinstance(key, str) and key.isprintable() else where)
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            check_sheet_text(item, f"{where}[{index}]")
