"""What a character card shows, read from a projected view (never from the state itself).

Each system's card is a few bars, numbers and marks picked out of the dictionary that
:mod:`rulekeeper.web.projections` produced for the viewer. A value the projection left out is
simply not shown, so a player's card cannot show more than the API gives that player: in
VI·VIII·X only the GM's view carries ``unknown_stats``, so only the GM's card lists them.
Nothing here decides a rule; it only reads the flags the rulesets computed (``reeling``,
``dying``, ``death_checks_at`` ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Bar", "Card", "Stat", "card_of"]


@dataclass(frozen=True)
class Bar:
    label: str
    current: int
    maximum: int
    #: Marks drawn on the bar: (value, label), e.g. GURPS −1×HP death checks.
    marks: tuple[tuple[int, str], ...] = ()
    #: A bar that fills as harm accumulates (W&G Wounds) rather than as health remains.
    harm: bool = False

    @property
    def percent(self) -> int:
        if self.maximum <= 0:
            return 0
        return max(0, min(100, round(100 * self.current / self.maximum)))


@dataclass(frozen=True)
class Stat:
    label: str
    value: str
    #: Rendered as a warning (an injured stat, trauma, a death check due).
    alert: bool = False
    #: Shown only on the GM's card (kept for styling; the value is absent from other views).
    secret: bool = False


@dataclass(frozen=True)
class Card:
    actor: str
    name: str
    access: str
    bars: tuple[Bar, ...] = ()
    stats: tuple[Stat, ...] = ()
    marks: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


def _int(view: Mapping[str, Any], key: str) -> int | None:
    value = view.get(key)
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _gurps(view: Mapping[str, Any]) -> tuple[list[Bar], list[Stat], list[str]]:
    bars, stats, marks = [], [], []
    hp, cur = _int(view, "hp"), _int(view, "current_hp")
    if hp is not None and cur is not None:
        checks = tuple((int(v), f"death check at {v}") for v in view.get("death_checks_at") or ())
        bars.append(Bar("HP", cur, hp, checks))
        if cur <= -hp:
            marks.append("at −HP or below")
        elif cur <= 0:
            marks.append("at 0 HP or below")
    fp, cur_fp = _int(view, "fp"), _int(view, "current_fp")
    if fp is not None and cur_fp is not None:
        bars.append(Bar("FP", cur_fp, fp))
    for flag, text in (("reeling", "reeling"), ("very_tired", "very tired"), ("dead", "dead")):
        if view.get(flag):
            marks.append(text)
    checks_at = [int(v) for v in view.get("death_checks_at") or ()]
    if cur is not None and checks_at and cur <= checks_at[0]:
        passed = sum(1 for v in checks_at if cur <= v)
        marks.append(f"death checks passed: {passed}")
    if view.get("combat_place"):
        stats.append(Stat("Acts", f"#{view['combat_place']} in the turn order"))
    if view.get("maneuver"):
        stats.append(Stat("Maneuver", str(view["maneuver"])))
    for key, label in (("move", "Move"), ("dodge", "Dodge")):
        if _int(view, key) is not None:
            stats.append(Stat(label, str(view[key])))
    return bars, stats, marks


def _gods_monsters(view: Mapping[str, Any]) -> tuple[list[Bar], list[Stat], list[str]]:
    bars, stats, marks = [], [], []
    for key, label in (("survival", "Survival"), ("verve", "Verve")):
        cur, most = _int(view, key), _int(view, f"max_{key}")
        if cur is not None and most is not None:
            bars.append(Bar(label, cur, most))
    injuries = _int(view, "injuries")
    if injuries is not None:
        stats.append(Stat("Injuries", str(injuries), alert=injuries > 0))
    if view.get("injury_penalty"):
        stats.append(Stat("Injury penalty", str(view["injury_penalty"]), alert=True))
    if view.get("death_in"):
        marks.append(f"dies in {view['death_in']}")
    if view.get("at_risk_of_death"):
        marks.append("at risk of death")
    if view.get("alive") is False:
        marks.append("dead")
    return bars, stats, marks


def _wrath_glory(view: Mapping[str, Any]) -> tuple[list[Bar], list[Stat], list[str]]:
    bars, stats, marks = [], [], []
    for key, label in (("wounds", "Wounds"), ("shock", "Shock")):
        cur, most = _int(view, key), _int(view, f"max_{key}")
        if cur is not None and most is not None:
            bars.append(Bar(label, cur, most, harm=True))
    if _int(view, "wrath") is not None:
        stats.append(Stat("Wrath", str(view["wrath"])))
    trauma = [str(t) for t in view.get("traumatic_injuries") or ()]
    if "traumatic_injuries" in view:
        stats.append(Stat("Trauma", ", ".join(trauma) or "none", alert=bool(trauma)))
    for flag, text in (("dying", "Dying"), ("dead", "dead"), ("exhausted", "exhausted")):
        if view.get(flag):
            marks.append(text)
    return bars, stats, marks


_KNOWN = ("bu", "co", "in", "em")


def _vi_viii_x(view: Mapping[str, Any]) -> tuple[list[Bar], list[Stat], list[str]]:
    stats, marks = [], []
    for key in _KNOWN:
        cur, orig = _int(view, key), _int(view, f"{key}_original")
        if cur is None:
            continue
        injured = orig is not None and cur < orig
        shown = f"{cur}/{orig} injured" if injured else str(cur)
        stats.append(Stat(key.upper(), shown, alert=injured))
    # Only the GM's view carries the unknown stats; the player projection has no such field.
    for name, us in sorted((view.get("unknown_stats") or {}).items()):
        cur, orig = us.get("current"), us.get("original")
        stats.append(Stat(f"US {name} ({us.get('ks')})", f"{cur}/{orig}", alert=cur != orig, secret=True))
    if view.get("injured"):
        marks.append("injured")
    return [], stats, marks


_BY_SYSTEM: dict[str, Callable[[Mapping[str, Any]], tuple[list[Bar], list[Stat], list[str]]]] = {
    "gurps": _gurps,
    "gods-and-monsters": _gods_monsters,
    "wrath-and-glory": _wrath_glory,
    "vi-viii-x": _vi_viii_x,
}


def card_of(system: str, character: Mapping[str, Any]) -> Card:
    """The card of one projected character (``projections.character_json``)."""
    view: Mapping[str, Any] = character.get("view") or {}
    reader = _BY_SYSTEM.get(system)
    bars, stats, marks = reader(view) if reader else ([], [], [])
    return Card(
        actor=str(character["actor"]),
        name=str(view.get("name") or character["actor"]),
        access=str(character.get("access", "table")),
        bars=tuple(bars),
        stats=tuple(stats),
        marks=tuple(dict.fromkeys(marks)),
        conditions=tuple(str(c) for c in view.get("conditions") or ()),
        extra={k: character[k] for k in ("player", "npc") if k in character},
    )
