"""Reading and validating scenario files before anything runs.

A file is checked whole -- system, settings, every sheet, every step's shape, action names and
parameters -- so an invalid file is reported with its step, line and field, and nothing is
applied. YAML line numbers are kept for each step so errors point at the right line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulekeeper.core.action import validate_params
from rulekeeper.core.clock import parse_duration
from rulekeeper.core.ruleset import Ruleset, get_ruleset, system_names
from rulekeeper.core.state import Settings
from rulekeeper.errors import InputError, RulesError
from rulekeeper.limits import MAX_DOCUMENT_BYTES, MAX_SCENARIO_BYTES, MAX_SCENARIO_STEPS
from rulekeeper.scenario.schema import STEP_MODELS, ScenarioModel, SettingsModel, validate

__all__ = ["FORMAT_VERSION", "Scenario", "ScenarioStep", "load_scenario", "parse_scenario"]

FORMAT_VERSION = 1

_TOP_KEYS = {"format", "system", "title", "seed", "settings", "characters", "steps", "description"}
_STEP_KINDS = ("action", "resolve", "advance", "round", "expect")
_STEP_KEYS: dict[str, set[str]] = {
    "action": {"action", "actor", "params", "dice", "expect_error", "note"},
    "resolve": {"resolve", "dice", "note", "expect_error"},
    "advance": {"advance", "dice", "note"},
    "round": {"round", "dice", "note"},
    "expect": {"expect", "note"},
}
_EXPECT_KEYS = {"character", "view", "conditions", "no_conditions", "result", "pending", "clock", "timers", "text"}
_LINE = "__line__"


@dataclass(frozen=True)
class ScenarioStep:
    index: int
    kind: str
    line: int | None
    data: Mapping[str, Any]

    @property
    def where(self) -> str:
        at = f" (line {self.line})" if self.line else ""
        return f"step {self.index}{at}"


@dataclass(frozen=True)
class Scenario:
    path: str
    system: str
    title: str
    seed: int | str
    settings: Settings
    characters: Mapping[str, Mapping[str, Any]]
    steps: tuple[ScenarioStep, ...]
    ruleset: Ruleset[Any] = field(repr=False)
    notes: tuple[str, ...] = ()  # what loading reported (a GCS import's unused fields), for the transcript


def _yaml_load(text: str, where: str) -> Any:
    import yaml

    from rulekeeper.documents import load_yaml
    from rulekeeper.yaml12 import core_schema_loader

    # YAML 1.2 scalars: a bare `on:` is the word "on", `advance: 1:30` is the text "1:30" (docs/scenarios.md).
    class LineLoader(core_schema_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))):  # type: ignore[misc]
        pass

    def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
        mapping = loader.construct_mapping(node, deep=True)
        mapping[_LINE] = node.start_mark.line + 1
        return mapping

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return load_yaml(text, where=where, loader=LineLoader)


def _strip_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_lines(v) for k, v in value.items() if k != _LINE}
    if isinstance(value, list):
        return [_strip_lines(v) for v in value]
    return value


def load_scenario(path: str | Path) -> Scenario:
    from rulekeeper.documents import load_json, read_text

    p = Path(path)
    text = read_text(str(p), MAX_SCENARIO_BYTES, "YAML or JSON scenario")
    data = load_json(text, where=str(p)) if p.suffix.lower() == ".json" else _yaml_load(text, str(p))
    return parse_scenario(data, str(p))


def _expect_type(value: Any, kind: type | tuple[type, ...], what: str, where: str, expected: str) -> None:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InputError(f"{what} is {type(value).__name__}", expected=expected, where=where)


def _parse_settings(raw: Any, ruleset: Ruleset[Any]) -> Settings:
    from rulekeeper.campaign.table import merge_settings

    if raw is None:
        return Settings()
    raw = _strip_lines(raw)
    validate(SettingsModel, raw, "settings")
    # The same checks as a campaign's settings: known check kinds, levels, options and their ranges.
    return merge_settings(ruleset, Settings(), raw.get("automation"), raw.get("options"))


def parse_scenario(data: Any, path: str = "<scenario>") -> Scenario:
    """Validate a loaded scenario document; raise ``InputError`` naming the problem."""
    try:
        return _parse(data, path)
    except InputError as exc:
        raise InputError(
            exc.message, expected=exc.expected, where=f"{path}: {exc.where}" if exc.where else path
        ) from None
    except RulesError as exc:
        raise InputError(str(exc), where=path) from None


def _parse(data: Any, path: str) -> Scenario:
    _expect_type(data, dict, "the document", "top level", "a mapping with format, system, characters and steps")
    unknown = set(data) - _TOP_KEYS - {_LINE}
    if unknown:
        raise InputError(
            f"unknown key {sorted(unknown)[0]!r}", expected=", ".join(sorted(_TOP_KEYS)), where="top level"
        )
    if type(data.get("format")) is not int or data.get("format") != FORMAT_VERSION:
        raise InputError(
            f"format {data.get('format')!r} is not supported", expected=f"format: {FORMAT_VERSION}", where="format"
        )
    if "system" not in data:
        raise InputError("missing system", expected="system: " + " | ".join(system_names()), where="system")
    # Steps are checked one by one below, each with its line; the rest of the document here.
    validate(ScenarioModel, {k: v for k, v in _strip_lines({**data, "steps": None}).items()}, "top level")
    raw_steps = data.get("steps") or []
    _expect_type(raw_steps, list, "steps", "steps", "a list of steps")
    if len(raw_steps) > MAX_SCENARIO_STEPS:
        raise InputError(
            f"{len(raw_steps):,} steps, over the limit of {MAX_SCENARIO_STEPS:,}",
            expected="a shorter scenario, or several files (docs/limits.md)",
            where="steps",
        )
    ruleset = get_ruleset(str(data["system"]))
    seed = data.get("seed", 0)
    settings = _parse_settings(data.get("settings"), ruleset)

    raw_chars = data.get("characters") or {}
    _expect_type(raw_chars, dict, "characters", "characters", "a mapping of character ids to sheets")
    characters: dict[str, Mapping[str, Any]] = {}
    notes: list[str] = []
    for actor, sheet in raw_chars.items():
        if actor == _LINE:
            continue
        where = f"characters.{actor}" + (f" (line {sheet.get(_LINE)})" if isinstance(sheet, dict) else "")
        _expect_type(sheet, dict, f"sheet of {actor}", where, "a mapping of sheet fields")
        clean = _strip_lines(sheet)
        try:
            if "gcs" in clean:
                clean, gcs_notes = _sheet_with_gcs(clean, ruleset, path)
                notes.extend(f"characters.{actor}: {line}" for line in gcs_notes)
            ruleset.new_character(clean)
        except InputError as exc:
            raise InputError(exc.message, expected=exc.expected, where=f"{where}: {exc.where or 'sheet'}") from None
        characters[str(actor)] = clean

    steps = tuple(_parse_step(i, raw, ruleset, characters) for i, raw in enumerate(raw_steps, start=1))
    return Scenario(
        path=path,
        system=ruleset.name,
        title=str(data.get("title") or Path(path).stem),
        seed=seed,
        settings=settings,
        characters=characters,
        steps=steps,
        ruleset=ruleset,
        notes=tuple(notes),
    )


def _sheet_with_gcs(sheet: Mapping[str, Any], ruleset: Ruleset[Any], path: str) -> tuple[dict[str, Any], list[str]]:
    """A sheet read from the GCS file ``gcs`` names (beside the scenario), with the other
    fields of the scenario's sheet laid over it, and the import's notes (unused fields, GCS's
    differing values) for the run's transcript."""
    name = sheet["gcs"]
    _expect_type(name, str, "gcs", "gcs", "a path to a .gcs file, relative to the scenario")
    from rulekeeper.core.sheet_format import sheet_format
    from rulekeeper.documents import load_json, read_text

    file = Path(path).parent / name
    try:
        data = load_json(read_text(str(file), MAX_DOCUMENT_BYTES, "GCS character file"), where=str(file))
    except InputError as exc:
        raise InputError(exc.message, expected="a GCS character file", where="gcs") from None

    overrides = {k: v for k, v in sheet.items() if k != "gcs"}
    try:
        imported = sheet_format(ruleset, "gcs").read(data, overrides, name)
    except InputError as exc:
        where = "gcs" if exc.where in (None, "", "gcs") else f"gcs: {exc.where}"
        raise InputError(exc.message, expected=exc.expected, where=where) from None
    return dict(imported.sheet), imported.notes(name)


def _parse_step(index: int, raw: Any, ruleset: Ruleset[Any], characters: Mapping[str, Any]) -> ScenarioStep:
    line = raw.get(_LINE) if isinstance(raw, dict) else None
    probe = ScenarioStep(index, "?", line, {})
    _expect_type(raw, dict, "the step", probe.where, "a mapping with one of " + ", ".join(_STEP_KINDS))
    kinds = [k for k in _STEP_KINDS if k in raw]
    if len(kinds) != 1:
        raise InputError(
            "a step needs exactly one of " + ", ".join(_STEP_KINDS), expected="e.g. action: damage", where=probe.where
        )
    kind = kinds[0]
    step = ScenarioStep(index, kind, line, _strip_lines(raw))
    data = step.data
    unknown = set(data) - _STEP_KEYS[kind]
    if unknown:
        raise InputError(
            f"unknown field {sorted(unknown)[0]!r} in a {kind} step",
            expected=", ".join(sorted(_STEP_KEYS[kind])),
            where=step.where,
        )
    if "dice" in data:
        dice = data["dice"]
        if not isinstance(dice, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            raise InputError("dice must be a list of whole numbers", expected="dice: [4, 6, 2]", where=step.where)
    validate(STEP_MODELS[kind], data, step.where)
    if kind == "action":
        _check_action(step, ruleset, characters)
    elif kind == "resolve":
        target = data["resolve"]
        if target not in ("last", "next") and not (isinstance(target, int) and not isinstance(target, bool)):
            raise InputError(f"resolve {target!r}", expected="a pending check id, 'next' or 'last'", where=step.where)
    elif kind == "advance":
        parse_duration(str(data["advance"]), round_seconds=ruleset.round_seconds)
    elif kind == "round":
        count = data["round"]
        if count is None:
            count = 1
        _expect_type(count, int, "round", step.where, "a number of rounds, e.g. round: 1")
    else:
        _check_expect(step, characters)
    return step


def _check_action(step: ScenarioStep, ruleset: Ruleset[Any], characters: Mapping[str, Any]) -> None:
    data = step.data
    specs = ruleset.actions()
    name = data["action"]
    if name not in specs:
        raise InputError(
            f"unknown {ruleset.name} action {name!r}",
            expected="one of " + ", ".join(sorted(specs)),
            where=step.where,
        )
    spec = specs[name]
    actor = data.get("actor")
    if actor is not None and actor not in characters:
        raise InputError(
            f"unknown character {actor!r}", expected="one of " + ", ".join(sorted(characters)), where=step.where
        )
    if spec.actor == "required" and actor is None:
        raise InputError(f"action {name!r} needs an actor", expected="actor: <character id>", where=step.where)
    params = data.get("params") or {}
    _expect_type(params, dict, "params", step.where, "a mapping of parameter names to values")
    if "expect_error" not in data:
        validate_params(spec.params, params, f"{step.where}: action {name}")


def _check_expect(step: ScenarioStep, characters: Mapping[str, Any]) -> None:
    expect = step.data["expect"]
    _expect_type(expect, dict, "expect", step.where, "a mapping of " + ", ".join(sorted(_EXPECT_KEYS)))
    unknown = set(expect) - _EXPECT_KEYS
    if unknown:
        raise InputError(
            f"unknown expectation {sorted(unknown)[0]!r}", expected=", ".join(sorted(_EXPECT_KEYS)), where=step.where
        )
    actor = expect.get("character")
    needs_actor = {"view", "conditions", "no_conditions"} & set(expect)
    if needs_actor and actor is None:
        raise InputError(
            "view and conditions expectations need a character", expected="character: <id>", where=step.where
        )
    if actor is not None and actor not in characters:
        raise InputError(
            f"unknown character {actor!r}", expected="one of " + ", ".join(sorted(characters)), where=step.where
        )
    _check_compares_something(step, expect)


def _check_compares_something(step: ScenarioStep, expect: Mapping[str, Any]) -> None:
    """Refuse an expectation that could never fail: it would let a scenario pass vacuously."""
    for key in ("view", "result"):
        if key in expect and not isinstance(expect[key], dict):
            raise InputError(
                f"expect.{key} is {type(expect[key]).__name__}", expected=f"{key}: {{field: value}}", where=step.where
            )
    for key in ("conditions", "no_conditions", "timers"):
        if key in expect and not isinstance(expect[key], list):
            raise InputError(
                f"expect.{key} is {type(expect[key]).__name__}", expected=f"{key}: [name, ...]", where=step.where
            )
    if expect.get("view") == {}:
        raise InputError("expect.view is empty and compares nothing", expected="view: {field: value}", where=step.where)
    if expect.get("no_conditions") == []:
        raise InputError(
            "expect.no_conditions is empty and compares nothing",
            expected="no_conditions: [name, ...]",
            where=step.where,
        )
    if not set(expect) - {"character"}:
        raise InputError(
            "the expect step compares nothing",
            expected="at least one of " + ", ".join(sorted(_EXPECT_KEYS - {"character"})),
            where=step.where,
        )
