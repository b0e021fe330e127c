"""Request and response bodies of the fixed operations (the actions' bodies are generated in
:mod:`rulekeeper.web.action_routes`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict

from rulekeeper.dice.typed import MAX_TYPED_DICE

__all__ = [
    "AdvanceRequest",
    "CampaignCreated",
    "CampaignView",
    "Character",
    "CharacterEdit",
    "CharacterNew",
    "CommandResponse",
    "GcsCharacterNew",
    "ImportRequest",
    "InviteRequest",
    "Invited",
    "LogEntry",
    "Me",
    "NewCampaignRequest",
    "Pending",
    "ResolveRequest",
    "RoundRequest",
    "SettingsChange",
    "SheetFileNew",
    "SheetFileUpdate",
    "TypedDice",
    "UndoRequest",
]

#: Dice from the table: numbers, or the text a person typed, read by the one reader the CLI and
#: the pages share (``rulekeeper.dice.typed``) once the campaign knows how many the check takes.
#: A whole number as JSON writes one: ``true``, ``1.5``, ``1.0`` and ``"1"`` are refused, not read
#: as 1 (an action with ``"amount": true`` was applied as 1 point of damage).
Whole = Annotated[int, Strict()]

TypedDice = (
    Annotated[list[Whole], Field(max_length=MAX_TYPED_DICE)]
    | Annotated[str, Field(min_length=1, max_length=4 * MAX_TYPED_DICE)]
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewCampaignRequest(_Strict):
    name: str = Field(min_length=1, max_length=200, description="The campaign's name.")
    system: str = Field(min_length=1, max_length=50, description="A game system's name or alias (see /api/systems)")
    seed: Whole | None = Field(
        None, ge=-(2**63), lt=2**63, description="Seed for the campaign's dice; random if left out."
    )
    gm: str = Field("gm", min_length=1, max_length=200, description="The GM's name.")


class ImportRequest(_Strict):
    document: dict[str, Any] = Field(description="A document made by GET /api/campaigns/{campaign}/export.")
    name: str | None = Field(None, min_length=1, max_length=200, description="Import under another name.")


class CampaignCreated(BaseModel):
    campaign: dict[str, Any]
    gm_token: str = Field(description="The GM's secret; shown only this once.")
    join_url: str


class InviteRequest(_Strict):
    name: str = Field(min_length=1, max_length=200, description="The member's name, e.g. 'ana'.")
    role: Literal["player", "observer", "gm"] = "player"
    characters: list[str] = Field(default_factory=list, max_length=50, description="Characters a player plays.")
    expires_in: Whole | None = Field(None, ge=1, le=10 * 365 * 86400, description="Seconds until the token expires.")


class Invited(BaseModel):
    member: dict[str, Any]
    token: str = Field(description="The member's secret; shown only this once.")
    join_url: str


class CharacterNew(_Strict):
    actor: str = Field(min_length=1, max_length=200, description="Character id, e.g. 'toromeen'.")
    sheet: dict[str, Any] = Field(default_factory=dict, description="The system's sheet fields.")
    player: str | None = Field(None, min_length=1, max_length=200, description="The player who owns this PC.")
    npc: bool = False


class GcsCharacterNew(_Strict):
    actor: str = Field(min_length=1, max_length=200)
    gcs: dict[str, Any] = Field(
        description="The parsed JSON of a GCS character file (older route; characters/files/gcs reads it alike)."
    )
    sheet: dict[str, Any] = Field(default_factory=dict, description="Fields that override the imported ones.")
    player: str | None = Field(None, min_length=1, max_length=200)
    npc: bool = False


class SheetFileNew(_Strict):
    actor: str = Field(min_length=1, max_length=200, description="Character id, e.g. 'toromeen'.")
    document: dict[str, Any] = Field(description="The parsed JSON of a sheet file in the format named in the path.")
    sheet: dict[str, Any] = Field(default_factory=dict, description="Fields that override the imported ones.")
    file_name: str | None = Field(None, max_length=200, description="The file's name, to name it in the report.")
    player: str | None = Field(None, min_length=1, max_length=200)
    npc: bool = False


class SheetFileUpdate(_Strict):
    document: dict[str, Any] = Field(description="The parsed JSON of the changed sheet file.")
    sheet: dict[str, Any] = Field(default_factory=dict, description="Fields that override the imported ones.")
    file_name: str | None = Field(None, max_length=200, description="The file's name, to name it in the report.")


class CharacterEdit(_Strict):
    changes: dict[str, Any] = Field(min_length=1, description="Sheet fields to change; null restores the default.")


class ResolveRequest(_Strict):
    dice: TypedDice | None = Field(
        None,
        description="Dice rolled at the table, in order, as numbers or as typed ('4 6 2', '4,6,2', '4+6+2'); "
        "left out, the server rolls.",
    )


class RoundRequest(_Strict):
    count: Whole = Field(1, ge=1, le=100, description="How many rounds.")


class AdvanceRequest(_Strict):
    duration: str | Whole = Field(description="Seconds, or text such as 30s, 10m, 8h, 3d, 1h30m or '5 rounds'.")
    dice: TypedDice | None = Field(None, description="Dice rolled at the table for what fires, as numbers or as typed.")


class UndoRequest(_Strict):
    seq: Whole | None = Field(
        None, ge=1, description="The command to undo (with what depended on it); default the latest."
    )


class SettingsChange(_Strict):
    automation: dict[str, Literal["auto", "prompt", "note"] | None] | None = Field(
        None, description="Who rolls each kind of check: KIND (or a prefix, or '*') to auto, prompt or note."
    )
    options: dict[str, Any] | None = Field(None, description="Rule options of the system; null restores the default.")
    roll_modes: dict[str, Literal["public", "private", "blind"] | None] | None = Field(
        None,
        description="Who sees each kind of check: KIND (or a prefix, or '*') to public (everyone), private "
        "(its player and the GM) or blind (the GM only); null restores the rules' own (their secret kinds: blind).",
    )


class _Open(BaseModel):
    # Responses carry what the rules and the role give; the fields named here are always there.
    model_config = ConfigDict(extra="allow")


class Step(_Open):
    """One explanation line; the GM's copy adds ``roll``, ``dice``, ``gm_only`` and ``data``."""

    text: str
    actor: str | None
    rule: str
    roll: str | None = None
    dice: list[int] | None = None
    gm_only: bool | None = None
    data: dict[str, Any] | None = None


class LogEntry(_Open):
    """One command of the history as the caller may see it; GM-only fields are absent for others."""

    seq: int
    kind: str
    action: str | None
    actors: list[str]
    at: int
    until: int
    wall_time: str
    undone_by: int | None
    redone_by: int | None
    undoes: list[int]
    redoes: list[int]
    explanation: list[Step]
    summary: str | None = Field(None, description="GM only.")
    command: dict[str, Any] | None = Field(None, description="GM only.")
    result: dict[str, Any] | None = Field(None, description="GM only.")
    dice: list[list[int]] | None = Field(None, description="GM only: [sides, value] in the order rolled.")
    key: str | None = Field(None, description="GM only: the idempotency key.")


class Pending(_Open):
    """A pending check: what to roll; the GM's copy (and a player's where odds reveal nothing)
    adds the check and its exact odds. The GM's copy also says who may roll it: ``who_rolls``
    ("player" when a member plays the character and the check is not secret, so its player can
    roll it from their page, else "gm") and ``player_may_roll`` (the same as a flag)."""

    id: int
    actor: str | None
    purpose: str
    dice: list[str]


class Character(_Open):
    actor: str
    access: Literal["gm", "player", "table"] = Field(
        description="gm: the GM's whole view; player: the player's own view; table: name and visible conditions."
    )
    view: dict[str, Any]
    player: str | None = Field(None, description="GM only.")
    npc: bool | None = Field(None, description="GM only.")


class You(BaseModel):
    name: str
    role: Literal["gm", "player", "observer"]
    characters: list[str]


class CampaignView(_Open):
    name: str
    system: str
    version: int
    clock: int
    round_seconds: int
    you: You
    characters: list[Character]
    pending: list[Pending]
    waiting: list[dict[str, Any]] = Field(
        default_factory=list,
        description=(
            "Checks the clock has run past, each with what waits behind it (id, actor, what, due, later, "
            "commands, text). A player sees only their own characters' checks that are not secret, "
            "numbered as they count checks."
        ),
    )
    settings: dict[str, Any]
    gm: str | None = Field(None, description="GM only.")
    timers: list[dict[str, Any]] | None = Field(None, description="GM only.")


class Me(BaseModel):
    campaign: str
    name: str
    role: Literal["gm", "player", "observer"]
    characters: list[str]


class CommandResponse(BaseModel):
    """A command's answer, projected for the caller (see docs/api.md)."""

    campaign: str
    seq: int
    version: int
    retried: bool
    entry: LogEntry | None = Field(description="The command's log entry as the caller may see it.")
    pending: list[Pending]
    clock: int
    result: dict[str, Any] | None = Field(None, description="GM only.")
    request: dict[str, Any] | None = Field(
        None, description="When a player's action on someone else's character waits for the GM: the request."
    )
    undone: list[int] | None = Field(None, description="GM only.")
    redone: list[int] | None = Field(None, description="GM only.")
    gcs: dict[str, Any] | None = Field(
        None, description="GCS import only: fields left unused (by JSON path) and where GCS's stored values differ."
    )
    sheet_file: dict[str, Any] | None = Field(
        None, description="Sheet-file import only: fields left unused (by the file's paths), where the file differs."
    )
