"""Plain records that cross the line between the campaign layer and a storage backend.

The campaign layer builds and reads these; a backend only stores them. JSON-valued columns
whose content only the campaign layer interprets (an outcome, a snapshot) travel as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "META_KINDS",
    "UNKNOWN_TIME",
    "CampaignInfo",
    "CampaignRecord",
    "EventRecord",
    "MemberRecord",
    "NewCampaign",
    "NewMember",
    "RefusalRecord",
    "SnapshotRecord",
    "timestamp",
]

#: Event kinds that change which commands count rather than the game itself.
META_KINDS: frozenset[str] = frozenset({"undo", "redo"})


@dataclass(frozen=True)
class NewCampaign:
    """What a campaign is made from: the rows of its header, before it has an id."""

    name: str
    system: str
    seed: int
    gm: str
    settings: Mapping[str, Any]
    created: float


@dataclass(frozen=True)
class CampaignRecord:
    """A stored campaign's header; ``version`` is the number of events when it was read."""

    id: int
    name: str
    system: str
    seed: int
    gm: str
    settings: Mapping[str, Any]
    created: float
    version: int


#: Shown for a time a row cannot hold (a corrupt or hostile row written by an older version).
UNKNOWN_TIME = datetime(1970, 1, 1, tzinfo=UTC)


def timestamp(seconds: Any) -> datetime | None:
    """``seconds`` since 1970 as a UTC time; None when the value is no time at all (1e300, NaN)."""
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (OverflowError, ValueError, OSError, TypeError):
        return None


@dataclass(frozen=True)
class CampaignInfo:
    """One line of ``Store.list_campaigns()``; ``problem`` says why a damaged row cannot be opened."""

    name: str
    system: str
    version: int
    gm: str
    created: datetime
    problem: str | None = None

    @classmethod
    def of(cls, record: CampaignRecord) -> CampaignInfo:
        created = timestamp(record.created)
        return cls(
            name=record.name,
            system=record.system,
            version=record.version,
            gm=record.gm,
            created=created or UNKNOWN_TIME,
            problem=None if created is not None else f"its creation time {record.created!r} is not a date",
        )


@dataclass(frozen=True)
class EventRecord:
    """One entry of a campaign's append-only history.

    ``seq`` counts from 1 and equals the campaign version right after the event. ``dice`` holds
    every die the command rolled as ``(sides, value)``, in order. ``outcome`` is the JSON text of
    the recorded result and explanation. ``refs`` are the commands an undo or redo event turns
    off or back on. ``at``/``until`` are the game clock before and after; ``next_id`` and
    ``next_id_after`` the state's id counter before and after, so a replay hands out the same
    ids even when an earlier command has been undone.
    """

    seq: int
    kind: str
    command: Mapping[str, Any]
    dice: tuple[tuple[int, int], ...]
    outcome: str
    actors: tuple[str, ...]
    refs: tuple[int, ...]
    at: int
    until: int
    next_id: int
    next_id_after: int
    key: str | None
    base_version: int | None
    wall_time: float
    #: ``outcome`` decoded -- the record and its explanation steps -- when the command that
    #: wrote this event still holds them (never stored, never compared): its answer needs no
    #: second decoding.
    decoded: tuple[Mapping[str, Any], tuple[Any, ...]] | None = field(default=None, compare=False, repr=False)

    @property
    def is_meta(self) -> bool:
        return self.kind in META_KINDS


@dataclass(frozen=True)
class SnapshotRecord:
    """The folded state (JSON text) right after event ``version``."""

    version: int
    data: str


@dataclass(frozen=True)
class NewMember:
    """A member before it is stored: a name, a role, bound characters and the token's two halves.

    ``token_hash`` is the SHA-256 hex digest of the token's secret half; the secret itself is
    never stored. ``expires`` is a Unix time or ``None`` for a token that lasts until revoked.
    """

    name: str
    role: str
    characters: tuple[str, ...]
    token_id: str
    token_hash: str
    created: float
    expires: float | None = None


@dataclass(frozen=True)
class MemberRecord:
    """A stored member of a campaign; ``revoked`` is when its token was ended, if it was."""

    id: int
    campaign_id: int
    name: str
    role: str
    characters: tuple[str, ...]
    token_id: str
    token_hash: str
    created: float
    expires: float | None
    revoked: float | None


@dataclass(frozen=True)
class RefusalRecord:
    """An attempt the seat refused (``campaign/seat.py``), kept for the GM: who, what, why, when."""

    member: str
    role: str
    what: str
    why: str
    wall_time: float

    def to_json(self) -> dict[str, Any]:
        return {"by": self.member, "role": self.role, "what": self.what, "why": self.why, "wall_time": self.wall_time}
