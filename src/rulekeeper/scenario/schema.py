"""The shape of a scenario file as pydantic models: one per step kind, checked before anything runs.

The models say which keys exist and which types they hold (strictly: ``true`` is not a number,
``[1]`` is not a mapping); the loader then checks what needs the ruleset (action names, their
parameters, characters, rule options). The runner keeps reading the plain mappings.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, ValidationError

from rulekeeper.errors import InputError
from rulekeeper.limits import MAX_DICE, MAX_NAME_CHARS, MAX_ROUNDS, MAX_SCENARIO_STEPS, MAX_SIDES

__all__ = ["STEP_MODELS", "ScenarioModel", "validate"]

Name = Annotated[StrictStr, Field(min_length=1, max_length=MAX_NAME_CHARS)]
Text = Annotated[StrictStr, Field(max_length=100_000)]
DieValue = Annotated[StrictInt, Field(ge=-MAX_SIDES, le=MAX_SIDES)]
Dice = Annotated[list[DieValue], Field(max_length=MAX_DICE)]
Scalar = StrictBool | StrictInt | StrictFloat | StrictStr | None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class SettingsModel(_Model):
    automation: dict[Name, Literal["auto", "prompt", "note", "AUTO", "PROMPT", "NOTE"]] | None = None
    options: dict[Name, Scalar] | None = None


class ScenarioModel(_Model):
    """The top level; ``steps`` are checked one by one (each against its kind's model)."""

    format: Literal[1]
    system: Name | StrictInt  # an alias of digits reads as a number in YAML
    title: Text | None = None
    description: Text | None = None
    seed: Annotated[StrictInt, Field(ge=-(2**63), lt=2**63)] | Name = 0
    settings: SettingsModel | None = None
    characters: dict[Name, dict[Name, Any]] | None = None
    steps: Annotated[list[Any], Field(max_length=MAX_SCENARIO_STEPS)] | None = None


class ActionStep(_Model):
    action: Name
    actor: Name | None = None
    params: dict[Name, Any] | None = None
    dice: Dice | None = None
    expect_error: Text | None = None
    note: Text | None = None


class ResolveStep(_Model):
    resolve: Literal["last", "next"] | Annotated[StrictInt, Field(ge=1, lt=2**63)]
    dice: Dice | None = None
    expect_error: Text | None = None
    note: Text | None = None


class AdvanceStep(_Model):
    advance: Annotated[StrictStr, Field(min_length=1, max_length=100)] | Annotated[StrictInt, Field(ge=0)]
    dice: Dice | None = None
    note: Text | None = None


class RoundStep(_Model):
    round: Annotated[StrictInt, Field(ge=1, le=MAX_ROUNDS)] | None = None
    dice: Dice | None = None
    note: Text | None = None


class Expectations(_Model):
    character: Name | None = None
    view: dict[Name, Any] | None = None
    conditions: list[Name] | None = None
    no_conditions: list[Name] | None = None
    result: dict[Name, Any] | None = None
    pending: Annotated[StrictInt, Field(ge=0)] | None = None
    clock: StrictInt | None = None
    timers: list[Name] | None = None
    text: Text | None = None


class ExpectStep(_Model):
    expect: Expectations
    note: Text | None = None


STEP_MODELS: dict[str, type[_Model]] = {
    "action": ActionStep,
    "resolve": ResolveStep,
    "advance": AdvanceStep,
    "round": RoundStep,
    "expect": ExpectStep,
}


def validate(model: type[_Model], data: Any, where: str) -> None:
    """Check ``data`` against ``model``; the first problem becomes a one-line ``InputError``."""
    try:
        model.model_validate(data)
    except ValidationError as exc:
        from rulekeeper.validation_words import field_errors

        errors = exc.errors(include_url=False)
        first = field_errors(errors, located=False)[0]
        got = next((e.get("input") for e in errors if e.get("loc")), None)
        shown = "" if isinstance(got, (dict, list)) or got is None else f" ({repr(got)[:60]})"
        field = "the step" if first["field"] == "document" else first["field"]
        raise InputError(f"{field}{shown} {first['message']}", expected=first["expected"], where=where) from None
