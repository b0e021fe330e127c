"""Example uses of every action, taken from the scenario files (the rules' own golden tests),
with the characters of the scenario each comes from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekeeper.core import ParamSpec, get_ruleset
from rulekeeper.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@dataclass
class Examples:
    system: str
    #: character id (prefixed by its scenario) -> sheet
    characters: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: action -> (actor, params), ids already prefixed
    uses: dict[str, tuple[str | None, dict[str, Any]]] = field(default_factory=dict)
    #: action -> the scenario's earlier actions on the same character (what prepared the example)
    setup: dict[str, list[tuple[str, str | None, dict[str, Any]]]] = field(default_factory=dict)


def _prefixed(params: dict[str, Any], prefix: str, ids: set[str]) -> dict[str, Any]:
    """Character ids in parameter values (one id, or a comma-separated list of them) renamed."""

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            parts = [v.strip() for v in value.split(",")]
            if parts and all(v in ids for v in parts):
                return ",".join(prefix + v for v in parts)
        if isinstance(value, list) and value and all(isinstance(v, str) and v in ids for v in value):
            return [prefix + v for v in value]
        return value

    return {k: rename(v) for k, v in params.items()}


def examples(system_dir: str) -> Examples:
    ruleset = get_ruleset(system_dir)
    specs = ruleset.actions()
    out = Examples(ruleset.name)
    for i, path in enumerate(sorted((SCENARIOS / system_dir).glob("*.yaml"))):
        scenario = load_scenario(path)
        prefix = f"s{i}-"
        earlier: list[tuple[str, str | None, dict[str, Any]]] = []
        for step in scenario.steps:
            name = step.data.get("action")
            if step.kind == "action" and name in specs and "expect_error" not in step.data:
                who = step.data.get("actor")
                given = _prefixed(dict(step.data.get("params") or {}), prefix, set(scenario.characters))
                earlier.append((str(name), None if who is None else prefix + str(who), given))
            if step.kind != "action" or name in out.uses or name not in specs or "expect_error" in step.data:
                continue
            actor = step.data.get("actor")
            out.uses[name] = (
                None if actor is None else prefix + str(actor),
                _prefixed(dict(step.data.get("params") or {}), prefix, set(scenario.characters)),
            )
            out.setup[name] = [e for e in earlier[:-1] if e[1] == out.uses[name][0]][-3:]
            for cid, sheet in scenario.characters.items():
                out.characters.setdefault(prefix + cid, dict(sheet))
    first = next(iter(out.characters), None)
    for name, params in EXTRA.get(ruleset.name, {}).items():
        out.uses.setdefault(name, (first, params))
    return out


#: Actions whose scenario uses all expect a refusal, and which need one of several optional
#: parameters (the property tests' strategies use the same shapes).
EXTRA: dict[str, dict[str, dict[str, Any]]] = {
    "vi-viii-x": {
        "arc": {"ks": "bu", "threshold": "easy"},
        "reaction": {"ks": "em", "threshold": "easy"},
        "climb": {"threshold": "easy"},
    },
}


def fallback(p: ParamSpec, characters: list[str]) -> Any:
    """A value for a required parameter no scenario shows."""
    if p.kind == "choice":
        return p.choices[0]
    if p.kind == "character":
        return characters[-1]
    if p.kind in ("int", "float"):
        return p.minimum if p.minimum is not None else 1
    return {"dice": "1d6", "duration": "1m", "ints": [1], "bool": True}.get(p.kind, "x")
