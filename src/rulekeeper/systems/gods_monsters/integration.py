"""Where the seed 000 rules meet the seed 002 package (``consequences``), owned by another engineer.

The ``consequences`` package exports its actions, calculators and check kinds, and hooks named
``on_consequence_*``. Looking them up here, by name and tolerating their absence, keeps the two
packages loosely coupled: an optional hook that is not defined is simply not called.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

__all__ = ["consequence_export", "consequence_hook", "consequences_module"]

_MODULE = "rulekeeper.systems.gods_monsters.consequences"


def consequences_module() -> ModuleType | None:
    try:
        return importlib.import_module(_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != _MODULE:
            raise
        return None


def consequence_hook(name: str) -> Callable[..., Any] | None:
    module = consequences_module()
    hook = getattr(module, name, None) if module is not None else None
    return hook if callable(hook) else None


def consequence_export(name: str) -> Mapping[str, Any]:
    module = consequences_module()
    value = getattr(module, name, None) if module is not None else None
    return value if isinstance(value, Mapping) else {}
