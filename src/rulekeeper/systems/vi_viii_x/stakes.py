"""What each VI·VIII·X check left for the table is for, and what its success and failure do.

Our own summaries of seed 001 (chapter VIII, "Non-combat cases": Climb, Falling damage, Disease,
Prolonged action; "States of the character": Stunned, Blind) and of the rules brief's action
resolution check and Reaction check. A player sees these words beside their own pending check,
so they never name a stat, a stat total or a threshold worked out from one: an unknown stat
(US) must stay unknown (see ``visibility``). The GM's view adds the check itself, with its stats.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.stakes import Stakes

if TYPE_CHECKING:
    from rulekeeper.core.state import AnyCheck

__all__ = ["STAKES", "check_stakes", "vi_stakes"]

#: purpose -> (what the roll is for, on success, on failure); ``{who}`` and ``{task}``,
#: ``{patient}``, ``{ailment}`` fill in (never stats: those may be unknown to the player).
STAKES: Mapping[str, tuple[str, str, str]] = {
    # rules brief, "Context: action resolution check (ARC)"
    "arc": ("{who}'s action resolution check", "the action succeeds", "the action fails"),
    "reaction": (
        "{who}'s Reaction check: whether {who} reacts in time",
        "{who} reacts in time",
        "{who} does not react in time",
    ),
    # VIII, Non-combat cases: Climb
    "climb": ("{who}'s climbing check", "{who} makes the climb", "{who} does not make the climb"),
    # VIII, Non-combat cases: Falling damage
    "fall": (
        "{who}'s Body Control check against the fall",
        "a better result takes more off the fall damage",
        "{who} takes the fall damage in full",
    ),
    # VIII, Non-combat cases: Disease (and poison)
    "cure": (
        "{who}'s search for a cure for {patient}'s {ailment}",
        "a cure is found: the ailment ends once every point it took is back",
        "no cure found this time",
    ),
    # VIII, Non-combat cases: Prolonged action
    "effort": (
        "{who}'s check to keep up a prolonged effort",
        "{who} keeps up the effort",
        "{who} grows more fatigued",
    ),
    # VIII.4, States of the character: Stunned
    "stun": (
        "{who}'s check to wake from the stun",
        "{who} wakes at the start of the next turn",
        "{who} stays stunned and tries again later, after a wait",
    ),
    # VIII.4, States of the character: Blind
    "sight": (
        "{who}'s check to manage {task} without sight",
        "{who} manages {task}",
        "{who} cannot manage {task}",
    ),
}

_WORDS = ("patient", "ailment", "task")


class _Generic(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return f"the {key}"


def vi_stakes(purpose: str, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a VI·VIII·X check, safe for its player to read (None for a purpose without them)."""
    row = STAKES.get(purpose)
    if row is None:
        return None
    words = _Generic({key: str(data[key]) for key in _WORDS if isinstance(data.get(key), str)})
    words["who"] = actor or "the character"
    purpose_text, on_success, on_failure = (text.format_map(words) for text in row)
    return Stakes(purpose=purpose_text, on_success=on_success, on_failure=on_failure)


def check_stakes(purpose: str, check: AnyCheck, actor: str | None, data: Mapping[str, Any]) -> Stakes | None:
    """The stakes of a VI·VIII·X check (the sections' ``CheckSpec.stakes``): the row of its purpose."""
    return vi_stakes(purpose, actor, data)
