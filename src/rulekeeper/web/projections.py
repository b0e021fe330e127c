"""What each role may see, as JSON: the one place the server decides what leaves it.

Every response and every live event about a campaign is built here, from the campaign and a
:class:`Viewer`, through the ruleset's own projections:

* the GM sees everything: ``ruleset.view`` of every character, pending checks with their
  exact odds, every timer, the whole log with commands, results and dice;
* a player sees their own characters through ``ruleset.player_view``, other characters through
  ``ruleset.table_view`` (name and visible conditions), only their own pending checks through
  ``ruleset.player_pending`` (no odds or totals that would reveal a secret), and a log in which
  each entry keeps only the lines ``ruleset.player_lines`` words for a player about their own
  characters or the whole table -- no command parameters, results or dice, which can carry the
  GM's secrets (an unknown stat, the "dangerous" flag of a secret sense roll);
* an observer sees what a player without characters sees.

Pages (issue 15) render these same dictionaries, so a page cannot show more than the API does.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.campaign.members import Identity, Role
from rulekeeper.core.frozen import evolve
from rulekeeper.core.stakes import pending_entry
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError
from rulekeeper.limits import MAX_NAME_CHARS

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, CommandResult, LogEntry, Roles
    from rulekeeper.campaign.reading import PlayerTimeline
    from rulekeeper.campaign.results import UndoPreview
    from rulekeeper.core import GameState, Ruleset, Step

__all__ = [
    "Viewer",
    "campaign_json",
    "character_json",
    "characters_json",
    "command_json",
    "key_as_sent",
    "log_entry_json",
    "pending_json",
    "player_text",
    "redact_error",
    "request_json",
    "requests_json",
    "set_aside_json",
    "undo_preview_json",
    "waiting_json",
]


_KEY_SEPARATOR = "\x1f"
_DIGEST_MARK = "\x1e"


def key_as_sent(stored: str | None) -> str | None:
    """An idempotency key as its sender wrote it (``Viewer.key``), or its digest if it was long."""
    if stored is None:
        return None
    if stored.startswith(_DIGEST_MARK):
        return "sha256:" + stored.removeprefix(_DIGEST_MARK)
    return stored.split(_KEY_SEPARATOR, 1)[-1]


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a role, a member name and the characters that member plays.

    ``timeline`` is how anyone but the GM counts seqs, versions and pending-check ids
    (``campaign.reading.PlayerTimeline``): every number this module hands them goes through it,
    and every number they send back (``If-Match``, ``Last-Event-ID``, a check's id) is read
    through it, so a gap cannot tell them the GM did something in secret."""

    role: Role
    name: str
    characters: frozenset[str] = frozenset()
    timeline: PlayerTimeline | None = None

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @classmethod
    def of(cls, identity: Identity, roles: Roles) -> Viewer:
        """The identity's characters: those it was invited for plus those the campaign records
        it playing (``char add --player``), so a character added later shows up by itself."""
        if identity.role != "player":
            return cls(identity.role, identity.name)
        mine = set(identity.characters) | set(roles.characters_of(identity.name))
        return cls("player", identity.name, frozenset(mine))

    def plays(self, actor: str | None) -> bool:
        return actor is not None and actor in self.characters

    def seeing(self, timeline: PlayerTimeline) -> Viewer:
        """This viewer counting by ``timeline`` (the GM counts by the table's own numbers)."""
        return self if self.is_gm else evolve(self, timeline=timeline)

    def seq(self, seq: int) -> int:
        """A seq or version as this viewer counts it."""
        return seq if self.timeline is None else self.timeline.seq(seq)

    def seqs(self, seqs: Iterable[int]) -> list[int]:
        """The seqs this viewer sees of ``seqs``, as they count them (an undo lists the secret
        commands it took back too)."""
        shows = (lambda _s: True) if self.timeline is None else self.timeline.shows
        return [self.seq(s) for s in seqs if shows(s)]

    def key(self, sent: str | None) -> str | None:
        """The idempotency key ``sent`` as the store keeps it for this viewer: a player's in a
        space of their own, so no one can learn whether another member used a key, replay their
        command for its answer, or spend a key a bot will use. (A header cannot carry the
        separator, a control character, so no two members' keys meet; the GM's are the table's,
        as the terminal's are.) One too long for the store is kept as its digest."""
        if sent is None or self.is_gm:
            return sent
        scoped = f"{self.name}{_KEY_SEPARATOR}{sent}"
        if len(scoped) <= MAX_NAME_CHARS:
            return scoped
        # Hashed whole, name and all, under a mark of its own, so no short key of anyone's can
        # be made to land on it.
        return _DIGEST_MARK + hashlib.sha256(scoped.encode("utf-8", "surrogatepass")).hexdigest()

    def actual(self, counted: int) -> int:
        """The table's seq or version of one this viewer sent."""
        return counted if self.timeline is None else self.timeline.actual(counted)

    def check_id(self, pending_id: int) -> int:
        return pending_id if self.timeline is None else self.timeline.check_id(pending_id)

    def actual_check(self, counted: int) -> int:
        return counted if self.timeline is None else self.timeline.actual_check(counted)

    def shown_check(self, pending_id: int) -> bool:
        """Whether this viewer was shown the check's id when it was asked (the GM always is)."""
        return self.timeline is None or self.timeline.shows_check(pending_id)


def player_text(ruleset: Ruleset[Any], step: Step) -> str | None:
    """The wording of one explanation step a player may read (``ruleset.player_text``), or
    ``None`` if it stays with the GM."""
    return ruleset.player_text(step)


def _step_gm(ruleset: Ruleset[Any], step: Step) -> dict[str, Any]:
    return {**step.to_json(), "gm_only": player_text(ruleset, step) is None}


def _steps_for(ruleset: Ruleset[Any], steps: Iterable[Step], viewer: Viewer) -> list[dict[str, Any]]:
    if viewer.is_gm:
        return [_step_gm(ruleset, s) for s in steps]
    from rulekeeper.campaign.reading import readable_steps

    return [
        {"text": text, "actor": step.actor, "rule": str(step.rule)}
        for step, text in readable_steps(ruleset, steps, viewer.plays, viewer.timeline)
    ]


def _hidden_from_players(ruleset: Ruleset[Any], entry: LogEntry) -> bool:
    from rulekeeper.campaign.reading import hidden_from_players

    return hidden_from_players(ruleset, entry.kind, entry.explanation)


def _action_name(command: Mapping[str, Any]) -> str | None:
    action = command.get("action")
    return str(action.get("name")) if isinstance(action, Mapping) and action.get("name") else None


def log_entry_json(ruleset: Ruleset[Any], entry: LogEntry, viewer: Viewer) -> dict[str, Any] | None:
    """One log entry for ``viewer``; ``None`` when the entry is not for them at all."""
    common: dict[str, Any] = {
        "seq": entry.seq,
        "kind": entry.kind,
        "action": _action_name(entry.command),
        "actors": list(entry.actors),
        "at": entry.at,
        "until": entry.until,
        "wall_time": entry.wall_time.isoformat(),
        "undone_by": entry.undone_by,
        "redone_by": entry.redone_by,
        "undoes": list(entry.undoes),
        "redoes": list(entry.redoes),
    }
    if viewer.is_gm:
        return {
            **common,
            "summary": entry.summary,
            "command": dict(entry.command),
            "result": dict(entry.result),
            "dice": [list(d) for d in entry.dice],
            "key": key_as_sent(entry.key),
            "explanation": _steps_for(ruleset, entry.explanation, viewer),
        }
    if _hidden_from_players(ruleset, entry):
        return None
    counted = {
        "seq": viewer.seq(entry.seq),
        "undone_by": None if entry.undone_by is None else viewer.seq(entry.undone_by),
        "redone_by": None if entry.redone_by is None else viewer.seq(entry.redone_by),
        "undoes": viewer.seqs(entry.undoes),
        "redoes": viewer.seqs(entry.redoes),
    }
    return {**common, **counted, "explanation": _steps_for(ruleset, entry.explanation, viewer)}


def request_json(ruleset: Ruleset[Any], request: Mapping[str, Any], viewer: Viewer) -> dict[str, Any]:
    """One request as its player and the GM see it: the player's own action and its answer.

    The parameters are as applied (amended on approval). A player is not shown those of the
    GM's amendment that a player may not set (``ParamSpec.gm_only``, ``overrides_rules``): one
    may name a secret (a stat the player is not told) or be the GM's modifier or threshold."""
    action = request.get("action") or {}
    params = dict(request.get("params") or action.get("params") or {})
    if not viewer.is_gm:
        spec = ruleset.actions().get(str(action.get("name")))
        gms = {p.name for p in spec.params if p.gm_only or p.overrides_rules} if spec is not None else set(params)
        sent = action.get("params") or {}
        params = {k: v for k, v in params.items() if k not in gms or (k in sent and sent[k] == v)}
    shown = {
        "id": request["id"],
        "by": request["by"],
        "status": request["status"],
        "action": action.get("name"),
        "actor": action.get("actor"),
        "params": params,
        "others": list(request.get("others") or ()),
    }
    if request.get("note"):
        shown["note"] = request["note"]
    return shown


def requests_json(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    """Every request for the GM; a player's own (nobody else's) otherwise."""
    by = None if viewer.is_gm else viewer.name
    return (
        [request_json(campaign.ruleset, r, viewer) for r in campaign.requests(by=by)]
        if viewer.is_gm or viewer.role == "player"
        else []
    )


def set_aside_json(campaign: Campaign) -> list[dict[str, Any]]:
    """The GM's list of consequences set aside: what, for whom, due when, and why it failed."""
    from rulekeeper.core.engine import SET_ASIDE

    return [
        {
            "id": t.id,
            "label": t.label,
            "actor": t.actor,
            "due": t.due,
            "kind": t.kind,
            "reason": t.data[SET_ASIDE],
            "data": {k: v for k, v in t.data.items() if k != SET_ASIDE},
        }
        for t in campaign.set_aside()
    ]


def pending_json(
    ruleset: Ruleset[Any], state: GameState[Any], viewer: Viewer, players: Collection[str] = ()
) -> list[dict[str, Any]]:
    """Pending checks: all of them with odds for the GM; a player's own, as the ruleset words them
    (``player_pending``), GM-secret checks left out.

    The GM's copy says who may roll each (``who_rolls``: ``player`` when a member plays the
    character, ``players`` name the characters members play, and the check is not secret, else
    ``gm``; ``player_may_roll`` the same as a flag), so a page offers "its player can roll it" only
    where it is true."""
    out: list[dict[str, Any]] = []
    for p in state.pending:
        if viewer.is_gm:
            secret = ruleset.is_secret(p, state.settings)
            theirs = p.actor is not None and p.actor in players and not secret
            out.append(
                {
                    **pending_entry(p),
                    "secret": secret,
                    "who_rolls": "player" if theirs else "gm",
                    "player_may_roll": theirs,
                }
            )
        elif viewer.plays(p.actor) and not ruleset.is_secret(p, state.settings) and viewer.shown_check(p.id):
            shown = ruleset.player_pending(state, p)
            out.append({**shown, "id": viewer.check_id(p.id)} if "id" in shown else shown)
    return out


def waiting_json(ruleset: Ruleset[Any], state: GameState[Any], viewer: Viewer) -> list[dict[str, Any]]:
    """The checks the clock has run past and what waits behind them (``core.waiting``): all of them
    for the GM; for anyone else, as ``campaign.reading.player_waiting`` lets a player learn it."""
    if viewer.is_gm:
        from rulekeeper.core.waiting import what_waits

        return [w.to_json() for w in what_waits(state)]
    from rulekeeper.campaign.reading import player_waiting

    return player_waiting(ruleset, state, viewer.plays, viewer.check_id)


def character_json(campaign: Campaign, actor: str, viewer: Viewer) -> dict[str, Any]:
    """One character: the GM's view, its player's view, or what the table sees."""
    ruleset, state, roles = campaign.ruleset, campaign.state, campaign.roles
    if viewer.is_gm:
        return {
            "actor": actor,
            "access": "gm",
            "player": roles.player_of(actor),
            "npc": actor in roles.npcs,
            "view": ruleset.view(state, actor),
        }
    if viewer.plays(actor):
        return {"actor": actor, "access": "player", "view": ruleset.player_view(state, actor)}
    return {"actor": actor, "access": "table", "view": ruleset.table_view(state, actor)}


def characters_json(campaign: Campaign, viewer: Viewer) -> list[dict[str, Any]]:
    return [character_json(campaign, actor, viewer) for actor in campaign.state.characters]


def campaign_json(campaign: Campaign, viewer: Viewer) -> dict[str, Any]:
    """The campaign as one screen: clock, characters, pending checks (and, for the GM, timers)."""
    state = campaign.state
    out: dict[str, Any] = {
        "name": campaign.name,
        "system": campaign.system,
        "version": viewer.seq(campaign.version),
        "clock": state.clock,
        "round_seconds": int(state.settings.options.get("round_seconds", campaign.ruleset.round_seconds)),
        "you": {"name": viewer.name, "role": viewer.role, "characters": sorted(viewer.characters)},
        "characters": characters_json(campaign, viewer),
        "pending": pending_json(campaign.ruleset, state, viewer, campaign.table.players),
        "waiting": waiting_json(campaign.ruleset, state, viewer),
        "settings": settings_json(campaign),
    }
    if viewer.is_gm:
        roles = campaign.roles
        out["gm"] = roles.gm
        out["timers"] = [
            {"id": t.id, "actor": t.actor, "kind": t.kind, "label": t.label, "due": t.due} for t in state.timers
        ]
    return out


def settings_json(campaign: Campaign) -> dict[str, Any]:
    from rulekeeper.campaign.table import settings_json as table_settings

    return table_settings(campaign.state.settings)


def command_json(campaign: Campaign, result: CommandResult, viewer: Viewer) -> dict[str, Any]:
    """A command's answer: its log entry as the viewer sees it, plus the campaign's new version."""
    from rulekeeper.campaign.facade import log_entry

    # As written: a command just made (or retried) is answered before anything can undo it.
    event = result.event
    if event is None:
        with campaign.store.reading(campaign.record.id) as history:
            event = history.event(result.seq)
    entry = None if event is None else log_entry(event)
    shown = None if entry is None else log_entry_json(campaign.ruleset, entry, viewer)
    out: dict[str, Any] = {
        "campaign": campaign.name,
        "seq": viewer.seq(result.seq),
        "version": viewer.seq(result.version),
        "retried": result.retried,
        "entry": shown,
        "pending": pending_json(campaign.ruleset, campaign.state, viewer, campaign.table.players),
        "clock": campaign.state.clock,
    }
    asked = result.result.get("request") if result.command.get("kind") == "request" else None
    if isinstance(asked, Mapping) and (viewer.is_gm or asked.get("by") == viewer.name):
        out["request"] = request_json(campaign.ruleset, asked, viewer)
    if viewer.is_gm:
        out["result"] = dict(result.result)
        out["undone"] = list(result.undone)
        out["redone"] = list(result.redone)
    return out


def undo_preview_json(campaign: Campaign, preview: UndoPreview) -> dict[str, Any]:
    """Only the GM undoes, so the preview is the GM's: every command that would go, and why."""
    from rulekeeper.campaign.commands import summarize

    with campaign.store.reading(campaign.record.id) as history:
        summaries = {}
        for seq in preview.refs:
            event = history.event(seq)
            summaries[seq] = summarize(event.command, event.refs) if event is not None else ""
    return {
        "version": preview.version,
        "commands": [
            {"seq": seq, "summary": summaries[seq], "reason": preview.reasons.get(seq, "the command chosen")}
            for seq in preview.refs
        ],
        "explanation": [_step_gm(campaign.ruleset, s) for s in preview.explanation],
    }


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_WITHHELD = "refused for a reason that involves what only the GM knows; ask the GM"


def redact_error(campaign: Campaign, viewer: Viewer, exc: Exception) -> Exception:
    """The error a command raised, as ``viewer`` may read it.

    The GM reads every error as raised. A player's stale version lists what changed as their log
    does (the GM's command words can carry secrets: an unknown stat, a Danger Sense
    flag); a refusal or bad-input message that names one of the ruleset's ``secret_words`` is
    withheld whole, keeping its status. (A parameter that names a secret, ``ParamSpec.gm_only``,
    is refused to players before the rules run, whatever its value, so guessing learns nothing.)
    Every seq, version and check id in it is counted as the player counts them (``Viewer``).
    """
    from rulekeeper.campaign import CampaignConflict
    from rulekeeper.campaign.results import CheckAlreadyResolved, KeyReused

    if viewer.is_gm:
        return exc
    if isinstance(exc, CampaignConflict):
        return CampaignConflict(
            exc.campaign,
            viewer.seq(exc.expected_version),
            viewer.seq(exc.current_version),
            _changes_for(campaign, viewer, exc.changes),
        )
    if isinstance(exc, KeyReused):  # its summary is the earlier command in the GM's words
        return InputError(
            f"idempotency key {key_as_sent(exc.key)!r} was already used by #{viewer.seq(exc.seq)} "
            "for a different command",
            expected=exc.expected,
        )
    if isinstance(exc, CheckAlreadyResolved):  # its summary is the resolving command in the GM's words
        return RuleRefusal(
            f"check #{viewer.check_id(exc.check_id)} was already resolved by #{viewer.seq(exc.seq)}; "
            "look at that entry in the log"
        )
    if not isinstance(exc, (InputError, RuleRefusal)):
        return exc
    exc = _counted(exc, viewer)
    words = campaign.ruleset.secret_words(campaign.state)
    # A quoted name is the request's own word echoed back ("no skill 'vig' on the sheet"): it
    # says nothing the player did not type, and withholding it would tell a right guess of a
    # secret name from a wrong one. Only what the rules add of their own is searched.
    said = _QUOTED.sub(" ", " ".join(str(part) for part in (exc, getattr(exc, "expected", None)) if part))
    if not words or not re.search(r"\b(" + "|".join(map(re.escape, words)) + r")\b", said, re.IGNORECASE):
        return exc
    if isinstance(exc, UnknownNameError):
        return UnknownNameError(_WITHHELD)
    if isinstance(exc, InputError):
        return InputError(_WITHHELD, where=exc.where)
    return RuleRefusal(_WITHHELD)


def _counted(exc: InputError | RuleRefusal, viewer: Viewer) -> InputError | RuleRefusal:
    """``exc`` with the check ids it names as ``viewer`` counts them ("check #3: ...")."""
    from rulekeeper.campaign.reading import counted_check_ids

    if viewer.timeline is None:
        return exc
    message = exc.message if isinstance(exc, InputError) else str(exc)
    counted = counted_check_ids(message, viewer.timeline)
    if counted == message:
        return exc
    if isinstance(exc, UnknownNameError):
        return UnknownNameError(counted)
    if isinstance(exc, InputError):
        return InputError(counted, expected=exc.expected, where=exc.where)
    return type(exc)(counted)


def _changes_for(campaign: Campaign, viewer: Viewer, changes: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    from rulekeeper.campaign.facade import log_entry

    out = []
    with campaign.store.reading(campaign.record.id) as history:
        for seq, _summary in changes:
            event = history.event(seq)
            shown = None if event is None else log_entry_json(campaign.ruleset, log_entry(event), viewer)
            if shown is not None:
                lines = [step["text"] for step in shown["explanation"]]
                out.append((shown["seq"], "; ".join(lines) if lines else str(shown["action"] or shown["kind"])))
    return out
