"""House systems as plug-ins: found by entry point or by environment variable, never by name.

A package that ships a ruleset declares it in its ``pyproject.toml``::

    [project.entry-points."rulekeeper.systems"]
    hearth = "hearth_rules:HearthRuleset"

and, for a ruleset that is only a module on ``PYTHONPATH`` (a table's own rules, a test), the
``RULEKEEPER_SYSTEMS`` environment variable holds the same pairs, separated by spaces, commas or
semicolons: ``RULEKEEPER_SYSTEMS="hearth=hearth_rules:HearthRuleset"``. Every front end (the CLI,
``rulekeeper serve``, the simulation, scenario files) then knows the system by its name and the
aliases its class declares. Discovery runs only when a name is not a built-in one or when the
systems are listed, so a command for a built-in system never scans the installed packages.
"""

from __future__ import annotations

import os
import re

from rulekeeper.errors import InputError

__all__ = ["ENTRY_POINT_GROUP", "ENV_VAR", "discover", "learn_aliases"]

ENTRY_POINT_GROUP = "rulekeeper.systems"
ENV_VAR = "RULEKEEPER_SYSTEMS"

_ENTRY = re.compile(r"(?P<name>[a-z][a-z0-9_-]*)=(?P<location>[A-Za-z_][\w.]*:[A-Za-z_]\w*)")
# What was read: the environment variable's text and its pairs, and the entry points (scanned
# once a process: installed packages do not change under it).
_read: dict[str, tuple[str, list[tuple[str, str]]]] = {}
#: The plug-in systems registered so far, by name.
_plugins: set[str] = set()


def _from_environment() -> list[tuple[str, str]]:
    text = os.environ.get(ENV_VAR, "").strip()
    if "env" in _read and _read["env"][0] == text:
        return _read["env"][1]
    found = []
    for entry in (e for e in re.split(r"[\s,;]+", text) if e):
        match = _ENTRY.fullmatch(entry)
        if match is None:
            raise InputError(
                f"{ENV_VAR} holds {entry!r}, which is not a system",
                expected="NAME=module:Class pairs, e.g. hearth=hearth_rules:HearthRuleset",
            )
        found.append((match["name"], match["location"]))
    _read["env"] = (text, found)
    return found


def _from_entry_points() -> list[tuple[str, str]]:
    if "entry_points" not in _read:
        from importlib.metadata import entry_points

        _read["entry_points"] = ("", [(ep.name.lower(), ep.value) for ep in entry_points(group=ENTRY_POINT_GROUP)])
    return _read["entry_points"][1]


def discover() -> None:
    """Register every plug-in system not registered yet (the environment wins over packages)."""
    from rulekeeper.core.ruleset import SYSTEMS, register_system

    for name, location in [*_from_entry_points(), *_from_environment()]:
        if SYSTEMS.get(name) != location:
            register_system(name, location)
        _plugins.add(name)


def learn_aliases() -> None:
    """Load every plug-in ruleset, so the aliases its class declares are known too (only when a
    name is neither a built-in nor a plug-in's own)."""
    from rulekeeper.core.ruleset import SYSTEMS, get_ruleset

    for name in sorted(_plugins & set(SYSTEMS)):
        try:
            get_ruleset(name)
        except (ImportError, AttributeError) as exc:
            raise InputError(
                f"the plug-in system {name!r} ({SYSTEMS[name]}) cannot be loaded: {exc}",
                expected=f"an importable module:Class in {ENV_VAR} or the package's entry point",
            ) from None
