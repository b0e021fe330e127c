"""Active defenses: which are allowed against an attack, their scores, and the defense roll.

Seed 004, "Defending", "Active Defense Rolls", "Dodging", "Blocking", "Perry" (Parry):

* the defender's last maneuver limits the choice (All-Out Attack: none; Move and Attack: dodge
  or block); unconscious, collapsed or unaware defenders get none;
* Dodge works against anything the defender knows of; against a rapid-fire hit it avoids one
  hit plus one per point of margin (all of them on a critical success);
* Block needs a shield or cloak, works once per turn, and never against bullets or beams;
* Parry needs a ready weapon, stops only melee attacks and thrown weapons (at -1, or -2 for
  those of 1 lb or less), and an unbalanced weapon that attacked this turn cannot parry;
* All-Out Defense (Double) allows a second, different defense after a failed one; a parry with
  the other hand after a failed parry counts as different;
* stunned defenders are at -4; All-Out Defense (Increased) gives +2; a won Feint takes its
  margin off; 3-4 always succeed and 17-18 always fail (the success roll already does this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.check import Critical, Modifier
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import CheckSpec, Section
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.injury import ask_concentration_roll
from rulekeeper.systems.gurps.maneuvers import ALL_DEFENSES, maneuver_named
from rulekeeper.systems.gurps.rules import (
    ACTIVE_DEFENSE,
    AIM,
    ALL_OUT_DEFENSE,
    BLOCK,
    DEFENDING,
    DODGE,
    PARRY,
    STUN,
)
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.status import is_stunned

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter, Weapon

__all__ = [
    "DEFENSE_SECTION",
    "ask_defense",
    "best_parry_weapon",
    "defense_score",
    "no_defense_reason",
    "on_defense_check",
    "second_defense_info",
]

PARRYABLE = ("melee", "unarmed", "thrown")
UNBLOCKABLE = ("firearm", "beam")


def no_defense_reason(play: Play[GurpsCharacter], defender: str, info: Mapping[str, Any]) -> str | None:
    """Why the defender gets no active defense at all against this attack, or None."""
    char = play.char(defender)
    if char.dead:
        return f"{defender} is dead"
    for name in ("unconscious", "collapsed"):
        if play.has(defender, name):
            return f"{defender} is {name}"
    if info.get("unaware"):
        return f"{defender} does not know of the attack"
    if char.turn.maneuver == "all-out-attack":
        return f"{defender} made an All-Out Attack and has no active defense until their next turn"
    return None


def best_parry_weapon(char: GurpsCharacter) -> Weapon | None:
    """The ready weapon a parry uses when none is named: the one with the best Parry (the
    sheet's first, a GCS Punch, parried before; the seed's Parry is the defender's choice, and
    no defender chooses the worse weapon), the sheet's order breaking ties."""
    ready = [(char.weapon_parry(w), -i, w) for i, w in enumerate(char.weapons) if w.can_parry and not w.ranged]
    scored = [(level, order, w) for level, order, w in ready if level is not None]
    return max(scored, key=lambda row: (row[0], row[1]))[2] if scored else None


def defense_score(
    play: Play[GurpsCharacter], defender: str, info: Mapping[str, Any], choice: str
) -> tuple[int, list[Modifier], str]:
    """Base score, modifiers and label of one defense; raises RuleRefusal naming the rule that forbids it."""
    char = play.char(defender)
    reason = no_defense_reason(play, defender, info)
    if reason:
        raise RuleRefusal(f"no active defense: {reason} (seed 004, Defending)")
    turn = char.turn
    allowed = maneuver_named(turn.maneuver).defenses if turn.maneuver else ALL_DEFENSES
    if choice not in allowed:
        raise RuleRefusal(
            f"{defender}'s {turn.maneuver} allows only {' or '.join(allowed)} (seed 004, Move and Attack)"
        )
    kind = str(info.get("kind", "melee"))
    mods: list[Modifier] = []
    if choice == "dodge":
        base, label = char.dodge, f"{defender} Dodge"
    elif choice == "block":
        if char.block is None:
            raise RuleRefusal(f"{defender} has no shield or cloak to block with (seed 004, Blocking)")
        if kind in UNBLOCKABLE:
            raise RuleRefusal(f"bullets and beams cannot be blocked (seed 004, Blocking); this is a {kind} attack")
        if turn.block_used:
            raise RuleRefusal(f"{defender} has already blocked this turn; one block per turn (seed 004, Blocking)")
        base, label = char.block, f"{defender} Block"
    else:
        if kind not in PARRYABLE:
            raise RuleRefusal(f"a parry stops only melee attacks and thrown weapons (seed 004, Parry); this is {kind}")
        weapon_name = info.get("parry_weapon")
        parry_skill = info.get("parry_skill")
        if parry_skill and not weapon_name:
            level = char.skill(str(parry_skill))
            if level is None:
                raise RuleRefusal(f"{defender} has no {parry_skill} skill to parry with")
            base, label = 3 + level // 2, f"{defender} Parry ({parry_skill})"
        else:
            weapon = char.weapon(str(weapon_name)) if weapon_name else None
            if weapon is None and not weapon_name:
                weapon = best_parry_weapon(char)
            if weapon is None or not weapon.can_parry or weapon.ranged:
                raise RuleRefusal(f"{defender} has no ready weapon that can parry (seed 004, Parry)")
            if weapon.unbalanced and weapon.name in turn.attacked_with:
                raise RuleRefusal(
                    f"{weapon.name} is unbalanced and already attacked this turn; it cannot parry (seed 004, Parry)"
                )
            level = char.weapon_parry(weapon)
            if level is None:
                raise RuleRefusal(f"{defender} has no {weapon.skill} skill to parry with")
            base, label = level, f"{defender} Parry ({weapon.name})"
        if kind == "thrown":
            small = bool(info.get("small_thrown"))
            mods.append(
                Modifier(-2 if small else -1, "parrying a small thrown weapon" if small else "parrying a thrown weapon")
            )
    if turn.maneuver == "all-out-defense" and turn.option == "increased" and turn.defense == choice:
        mods.append(Modifier(2, "All-Out Defense (Increased)"))
    if is_stunned(play, defender):
        mods.append(Modifier(-4, "stunned"))
    penalty = int(info.get("defense_penalty", 0))
    if penalty:
        mods.append(Modifier(-penalty, "feinted"))
    extra = int(info.get("defense_modifier", 0) or 0)
    if extra:
        mods.append(Modifier(extra, "circumstances"))
    return base, mods, label


def ask_defense(play: Play[GurpsCharacter], info: Mapping[str, Any], choice: str, *, second: bool = False) -> None:
    """Roll one active defense; the defender's aim is spoiled and concentration tested."""
    defender = str(info["target"])
    base, mods, label = defense_score(play, defender, info, choice)
    char = play.char(defender)
    turn = char.turn
    if turn.aim is not None:
        turn = evolve(turn, aim=None)
        play.explain(f"{defender} defends and loses their aim", AIM, actor=defender)
    if choice == "block":
        turn = evolve(turn, block_used=True)
    play.put(defender, evolve(char, turn=turn))
    rule = {"dodge": DODGE, "block": BLOCK, "parry": PARRY}[choice]
    if is_stunned(play, defender):
        rule = STUN
    ask_success_roll(
        play,
        kind="gurps.defense",
        label=label,
        base=base,
        modifiers=mods,
        purpose="defense",
        rule=rule,
        actor=defender,
        data={**info, "choice": choice, "second": second},
    )
    if turn.maneuver == "concentrate" and turn.task is not None:
        ask_concentration_roll(play, defender, "forced to defend")


def on_defense_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    from rulekeeper.systems.gurps.attack import ask_parry_counter, resolve_hits

    info = dict(pending.data)
    defender = str(info["target"])
    choice = str(info["choice"])
    hits = int(info.get("hits", 1))
    if play.char(defender).dead:
        return
    if result.success:
        avoided = hits
        if choice == "dodge" and hits > 1 and result.critical is not Critical.SUCCESS:
            avoided = min(hits, 1 + max(0, result.margin))
        if avoided >= hits:
            play.explain(f"{defender} {_verb(choice)} the attack", ACTIVE_DEFENSE, actor=defender)
            play.result["defended"] = True
            if choice == "parry" and info.get("kind") == "unarmed" and info.get("parry_weapon") != "unarmed":
                ask_parry_counter(play, info)
            return
        play.explain(f"{defender} dodges {avoided} of {hits} hits", DODGE, actor=defender)
        resolve_hits(play, info, hits - avoided)
        return
    second = info.get("second_defense")
    char = play.char(defender)
    if not info.get("second") and second and char.turn.maneuver == "all-out-defense" and char.turn.option == "double":
        again = second_defense_info(info, choice, str(second))
        if again is None:
            play.explain(
                f"{defender}'s second {second} is not a different defense: a second parry needs the other "
                "hand's weapon (second_weapon)",
                ALL_OUT_DEFENSE,
                actor=defender,
            )
        else:
            hand = f" with {again['parry_weapon']}" if second == "parry" == choice else ""
            play.explain(
                f"{defender} fails to {choice} and tries to {second}{hand} (Double Defense)",
                ALL_OUT_DEFENSE,
                actor=defender,
            )
            try:
                ask_defense(play, again, str(second), second=True)
                return
            except RuleRefusal as exc:
                play.explain(f"{defender} cannot {second}: {exc}", DEFENDING, actor=defender)
    play.explain(f"{defender} fails to {choice}: the attack hits", ACTIVE_DEFENSE, actor=defender)
    resolve_hits(play, info, hits)


def second_defense_info(info: Mapping[str, Any], choice: str, second: str) -> dict[str, Any] | None:
    """The attack as the Double Defense's second roll sees it, or None when ``second`` is not a
    different defense. Seed 004, "All-Out Defense": a failed parry with one hand and a parry with
    the other hand count as different defenses, so a second parry names the other hand's weapon
    (``second_weapon``), which must not be the first parry's."""
    if second != choice:
        return dict(info)
    other = info.get("second_weapon")
    if choice != "parry" or not other or other == info.get("parry_weapon"):
        return None
    return {**info, "parry_weapon": other, "parry_skill": None}


def _verb(choice: str) -> str:
    return {"dodge": "dodges", "parry": "parries", "block": "blocks"}[choice]


#: Defending (seed 004, "Defending"): the active defence roll.
DEFENSE_SECTION = Section("defense", checks=(CheckSpec("defense", on_defense_check, check_stakes),), skip_orphans=True)
