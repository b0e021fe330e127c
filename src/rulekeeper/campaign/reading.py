"""What a player may read: decided here once, for every front end.

A step reaches a player only when it is about one of the player's characters or about no one
(or reports a check the table rolls ``public``), and only in the wording the rules give players
(``Ruleset.player_text``: never a GM-only step nor a check rolled ``blind``). The CLI's
``--as-player`` log (``Campaign.player_log``) and the web's projections (``web/projections.py``)
both ask :func:`readable_steps`. :class:`PlayerTimeline` is how players count seqs, versions and
check ids, so no gap in them tells of a secret. What a player may *set* (GM-only and
rule-overriding parameters, which would turn results into probes of a secret stat) is the
seat's decision, ``campaign/seat.py``.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.core.section import ROLL_MODE_KEY

if TYPE_CHECKING:
    from rulekeeper.core.explain import Step
    from rulekeeper.core.ruleset import Ruleset
    from rulekeeper.core.state import GameState

__all__ = [
    "HIDEABLE_KINDS",
    "REVERTS",
    "PlayerTimeline",
    "counted_check_ids",
    "hidden_from_players",
    "player_waiting",
    "readable_steps",
    "reversal_wording",
]

#: The step data key an undo or redo line carries: the seq it reverts.
REVERTS = "reverts"
#: Entry kinds that can be a GM secret whole (a secret roll, its resolution, its undoing).
HIDEABLE_KINDS = frozenset({"act", "resolve", "undo", "redo"})


def player_waiting(
    ruleset: Ruleset[Any], state: GameState[Any], plays: Callable[[str | None], bool], check_id: Callable[[int], int]
) -> list[dict[str, Any]]:
    """What waits for the table's dice (``core.waiting``), as a player may learn it: only the checks
    their own characters roll that are not the GM's secret (a blind check, its id and its count stay
    hidden), named in the rules' player wording and numbered as the player counts checks; and of
    what waits behind each, only what concerns their own characters."""
    from rulekeeper.core.waiting import Waiting, holding, what_waits
    from rulekeeper.core.waiting_commands import COMMAND_TIMER

    out: list[dict[str, Any]] = []
    for waiting in what_waits(state):
        pending = waiting.pending
        if not plays(pending.actor) or ruleset.is_secret(pending, state.settings):
            continue
        shown = ruleset.player_pending(state, pending)
        what = str((shown.get("stakes") or {}).get("for") or shown.get("check") or waiting.what)
        theirs = [
            t
            for t in state.timers
            if t.due <= state.clock and plays(t.actor) and getattr(holding(state, t.due), "id", None) == pending.id
        ]
        mine = Waiting(pending, len(theirs), sum(t.kind == COMMAND_TIMER for t in theirs))
        number = check_id(pending.id)
        out.append(
            {
                "id": number,
                "actor": pending.actor,
                "what": what,
                "due": pending.created,
                "later": mine.later,
                "commands": mine.commands,
                "text": mine.text_as(what, number),
            }
        )
    return out


def readable_steps(
    ruleset: Ruleset[Any], steps: Iterable[Step], plays: Callable[[str], bool], timeline: PlayerTimeline | None = None
) -> list[tuple[Step, str]]:
    """Each step the player who ``plays`` some characters may read, with its wording for them;
    a pending check's id in it is counted as players count them (``timeline``)."""
    out = []
    for step in steps:
        # Another character's line is for its player alone, unless it reports a public roll.
        if step.actor is not None and not plays(step.actor) and step.data.get(ROLL_MODE_KEY) != "public":
            continue
        text = ruleset.player_text(step)
        if text is not None and REVERTS in step.data:
            # An undo or redo line is read in the player's own words, never the GM's summary
            # of the command (its parameters can carry a secret: a Danger Sense flag).
            text = step.data.get("player")
        if text is not None and timeline is not None:
            listed = _waiting_list(text, timeline)
            if listed is None:
                continue  # every check it named is hidden from players: the line itself would tell
            text = _counted_ids(listed, step, timeline)
        if text is not None:
            out.append((step, text))
    return out


_CHECK_ID = re.compile(r"((?:pending )?check #)(\d+)\b")
#: The engine's list of checks still waiting as time passes ("pending check(s) #5, #8").
_WAITING_LIST = re.compile(r"pending check\(s\) (#\d+(?:, #\d+)*)")


def _waiting_list(text: str, timeline: PlayerTimeline) -> str | None:
    """``text`` with a list of waiting checks cut to those players were shown, each counted as
    they count ids (an auto-rolled or blind check's own id would say that it exists); None when
    none is left."""
    match = _WAITING_LIST.search(text)
    if match is None:
        return text
    ids = [int(x) for x in re.findall(r"#(\d+)", match[1])]
    shown = [f"#{timeline.check_id(i)}" for i in ids if timeline.shows_check(i)]
    if not shown:
        return None
    return text[: match.start(1)] + ", ".join(shown) + text[match.end(1) :]


def _counted_ids(text: str, step: Step, timeline: PlayerTimeline) -> str:
    """``text`` with each pending check's id as the player counts it: the step's own check
    (``data["pending"]``, written "#N") and any "pending check #N" the rules wrote."""
    own = step.data.get("pending")
    if isinstance(own, int):
        text = re.sub(rf"#{own}\b", f"#{timeline.check_id(own)}", text)
        return text
    return counted_check_ids(text, timeline)


def counted_check_ids(text: str, timeline: PlayerTimeline) -> str:
    """``text`` (a line, an error) with each "check #N" as players count check ids."""
    return _CHECK_ID.sub(lambda m: f"{m[1]}{timeline.check_id(int(m[2]))}", text)


def hidden_from_players(ruleset: Ruleset[Any], kind: str, steps: Sequence[Step]) -> bool:
    """A GM secret with nothing in it for players (the resolution of a GM-secret roll, or the
    undoing of one) is the GM's business from start to end: even its heading would tell players
    what the GM rolled, and for whom. Other entries keep their heading, so everyone's log has
    the table's commands; time passing always does (its live event moves every page's clock),
    secret lines taken out."""
    if kind not in HIDEABLE_KINDS:
        return False
    return any(ruleset.is_secret_step(s) for s in steps) and all(ruleset.player_text(s) is None for s in steps)


def reversal_wording(verb: str, kind: str, command: Mapping[str, Any]) -> str:
    """How a player reads that a command was undone or redone: what it was, never its
    parameters, nor its seq (the player's numbering is not the GM's)."""
    action = command.get("action")
    if kind == "act" and isinstance(action, Mapping):
        who = f"{action.get('actor')}'s " if action.get("actor") else ""
        return f"{who}{action.get('name')}: {verb}"
    if kind == "resolve":
        return f"a check's roll: {verb}"
    return f"{kind.replace('_', ' ')}: {verb}"


@dataclass(frozen=True)
class PlayerTimeline:
    """The table's numbering as players count it: what was hidden from them is not counted.

    Seqs, versions (ETags) and pending-check ids are handed out for every command and check,
    the GM's secret ones too, so a gap in them would tell a player that the GM rolled something
    in secret. A player is shown each number *counted over what players may see*:
    :meth:`seq` turns a seq or version into the player's count, :meth:`actual` turns it back
    (a ``Last-Event-ID`` or ``If-Match`` a player sends); :meth:`check_id` and
    :meth:`actual_check` do the same for pending checks. Built from the history once, then
    extended with each new entry (``hidden`` never changes for an entry once written).
    """

    hidden: tuple[int, ...] = ()
    hidden_checks: tuple[int, ...] = ()
    upto: int = 0

    def seq(self, seq: int) -> int:
        return seq - bisect_right(self.hidden, seq)

    def shows(self, seq: int) -> bool:
        """Whether players see the entry ``seq`` at all."""
        at = bisect_left(self.hidden, seq)
        return at == len(self.hidden) or self.hidden[at] != seq

    def actual(self, counted: int) -> int:
        return _uncount(self.hidden, counted)

    def check_id(self, pending_id: int) -> int:
        return pending_id - bisect_right(self.hidden_checks, pending_id)

    def actual_check(self, counted: int) -> int:
        return _uncount(self.hidden_checks, counted)

    def extended(
        self, ruleset: Ruleset[Any], entries: Iterable[tuple[int, str, Sequence[Step], range]]
    ) -> PlayerTimeline:
        """This timeline with ``entries`` after it: ``(seq, kind, explanation, ids handed out)``.

        Ids are shared by checks, conditions and timers, and a check the engine rolls at once
        takes one as well, so any id players are not shown (a blind Danger Sense rolled inside
        a visible ``sense``, a condition, a timer) would leave a gap. Players therefore count
        only the ids they are shown: a check announced as waiting (or held) in a line that is
        not secret, in an entry not hidden whole. Every other id an entry handed out is hidden.
        Judged from the recorded lines alone, so old histories count the same way."""
        hidden, checks, upto = list(self.hidden), list(self.hidden_checks), self.upto
        for seq, kind, steps, ids in entries:
            if seq <= upto:
                continue
            upto = seq
            whole = hidden_from_players(ruleset, kind, steps)
            if whole:
                hidden.append(seq)
            shown = (
                set()
                if whole
                else {
                    int(s.data["pending"])
                    for s in steps
                    if isinstance(s.data.get("pending"), int) and not ruleset.is_secret_step(s)
                }
            )
            # An id is judged once, by the entry that handed it out, so a number a player was
            # shown never changes (ids only grow: hiding a later one moves no earlier count).
            fresh = [i for i in ids if i not in shown]
            if fresh and checks and fresh[0] <= checks[-1]:
                checks = sorted({*checks, *fresh})  # not in order (never, for ids that only grow)
            else:
                checks.extend(fresh)
        return PlayerTimeline(tuple(hidden), tuple(checks), upto)

    def shows_check(self, pending_id: int) -> bool:
        """Whether players were ever shown the check ``pending_id`` (one asked in secret stays
        the GM's even when the table later makes its kind visible: its number would collide
        with the check counted before it)."""
        at = bisect_left(self.hidden_checks, pending_id)
        return at == len(self.hidden_checks) or self.hidden_checks[at] != pending_id


def _uncount(hidden: Sequence[int], counted: int) -> int:
    """The smallest number not in ``hidden`` that is the ``counted``-th such (0 stays 0): the
    smallest ``n`` whose count ``n - (hidden up to n)`` reaches ``counted`` (a binary search, as
    every command's ids, conditions and timers may be in ``hidden``)."""
    if counted <= 0:
        return counted
    low, high = counted, counted + len(hidden)
    while low < high:
        mid = (low + high) // 2
        if mid - bisect_right(hidden, mid) >= counted:
            high = mid
        else:
            low = mid + 1
    return low
