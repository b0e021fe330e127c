"""What a character's turn offers on a phone: forms and taps built from the ruleset's answer
(``Ruleset.turn``, core/turn.py) and the action specs, nothing per system (issue 27, item 1).

Only the GM and the character's own player are offered a character's turn (:func:`turn_of`
refuses anyone else). The ruleset reads the character through the asker's projection
(``player_view`` for a player), so a turn never names what that player's view hides. A field is
offered only where a player may set it: a parameter that names a GM secret or overrides the
rules (``ParamSpec.gm_only`` / ``overrides_rules``) is left to the rules, as ``campaign/seat.py``
would refuse it from a player. Whatever is sent is an ordinary action posted to the API, so the
seat's rules apply to it there: an action on another's character becomes a request the GM
approves, unless the table allows it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from rulekeeper.core.turn import Choice, Tap, TurnAction, TurnOffer, percent
from rulekeeper.web.pages.forms import Field, field_of
from rulekeeper.web.problems import Problem

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign
    from rulekeeper.core import ActionSpec
    from rulekeeper.web.projections import Viewer

__all__ = ["TapView", "TurnForm", "TurnPage", "sheet_picks", "turn_json", "turn_of", "turns_for"]

#: How the page heads each group of taps and forms, in the order shown.
GROUPS = {"defend": "Defend", "turn": "Act", "roll": "Rolls from the sheet", "spend": "Spend", "rest": "Rest"}


@dataclass(frozen=True)
class TapView:
    label: str
    detail: str
    odds: str
    group: str
    #: The API body it posts (actor and parameters), as JSON text for the button.
    body: str


@dataclass(frozen=True)
class TurnForm:
    name: str
    label: str
    group: str
    fields: tuple[Field, ...]
    #: value -> label for the fields whose choices come from the sheet (by field name).
    labels: Mapping[str, Mapping[str, str]]

    @property
    def id(self) -> str:
        return f"turn-{self.name}"


@dataclass(frozen=True)
class TurnPage:
    actor: str
    name: str
    endpoint: str  # the action routes' prefix: + "/<action>"
    forms: tuple[TurnForm, ...]
    taps: tuple[TapView, ...]
    waiting: tuple[str, ...]

    @property
    def key(self) -> str:
        """The actor as an id fragment (ids are unique on the page, whatever a name holds)."""
        return "".join(c if c.isalnum() else "-" for c in self.actor)

    def taps_in(self, group: str) -> list[TapView]:
        return [t for t in self.taps if t.group == group]

    def forms_in(self, group: str) -> list[TurnForm]:
        return [f for f in self.forms if f.group == group]


def _offered(spec: ActionSpec, wanted: Sequence[str]) -> list[str]:
    """The parameters a player may set, of those the turn asks for."""
    names = {p.name for p in spec.params}
    return [n for n in wanted if n in names and not (spec.param(n).gm_only or spec.param(n).overrides_rules)]


def _form(
    spec: ActionSpec, action: TurnAction, picks: Mapping[str, tuple[Choice, ...]], others: Sequence[str], key: str
) -> TurnForm:
    fields: list[Field] = []
    labels: dict[str, dict[str, str]] = {}
    prefix = f"turn-{key}-{spec.name}"
    for name in _offered(spec, action.params):
        p = spec.param(name)
        field = field_of(p, group="params", prefix=prefix, characters=others)
        if name in picks:
            field = Field(
                name=field.name,
                label=field.label,
                kind="choice",
                help=p.help or field.help,
                required=p.required,
                value=None,
                choices=tuple(c.value for c in picks[name]),
                id=field.id,
            )
            labels[field.name] = {c.value: c.label for c in picks[name]}
        fields.append(field)
    return TurnForm(spec.name, action.label, action.group, tuple(fields), labels)


def _tap(actor: str, tap: Tap) -> TapView:
    body = json.dumps({"action": tap.action, "actor": actor, "params": dict(tap.params)})
    return TapView(tap.label, tap.detail, percent(tap.chance), tap.group, body)


def turn_of(campaign: Campaign, viewer: Viewer, actor: str) -> TurnPage:
    """``actor``'s turn as ``viewer`` may take it; a 403 for anyone but the GM and its player."""
    from rulekeeper.web.projections import character_json

    if actor not in campaign.state.characters:
        from rulekeeper.errors import UnknownNameError

        mine = campaign.state.characters if viewer.is_gm else viewer.characters
        known = ", ".join(sorted(mine)) or "none"
        raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}")
    if not (viewer.is_gm or viewer.plays(actor)):
        raise Problem(403, "forbidden", f"only {actor}'s player or the GM may take {actor}'s turn")
    ruleset, state = campaign.ruleset, campaign.state
    view = character_json(campaign, actor, viewer)["view"]
    offer: TurnOffer = ruleset.turn(state, actor, view)
    specs = ruleset.actions()
    others = [a for a in state.characters if a != actor]
    forms = tuple(_form(specs[a.action], a, offer.picks, others, actor) for a in offer.actions)
    endpoint = f"/api/campaigns/{quote(campaign.name, safe='')}/{campaign.system}/actions"
    name = str(view.get("name") or actor)
    taps = tuple(_tap(actor, t) for t in offer.taps)
    return TurnPage(actor, name, endpoint, forms, taps, offer.waiting)


def turns_for(campaign: Campaign, viewer: Viewer) -> list[TurnPage]:
    """The turns of every character the viewer plays (none for the GM, whose forms are the dashboard's)."""
    if viewer.is_gm:
        return []
    return [turn_of(campaign, viewer, a) for a in campaign.state.characters if viewer.plays(a)]


def turn_json(page: TurnPage) -> dict[str, Any]:
    """The API's form of a turn: what ``GET .../characters/{actor}/turn`` returns."""
    return {
        "actor": page.actor,
        "waiting": list(page.waiting),
        "actions": [
            {
                "action": f.name,
                "label": f.label,
                "group": f.group,
                "endpoint": f"{page.endpoint}/{f.name}",
                "params": [
                    {
                        "name": fl.name.removeprefix("params:"),
                        "kind": fl.kind,
                        "help": fl.help,
                        "required": fl.required,
                        "choices": [
                            {"value": c, "label": f.labels.get(fl.name, {}).get(c, c.replace("_", " "))}
                            for c in fl.choices
                        ],
                    }
                    for fl in f.fields
                ],
            }
            for f in page.forms
        ],
        "taps": [
            {"label": t.label, "detail": t.detail, "odds": t.odds, "group": t.group, **json.loads(t.body)}
            for t in page.taps
        ],
    }


def sheet_picks(campaign: Campaign) -> dict[str, list[str]]:
    """For the GM's forms: every value the characters' sheets give each picked parameter (the
    weapons of everyone at the table), so the GM picks a weapon rather than typing its name."""
    ruleset, state = campaign.ruleset, campaign.state
    out: dict[str, list[str]] = {}
    for actor in state.characters:
        for name, choices in ruleset.turn_picks(state, actor, ruleset.view(state, actor)).items():
            known = out.setdefault(name, [])
            known += [c.value for c in choices if c.value not in known]
    return out
