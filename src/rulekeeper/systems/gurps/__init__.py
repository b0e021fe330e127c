"""GURPS 4th edition (Lite / Basic Set), seed 004.

Public names: :class:`GurpsRuleset` (the system), :class:`GurpsCharacter` (the sheet),
:func:`new_character` (a sheet mapping -> character) and :func:`import_gcs` (a GURPS
Character Sheet ``.gcs`` file's JSON -> sheet mapping and the fields it could not use).

The GCS importer (``rulekeeper.systems.gurps.gcs`` and its helpers) is loaded only when
``import_gcs`` is first asked for, so GURPS commands that read no GCS file do not pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.systems.gurps.character import GurpsCharacter, Weapon
from rulekeeper.systems.gurps.ruleset import GurpsRuleset
from rulekeeper.systems.gurps.sheet import new_character

if TYPE_CHECKING:
    from rulekeeper.systems.gurps.gcs import import_gcs

__all__ = ["GurpsCharacter", "GurpsRuleset", "Weapon", "import_gcs", "new_character"]


def __getattr__(name: str) -> Any:
    if name == "import_gcs":
        from rulekeeper.systems.gurps.gcs import import_gcs

        return import_gcs
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
