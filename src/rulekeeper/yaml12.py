"""YAML 1.2 core-schema scalars for files people write (scenarios).

PyYAML resolves plain scalars by YAML 1.1, where a bare ``on``, ``off``, ``yes``, ``no``, ``y``
and ``n`` are booleans, ``1:30`` is the sexagesimal number 90, ``010`` is octal 8 and
``2026-11-26`` is a date. A scenario author who writes ``on: gm`` or ``advance: 1:30`` means the
words and the text they typed. YAML 1.2's core schema (yaml.org/spec/1.2.2, "10.3 Core Schema")
keeps only ``true``/``false`` as booleans, ``null``/``~``/empty as null, decimal, ``0o`` and
``0x`` integers, and decimal floats with ``.inf``/``.nan``; everything else is a string.
:func:`core_schema_loader` gives a loader class that reads plain scalars that way.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["core_schema_loader"]

_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


def _construct_int(loader: Any, node: Any) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _construct_float(loader: Any, node: Any) -> float:
    text = str(loader.construct_scalar(node))
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if lowered.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)


def core_schema_loader(base: type[Any]) -> type[Any]:
    """A subclass of the PyYAML loader ``base`` whose plain scalars resolve by the YAML 1.2 core schema."""
    class CoreSchemaLoader(base):  # type: ignore[misc]
        pass

    # Replace, not extend, the inherited 1.1 resolvers: they would still match "on" or "1:30".
    # Merge keys (``<<: *base``) are not core schema, but authors use them, so they stay.
    CoreSchemaLoader.yaml_implicit_resolvers = {}
    CoreSchemaLoader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])
    for tag, pattern in (
        ("tag:yaml.org,2002:bool", _BOOL),
        ("tag:yaml.org,2002:null", _NULL),
        ("tag:yaml.org,2002:int", _INT),
        ("tag:yaml.org,2002:float", _FLOAT),
    ):
        CoreSchemaLoader.add_implicit_resolver(tag, pattern, None)  # None: any first character
    CoreSchemaLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
    CoreSchemaLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
    return CoreSchemaLoader
