"""Random campaign histories for any ruleset: valid-looking actions from each system's own specs.

Sheets come from the system's scenario files (tests/scenarios/<system>/), so every system that
has landed is played with characters its own authors wrote.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from rulekeeper.campaign import Campaign
from rulekeeper.core import Action, ParamSpec, Ruleset, canonical_system_name, get_ruleset, system_names
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
TOY_SHEETS: list[Mapping[str, Any]] = [{"max_hp": 6}, {"max_hp": 10, "secret": 2}, {"max_hp": 14}]


def landed_systems() -> list[str]:
    """Every registered system; each must have scenario sheets to play with."""
    found = [name for name in system_names() if name != "toy"]
    for name in found:
        assert sheets_for(get_ruleset(name)), f"no scenario sheets for {name}"
    return found


def sheets_for(ruleset: Ruleset[Any]) -> list[Mapping[str, Any]]:
    if ruleset.name == "toy":
        return TOY_SHEETS
    return _scenario_sheets(ruleset.name)


@functools.cache
def _scenario_sheets(system: str) -> list[Mapping[str, Any]]:
    ruleset = get_ruleset(system)
    sheets: list[Mapping[str, Any]] = []
    for path in sorted((SCENARIOS / ruleset.name).glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict) or canonical_system_name(str(data.get("system", ""))) != ruleset.name:
            continue
        if any(isinstance(s, dict) and "gcs" in s for s in (data.get("characters") or {}).values()):
            # sheets read from GCS files: the scenario loader imports them
            data = {"characters": dict(load_scenario(path).characters)}
        for sheet in (data.get("characters") or {}).values():
            if not isinstance(sheet, dict) or sheet in sheets:
                continue
            ruleset.new_character(sheet)  # every scenario sheet must be valid: a bad one fails here
            sheets.append(sheet)
    return sheets


def _value(spec: ParamSpec, rng: random.Random, actors: list[str]) -> Any:
    low = int(spec.minimum) if spec.minimum is not None else 0
    high = int(spec.maximum) if spec.maximum is not None else low + 12
    if spec.kind == "int":
        return rng.randint(low, max(low, min(high, low + 12)))
    if spec.kind == "float":
        return round(rng.uniform(low, max(low, min(high, low + 12))), 1)
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "choice":
        return rng.choice(spec.choices) if spec.choices else None
    if spec.kind == "character":
        return rng.choice(actors) if actors else "nobody"
    if spec.kind == "duration":
        return rng.choice([1, 6, 60, 600, 3600, 8 * 3600])
    if spec.kind == "dice":
        return rng.choice(["1d6", "2d6", "1d20"])
    if spec.kind == "ints":
        return [rng.randint(1, 6) for _ in range(rng.randint(1, 3))]
    return spec.default if spec.default is not None else "x"


def random_action(ruleset: Ruleset[Any], rng: random.Random, actors: list[str]) -> Action:
    specs = ruleset.actions()
    # Damage and healing drive the interesting consequences, so they come up most often.
    common = [n for n in ("damage", "heal", "rest") if n in specs]
    name = rng.choice(common) if common and rng.random() < 0.5 else rng.choice(sorted(specs))
    spec = specs[name]
    params = {}
    for p in spec.params:
        if p.required or rng.random() < 0.4:
            value = _value(p, rng, actors)
            if value is not None:
                params[p.name] = value
    actor = rng.choice(actors) if actors and spec.actor != "none" else None
    return Action(name=name, actor=actor, params=params)


def random_automation(ruleset: Ruleset[Any], rng: random.Random) -> dict[str, str]:
    return {kind: rng.choice(["auto", "auto", "prompt", "note"]) for kind in ruleset.check_kinds}


def play_randomly(campaign: Campaign, rng: random.Random, steps: int) -> dict[str, int]:
    """Issue ``steps`` random commands; a refused one must leave the version unchanged."""
    ruleset = campaign.ruleset
    sheets = sheets_for(ruleset)
    counts = {"applied": 0, "refused": 0, "undo": 0, "redo": 0}
    for step in range(steps):
        actors = sorted(campaign.state.characters)
        before = campaign.version
        roll = rng.random()
        try:
            if len(actors) < 2 or roll < 0.04:
                campaign.add_character(f"c{step}", rng.choice(sheets), player=rng.choice([None, "ana", "ben"]))
            elif roll < 0.10 and campaign.pending():
                pending = rng.choice(campaign.pending())
                dice = [rng.randint(1, s) for s in pending.check.dice_sides] if rng.random() < 0.5 else None
                campaign.resolve(pending.id, dice)
            elif roll < 0.16:
                campaign.advance(rng.choice([6, 6, 60, 60, 600, 3600]))
            elif roll < 0.19:
                campaign.next_round()
            elif roll < 0.27:
                counts["undo"] += 1
                commands = [e.seq for e in campaign.log() if e.in_effect]
                target = rng.choice(commands[-12:]) if commands and rng.random() < 0.5 else None
                campaign.undo(target)
            elif roll < 0.31:
                counts["redo"] += 1
                campaign.redo()
            elif roll < 0.33:
                campaign.set_settings(automation=random_automation(ruleset, rng))
            elif roll < 0.34 and len(actors) > 2:
                campaign.remove_character(rng.choice(actors))
            elif roll < 0.36:
                campaign.edit_character(rng.choice(actors), dict(rng.choice(sheets)))
            else:
                campaign.act(random_action(ruleset, rng, actors))
            counts["applied"] += 1
            assert campaign.version == before + 1
        except (InputError, RuleRefusal):
            counts["refused"] += 1
            assert campaign.version == before, "a refused command must append nothing"
    return counts
