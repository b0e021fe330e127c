"""HTML form fields generated from :class:`~rulekeeper.core.ParamSpec`s, nothing per action.

The same specs that give the CLI its options and the API its request models give each field
here its input type, range, choices, default, help and a character picker. The page's script
(``static/table.js``) turns a form back into the API's JSON body by each field's ``kind``, so
the form posts exactly what ``POST /api/campaigns/{campaign}/{system}/actions/{action}``
documents, and the API validates it as it would any client's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulekeeper.core import ActionSpec, ParamSpec

__all__ = ["ActionForm", "Field", "action_forms", "field_of"]


@dataclass(frozen=True)
class Field:
    """One input: ``name`` is ``group:key`` (``params:amount``) or a top-level key (``actor``)."""

    name: str
    label: str
    kind: str
    help: str
    required: bool = False
    #: The default (or current value): a placeholder, the blank option's text, a checkbox's state.
    value: Any = None
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    #: The input's id, unique on the page.
    id: str = ""

    @property
    def input_type(self) -> str:
        return {"int": "number", "float": "number", "bool": "checkbox"}.get(self.kind, "text")

    @property
    def step(self) -> str | None:
        return "1" if self.kind == "int" else ("any" if self.kind == "float" else None)

    @property
    def is_select(self) -> bool:
        return self.kind in ("choice", "character")


@dataclass(frozen=True)
class ActionForm:
    name: str
    help: str
    endpoint: str
    fields: tuple[Field, ...]

    @property
    def id(self) -> str:
        return f"act-{self.name}"


def _worded(expected: str) -> str:
    """A choice list as people read it: ``all_out_attack`` is "all out attack" (the select's
    values stay the rules' own)."""
    return expected.replace("_", " ")


def field_of(p: ParamSpec, *, group: str, prefix: str, characters: Sequence[str] = (), value: Any = None) -> Field:
    """The input for one parameter. The spec's default (or ``value``, a current setting) is a
    placeholder, not a value: an empty field is left out of the body, so the rules see exactly
    what was chosen (some refuse two alternatives given together, defaults included)."""
    shown = p.default if value is None else value
    if isinstance(shown, (tuple, list)):
        shown = ",".join(str(v) for v in shown)
    choices = tuple(characters) if p.kind == "character" else p.choices
    return Field(
        name=f"{group}:{p.name}" if group else p.name,
        label=p.name.replace("_", " "),
        kind=p.kind,
        help=f"{p.help} ({_worded(p.expected)})" if p.help else _worded(p.expected),
        required=p.required,
        value=shown,
        choices=choices,
        minimum=p.minimum,
        maximum=p.maximum,
        id=f"{prefix}-{p.name}",
    )


def _actor_field(spec: ActionSpec, prefix: str, characters: Sequence[str]) -> Field | None:
    if spec.actor == "none":
        return None
    required = spec.actor == "required"
    return Field(
        name="actor",
        label="character",
        kind="character",
        help="the acting character" + ("" if required else " (optional)"),
        required=required,
        choices=tuple(characters),
        id=f"{prefix}-actor",
    )


def _rolled_field(prefix: str) -> Field:
    return Field(
        name="rolled",
        label="dice rolled at the table",
        kind="dice",
        help="optional: every die this causes, in order, such as 4 6 2, 4,6,2 or 4+6+2; empty: the server rolls",
        id=f"{prefix}-rolled",
    )


def _picked(field: Field, choices: Sequence[str] | None) -> Field:
    """A text field whose values come from the sheets (a weapon) as a pick-list of them."""
    if not choices or field.kind != "str":
        return field
    return Field(field.name, field.label, "choice", field.help, field.required, None, tuple(choices), id=field.id)


def action_forms(
    system: str,
    campaign: str,
    specs: Mapping[str, ActionSpec],
    characters: Iterable[str],
    picks: Mapping[str, Sequence[str]] | None = None,
) -> list[ActionForm]:
    """One form per action of the system, in the ruleset's order. ``picks``: parameters whose
    values come from the characters' sheets (``Ruleset.turn_picks``), offered as a pick-list."""
    from urllib.parse import quote

    chars = list(characters)
    forms = []
    for spec in specs.values():
        prefix = f"act-{spec.name}"
        fields: list[Field] = []
        actor = _actor_field(spec, prefix, chars)
        if actor is not None:
            fields.append(actor)
        fields += [
            _picked(field_of(p, group="params", prefix=prefix, characters=chars), (picks or {}).get(p.name))
            for p in spec.params
        ]
        fields.append(_rolled_field(prefix))
        endpoint = f"/api/campaigns/{quote(campaign, safe='')}/{system}/actions/{spec.name}"
        forms.append(ActionForm(spec.name, spec.help, endpoint, tuple(fields)))
    return forms
