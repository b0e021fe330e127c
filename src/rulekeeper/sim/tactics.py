"""What each fighter does on its turn: a small, declarative tactic read from the encounter file.

A tactic only *chooses* (whom to attack, which maneuver, which defense); everything it chooses
is then played through the real engine (``core/engine.py``), so no rule lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.core.combat import AllOutAttack, HitCheck, Tactic
from rulekeeper.errors import InputError

__all__ = ["TACTIC_KEYS", "AllOutAttack", "HitCheck", "Tactic", "parse_tactic"]

# The tactic's values are the core's (core/combat.py), since each system's turn reads them.

TARGETING = ("first", "weakest", "strongest", "random")
DEFENSES = ("best", "dodge", "parry", "block", "none")
MANEUVERS = ("attack", "all-out-attack", "do-nothing")
AOA_OPTIONS = ("determined", "strong", "double")
AOA_WHEN = ("always", "outnumbering", "foe-stunned")

# key -> what it means; which systems read it is each system's (``Combat.tactic_keys``), and
# scripts/gen_docs.py prints both.
TACTIC_KEYS: dict[str, str] = {
    "target": "whom to attack: a character id, or `first` (default), `weakest`, `strongest`, `random` "
    "among the foes still in the fight",
    "weapon": "weapon name from the sheet (default the first)",
    "maneuver": "`attack` (default) or `do-nothing` (the fighter never attacks); `all-out-attack` where the "
    "system has it",
    "option": "All-Out Attack option: `determined` (default), `strong` or `double`",
    "all_out_attack": "All-Out Attack when: `always`, `outnumbering` (my side has more fighters up), "
    "`foe-stunned`, or `{foe_hp_at_most: N}` / `{own_hp_at_most: N}`",
    "defense": "`best` (default: highest of dodge, parry, block), `dodge`, `parry`, `block` or `none`",
    "damage": "damage dice per hit, e.g. `2d6+3` (required unless the system's sheets carry weapons; there it "
    "replaces the weapon's, e.g. `1d+1` for a sheet without weapons)",
    "hit": "the roll to hit, through the system's own check: `{score: N}` (a d20 roll-under), "
    "`{pool: N, dn: N}` (a dice pool), `{stats: N, threshold: N}` (an ARC); default: every attack hits",
    "params": "extra parameters of the system's `damage` action, e.g. `{in_combat: true}`",
}


def _one_of(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise InputError(f"unknown value {value!r}", expected="one of " + ", ".join(allowed), where=where)
    return str(value)


def _int(value: Any, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(f"bad number {value!r}", expected=f"a whole number of at least {minimum}", where=where)
    return value


def _aoa(value: Any, where: str) -> AllOutAttack:
    if isinstance(value, str):
        return AllOutAttack(when=_one_of(value, AOA_WHEN, where))
    if isinstance(value, Mapping) and len(value) == 1:
        key, n = next(iter(value.items()))
        if key == "foe_hp_at_most":
            return AllOutAttack(when="foe-hp", foe_hp_at_most=_int(n, f"{where}.{key}", minimum=-1000))
        if key == "own_hp_at_most":
            return AllOutAttack(when="own-hp", own_hp_at_most=_int(n, f"{where}.{key}", minimum=-1000))
    raise InputError(
        f"bad condition {value!r}",
        expected="always, outnumbering, foe-stunned, {foe_hp_at_most: N} or {own_hp_at_most: N}",
        where=where,
    )


def _hit(value: Any, where: str) -> HitCheck:
    if not isinstance(value, Mapping):
        raise InputError(
            f"bad hit roll {value!r}", expected="{score: N}, {pool: N, dn: N} or {stats: N, threshold: N}", where=where
        )
    allowed = {"score", "pool", "dn", "stats", "threshold"}
    unknown = set(value) - allowed
    if unknown:
        raise InputError(
            f"unknown key(s) {', '.join(sorted(map(str, unknown)))}",
            expected="score, pool and dn, or stats and threshold",
            where=where,
        )
    return HitCheck(**{k: _int(v, f"{where}.{k}") for k, v in value.items()})


def parse_tactic(raw: Mapping[str, Any], where: str, base: Tactic | None = None) -> Tactic:
    """A tactic from the file's mapping; keys not given keep ``base``'s values (the side's tactic)."""
    if not isinstance(raw, Mapping):
        raise InputError(f"a tactic must be a mapping, not {raw!r}", expected="e.g. {defense: parry}", where=where)
    unknown = set(raw) - set(TACTIC_KEYS)
    if unknown:
        raise InputError(
            f"unknown tactic key(s) {', '.join(sorted(map(str, unknown)))}",
            expected="some of " + ", ".join(TACTIC_KEYS),
            where=where,
        )
    t = base or Tactic()
    values: dict[str, Any] = {}
    for key, value in raw.items():
        w = f"{where}.{key}"
        if key == "target":
            if not isinstance(value, str) or not value:
                raise InputError(f"bad target {value!r}", expected="a character id or " + ", ".join(TARGETING), where=w)
            values[key] = value
        elif key in ("weapon", "damage"):
            if not isinstance(value, str) or not value:
                raise InputError(f"bad {key} {value!r}", expected="text", where=w)
            values[key] = value
        elif key == "maneuver":
            values[key] = _one_of(value, MANEUVERS, w)
        elif key == "option":
            values[key] = _one_of(value, AOA_OPTIONS, w)
        elif key == "defense":
            values[key] = _one_of(value, DEFENSES, w)
        elif key == "all_out_attack":
            values[key] = _aoa(value, w)
        elif key == "hit":
            values[key] = _hit(value, w)
        elif key == "params":
            if not isinstance(value, Mapping):
                raise InputError(f"bad params {value!r}", expected="a mapping of action parameters", where=w)
            values[key] = dict(value)
    return Tactic(**{**t.__dict__, **values})
