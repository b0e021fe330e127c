"""A refused request's or document's fields, in our words: what is wrong with each and the form
it takes. Used by the API's 422 answers, campaign imports and scenario files alike.

The validator behind them (pydantic) reports each problem with a code (``type``), where it
is (``loc``) and its own sentence. Its sentences are not ours, and its ``loc`` names the inner
workings of a field that takes more than one form (``duration.str``, ``list[constrained-int]``)
or a byte offset for a body that is no JSON at all. So each code is worded here, with the form
the field expects, and each field is named as a client wrote it, once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["field_errors"]

#: Words for each code the validator gives, by its context: (what is wrong, the form expected).
_WORDS: dict[str, tuple[str, str]] = {
    "missing": ("is required", "a value"),
    "extra_forbidden": ("is not a field of this request", "only the fields /docs lists for it"),
    "int_type": ("is not a whole number", "a whole number such as 3, not in quotes"),
    "int_parsing": ("is not a whole number", "a whole number such as 3, not in quotes"),
    "int_from_float": ("is not a whole number", "a whole number such as 3"),
    "int_parsing_size": ("is too long a number", "a whole number of at most a few digits"),
    "float_type": ("is not a number", "a number such as 2.5"),
    "float_parsing": ("is not a number", "a number such as 2.5"),
    "finite_number": ("is not a finite number", "a number such as 2.5"),
    "bool_type": ("is not true or false", "true or false"),
    "bool_parsing": ("is not true or false", "true or false"),
    "string_type": ("is not text", "text in quotes"),
    "string_unicode": ("is not valid text", "Unicode text, with no lone surrogates"),
    "string_pattern_mismatch": ("is not in the form this field takes", "the form /docs gives for it"),
    "dict_type": ("is not an object", "an object: {...}"),
    "model_type": ("is not an object", "an object: {...}"),
    "model_attributes_type": ("is not an object", "an object: {...}"),
    "list_type": ("is not a list", "a list: [...]"),
    "json_invalid": ("is not valid JSON", "a JSON object, as /docs shows for this request"),
    "json_type": ("is not JSON text", "a JSON object, as /docs shows for this request"),
    "none_required": ("must be left out", "nothing"),
}

#: Codes whose limit is in their context: (what is wrong, the form expected), with ``{n}``.
_BOUNDED: dict[str, tuple[str, str, str]] = {
    "greater_than": ("gt", "is too small", "more than {n}"),
    "greater_than_equal": ("ge", "is too small", "at least {n}"),
    "less_than": ("lt", "is too large", "less than {n}"),
    "less_than_equal": ("le", "is too large", "at most {n}"),
    "string_too_short": ("min_length", "is too short", "at least {n} character(s)"),
    "string_too_long": ("max_length", "is too long", "at most {n} characters"),
    "too_short": ("min_length", "has too few items", "at least {n} item(s)"),
    "too_long": ("max_length", "has too many items", "at most {n} items"),
}

#: Names the validator gives the forms inside one field, never a field of ours.
_FORMS = frozenset({"str", "int", "float", "bool", "none", "list", "dict", "tuple", "set"})


def _form_name(part: object) -> bool:
    if not isinstance(part, str):
        return False
    return part in _FORMS or "[" in part or part.startswith(("constrained-", "function-", "lax-or-strict"))


def _field(loc: Sequence[Any], code: str, located: bool) -> tuple[str, str]:
    """The field as a client names it, and where it is (body, query, header, path; with
    ``located`` False, a document's own fields from the top)."""
    where = str(loc[0]) if loc and located else "document"
    parts = [p for p in (loc[1:] if located else loc) if not _form_name(p)]
    if code in ("json_invalid", "json_type"):
        parts = []  # its number is an offset in the text, not a field
    return ".".join(str(p) for p in parts) or where, where


def _worded(code: str, context: Mapping[str, Any]) -> tuple[str, str]:
    if code in _WORDS:
        return _WORDS[code]
    if code in _BOUNDED:
        key, wrong, form = _BOUNDED[code]
        return wrong, form.format(n=context.get(key, "?"))
    if code in ("literal_error", "enum"):
        return "is not one of the choices", f"one of {context.get('expected', 'the choices /docs lists')}"
    if code in ("value_error", "assertion_error"):
        # Our own validators' words, which the validator only prefixes.
        return str(context.get("error", "is not accepted")), "the form /docs gives for it"
    return "is not in the form this field takes", "the form /docs gives for it"


def field_errors(raw: Iterable[Mapping[str, Any]], *, located: bool = True) -> list[dict[str, str]]:
    """One entry per field (``field``, ``location``, ``message``, ``expected``, ``type``): a
    field that takes several forms and fits none is one entry naming each form it takes.
    ``located``: each ``loc`` starts with where in a request it is (the API's); else it is a
    path in a document from its top."""
    merged: dict[str, dict[str, Any]] = {}
    for error in raw:
        code = str(error.get("type", ""))
        name, where = _field(tuple(error.get("loc", ())), code, located)
        wrong, form = _worded(code, error.get("ctx") or {})
        entry = merged.setdefault(name, {"field": name, "location": where, "wrongs": [], "forms": [], "type": code})
        if wrong not in entry["wrongs"]:
            entry["wrongs"].append(wrong)
        if form not in entry["forms"]:
            entry["forms"].append(form)
    out = []
    for entry in merged.values():
        several = len(entry["forms"]) > 1
        out.append(
            {
                "field": entry["field"],
                "location": entry["location"],
                "message": "is in none of the forms this field takes" if several else entry["wrongs"][0],
                "expected": " or ".join(entry["forms"]),
                "type": entry["type"],
            }
        )
    return out
