"""The actions GURPS offers at the table (not the feats, which live in ``feats``).

Each handler reads validated params and applies the rules through the modules named for them;
this module only wires parameters to rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.action import ActionSpec, ParamSpec
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.attack import apply_damage, ask_damage, attack_action, defend_action
from rulekeeper.systems.gurps.character import ATTACK_KINDS, HIT_LOCATIONS, POSTURES, TurnState
from rulekeeper.systems.gurps.damage_table import parse_damage
from rulekeeper.systems.gurps.fatigue import ask_will_to_act, lose_fp, needs_will_to_act, recover_fp
from rulekeeper.systems.gurps.injury import ask_consciousness_roll, heal, resume_turn_rolls, take_injury
from rulekeeper.systems.gurps.maneuvers import AOA_MELEE_OPTIONS, MANEUVER_NAMES, WAIT_ACTIONS
from rulekeeper.systems.gurps.recovery import REST_KINDS, start_rest
from rulekeeper.systems.gurps.rules import (
    COMBAT_SEQUENCE,
    CONSCIOUSNESS,
    FATIGUE,
    FATIGUE_RECOVERY,
    GENERAL_INJURY,
    NATURAL_RECOVERY,
    STUN,
    rule,
)
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.status import incapacity, stun
from rulekeeper.systems.gurps.turn_order import Combatant, tie_rollers, turn_order
from rulekeeper.systems.gurps.turns import on_feint_check, take_maneuver
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES

if TYPE_CHECKING:
    from rulekeeper.core.action import Call
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["ACTIONS_SECTION", "CORE_ACTIONS", "HIT_LOCATIONS", "INITIATIVE_KIND", "on_initiative_roll"]

INITIATIVE_KIND = "gurps.initiative"

DEFENSES = ("dodge", "parry", "block")


def _damage(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    p = action.params
    if play.char(actor).dead:
        raise RuleRefusal(f"{actor} is already dead")
    injury, amount, notation = p.opt_int("injury"), p.opt_int("amount"), p.opt_str("dice")
    if injury is not None:
        take_injury(play, actor, injury, GENERAL_INJURY, location=p.str("location"))
        return
    if notation is not None:
        dice = parse_damage(notation, play.char(actor).st if notation.startswith(("thr", "sw")) else None)
        info = {
            "label": f"damage to {actor}",
            "attacker": actor,
            "target": actor,
            "damage": str(dice),
            "damage_type": p.str("damage_type"),
            "dr": p.opt_int("dr"),
            "location": p.str("location"),
            "damage_roll": amount,
        }
        ask_damage(play, info)
        return
    if amount is None:
        raise InputError("damage needs an amount, dice, or an injury", expected="amount=N or dice=2d+1", where="damage")
    apply_damage(play, actor, amount, p.str("damage_type"), dr=p.opt_int("dr"), location=p.str("location"))


def _heal(play: Play[GurpsCharacter], action: Call) -> None:
    heal(
        play,
        action.character,
        action.params.int("amount"),
        NATURAL_RECOVERY,
        treatment=action.params.bool("treatment"),
    )


def _lose_fp(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    if play.char(actor).dead:
        raise RuleRefusal(f"{actor} is dead")
    lose_fp(play, actor, action.params.int("amount"), FATIGUE)


def _recover_fp(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    if play.char(actor).dead:
        raise RuleRefusal(f"{actor} is dead")
    recover_fp(play, actor, action.params.int("amount"), FATIGUE_RECOVERY)


def _rest(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    if play.char(actor).dead:
        raise RuleRefusal(f"{actor} is dead")
    if play.has(actor, "fading"):
        raise RuleRefusal(f"{actor} is at 0 HP or below and rolling each turn to stay conscious; cannot rest now")
    start_rest(
        play,
        actor,
        action.params.str("kind"),
        meal=action.params.bool("meal"),
        modifier=action.params.int("modifier"),
    )


def _will_to_act(play: Play[GurpsCharacter], action: Call) -> None:
    """Seed 004, "Lost Fatigue Points": at 0 FP or less anything but talking or resting takes a Will
    roll, out of combat too (in combat the maneuver asks for it before each maneuver but Do Nothing)."""
    actor = action.character
    char = play.char(actor)
    reason = incapacity(play, actor)
    if reason:
        raise RuleRefusal(f"{actor} is {reason} and cannot act")
    if not needs_will_to_act(char):
        raise RuleRefusal(
            f"{actor} has {char.current_fp} FP; the Will roll to act is needed only at 0 FP or less "
            "(seed 004, Lost Fatigue Points)"
        )
    ask_will_to_act(play, actor, action.params.str("doing"))


def _consciousness(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    char = play.char(actor)
    if char.current_hp > 0:
        raise RuleRefusal(
            f"{actor} has {char.current_hp} HP; consciousness rolls start at 0 HP (seed 004, General Damage)"
        )
    reason = incapacity(play, actor)
    if reason:
        raise RuleRefusal(f"{actor} is {reason}")
    if not play.has(actor, "fading"):
        play.add_condition(actor, "fading", CONSCIOUSNESS, text=f"{actor} rolls HT each turn to stay conscious")
    play.cancel_timers(actor=actor, kind="gurps.consciousness")
    ask_consciousness_roll(play, actor)


def _stun(play: Play[GurpsCharacter], action: Call) -> None:
    actor = action.character
    reason = incapacity(play, actor)
    if reason:
        raise RuleRefusal(f"{actor} is {reason}")
    stun(play, actor, STUN, mental=action.params.bool("mental"))


def _maneuver(play: Play[GurpsCharacter], action: Call) -> None:
    take_maneuver(play, action.character, action.params)


def _ids(text: str | None, play: Play[GurpsCharacter], where: str) -> list[str]:
    if not text:
        return []
    ids = [t.strip() for t in text.split(",") if t.strip()]
    for i in ids:
        if i not in play.state.characters:
            known = ", ".join(play.state.characters)
            raise InputError(f"unknown character {i!r}", expected=f"ids from: {known}", where=where)
    return ids


def _start_combat(play: Play[GurpsCharacter], action: Call) -> None:
    ids = _ids(action.params.opt_str("characters"), play, "characters") or [
        cid for cid, c in play.state.characters.items() if not c.dead
    ]
    if len(set(ids)) != len(ids):
        raise InputError("a character is listed twice", expected="each id once", where="characters")
    surprised = _ids(action.params.opt_str("surprised"), play, "surprised")
    _next_tie_roll(play, {"ids": ids, "surprised": surprised, "rolls": {}})


def _combatants(play: Play[GurpsCharacter], ids: list[str]) -> list[Combatant]:
    return [Combatant(cid, play.char(cid).basic_speed, play.char(cid).dx, play.char(cid).is_pc) for cid in ids]


def _next_tie_roll(play: Play[GurpsCharacter], fight: Mapping[str, Any]) -> None:
    """Ask for the next 3d tie roll (kind ``gurps.initiative``), or set the order once all are in."""
    ids = list(fight["ids"])
    rolls: dict[str, int] = dict(fight["rolls"])
    npc_side = play.state.settings.every_roll_a_check
    waiting = [side for side in tie_rollers(_combatants(play, ids), npc_side=npc_side) if side not in rolls]
    if not waiting:
        _begin_combat(play, ids, list(fight["surprised"]), rolls)
        return
    side = waiting[0]
    who = side.replace(",", ", ")
    play.roll_check(
        DiceRoll(kind=INITIATIVE_KIND, label=f"turn-order tie roll for {who}", notation="3d", style="sum"),
        purpose="initiative",
        rule=COMBAT_SEQUENCE,
        actor=side.split(",")[0],
        data={**fight, "side": side},
        stakes=Stakes(
            purpose=f"the turn-order tie roll for {who}"
            + (" (the NPCs' side, in the GM's order)" if "," in side else ""),
            on_success="the highest roll among the tied acts first",
        ),
    )


def on_initiative_roll(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    fight = dict(pending.data)
    side = str(fight.pop("side"))
    fight["rolls"] = {**dict(fight["rolls"]), side: result.total}
    if any(cid not in play.state.characters for cid in fight["ids"]):
        return  # a combatant left before the dice were in
    _next_tie_roll(play, fight)


def _begin_combat(play: Play[GurpsCharacter], ids: list[str], surprised: list[str], rolls: Mapping[str, int]) -> None:
    npc_side = play.state.settings.every_roll_a_check
    order = turn_order(_combatants(play, ids), lambda side: int(rolls[side]), npc_side=npc_side)
    for place, cid in enumerate(order, start=1):
        play.put(cid, evolve(play.char(cid), turn=TurnState(), incoming=()))
        play.add_condition(
            cid,
            "in combat",
            COMBAT_SEQUENCE,
            data={"order": list(order), "place": place},
            text=f"{cid} acts {place} of {len(order)} (Basic Speed {play.char(cid).basic_speed:g})",
        )
        resume_turn_rolls(play, cid)
    for cid in surprised:
        play.add_condition(
            cid, "surprised", rule("Do Nothing"), text=f"{cid} is surprised: must Do Nothing on the first turn"
        )
    play.explain("turn sequence, fixed for the fight: " + ", ".join(order), COMBAT_SEQUENCE)
    play.result["order"] = list(order)


def _end_combat(play: Play[GurpsCharacter], action: Call) -> None:
    for cid in list(play.state.characters):
        if play.has(cid, "in combat"):
            play.remove_condition(cid, "in combat", COMBAT_SEQUENCE)
            play.remove_condition(cid, "surprised", quiet=True)
            play.put(cid, evolve(play.char(cid), turn=TurnState(), incoming=()))
    play.explain("combat time ends", COMBAT_SEQUENCE)


_TYPES = tuple(DAMAGE_TYPES)

CORE_ACTIONS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        ActionSpec(
            "damage",
            "Damage a character: basic damage less DR, times the wounding multiplier, comes off HP",
            _damage,
            params=(
                ParamSpec(
                    "amount", "int", "basic damage rolled (or the total of the dice rolled at the table)", minimum=0
                ),
                ParamSpec("dice", "str", "damage dice to roll, e.g. 2d+1 (GURPS notation)"),
                ParamSpec("damage_type", "choice", "damage type", default="cr", choices=_TYPES),
                ParamSpec("dr", "int", "DR to use instead of the sheet's", minimum=0, overrides_rules=True),
                ParamSpec(
                    "location",
                    "choice",
                    "hit location: the sheet's DR there applies (seed 004 gives no other location rules)",
                    default="torso",
                    choices=HIT_LOCATIONS,
                ),
                ParamSpec(
                    "injury", "int", "HP lost directly, skipping DR and wounding", minimum=0, overrides_rules=True
                ),
            ),
            kind="damage",
        ),
        ActionSpec(
            "heal",
            "Give back HP (never above the maximum)",
            _heal,
            params=(
                ParamSpec("amount", "int", "HP regained", required=True, minimum=0),
                ParamSpec(
                    "treatment", "bool", "medical treatment for a character who cannot wake without it", default=False
                ),
            ),
            kind="heal",
        ),
        ActionSpec(
            "lose_fp",
            "Lose FP to fatigue, with every threshold (very tired, 0 FP, -FP)",
            _lose_fp,
            params=(ParamSpec("amount", "int", "FP lost", required=True, minimum=0),),
            kind="fatigue",
        ),
        ActionSpec(
            "recover_fp",
            "Regain FP (never above the maximum)",
            _recover_fp,
            params=(ParamSpec("amount", "int", "FP regained", required=True, minimum=0),),
            kind="heal",
        ),
        ActionSpec(
            "rest",
            "Rest quietly: 1 FP per 10 minutes (+1 with a meal); each full day of rest an HT roll for 1 HP",
            _rest,
            params=(
                ParamSpec(
                    "kind",
                    "choice",
                    "how long: " + ", ".join(f"{k} {v // 60} min" for k, v in REST_KINDS.items()),
                    required=True,
                    choices=tuple(REST_KINDS),
                ),
                ParamSpec("meal", "bool", "a decent meal while resting (+1 FP)", default=False),
                ParamSpec(
                    "modifier",
                    "int",
                    "GM's modifier to the daily HT roll for bad or very good conditions",
                    default=0,
                    minimum=-10,
                    maximum=10,
                    overrides_rules=True,
                ),
            ),
            kind="rest",
        ),
        ActionSpec(
            "will_to_act",
            "A Will roll at 0 FP or less to do anything but talk or rest, out of combat (failure: collapse)",
            _will_to_act,
            params=(ParamSpec("doing", "str", "what the character tries to do", default="act"),),
            kind="check",
        ),
        ActionSpec(
            "consciousness",
            "An HT roll to stay conscious at 0 HP or below (also made automatically each turn)",
            _consciousness,
            kind="check",
        ),
        ActionSpec(
            "stun",
            "Stun a character (physical: HT to recover; mental: IQ)",
            _stun,
            params=(ParamSpec("mental", "bool", "mental stun (recover with IQ)", default=False),),
            kind="condition",
        ),
        ActionSpec(
            "maneuver",
            "Take a turn: choose one of the 13 maneuvers",
            _maneuver,
            params=(
                ParamSpec("choice", "choice", "the maneuver", required=True, choices=MANEUVER_NAMES),
                ParamSpec(
                    "option",
                    "choice",
                    "All-Out Attack / Defense option",
                    choices=(*AOA_MELEE_OPTIONS, "suppression", "increased"),
                ),
                ParamSpec("defense", "choice", "the defense All-Out Defense (Increased) raises", choices=DEFENSES),
                ParamSpec("weapon", "str", "weapon name from the sheet"),
                ParamSpec("target", "character", "the opponent (Aim, Evaluate, Feint, attacks)"),
                ParamSpec("posture", "choice", "new posture (Change Posture)", choices=POSTURES),
                ParamSpec("trigger", "str", "what the Wait waits for"),
                ParamSpec("wait_action", "choice", "what the Wait becomes", choices=WAIT_ACTIONS),
                ParamSpec("task", "str", "what is concentrated on or readied"),
                ParamSpec("triggered", "bool", "this maneuver is a Wait being triggered", default=False),
                ParamSpec(
                    "resist",
                    "int",
                    "the foe's skill resisting a Feint (default: their best)",
                    minimum=0,
                    overrides_rules=True,
                ),
                ParamSpec("modifier", "int", "modifier to a Feint roll", default=0, minimum=-20, maximum=20),
            ),
            kind="maneuver",
        ),
        ActionSpec(
            "attack",
            "Attack a character (takes an Attack maneuver unless this turn's maneuver already allows it)",
            attack_action,
            params=(
                ParamSpec("target", "character", "who is attacked", required=True),
                ParamSpec("weapon", "str", "weapon name from the sheet"),
                ParamSpec(
                    "skill", "int", "effective base skill instead of the sheet's", minimum=0, overrides_rules=True
                ),
                ParamSpec("damage", "str", "damage instead of the weapon's, e.g. 2d+1 or sw+1", overrides_rules=True),
                ParamSpec("damage_type", "choice", "damage type instead of the weapon's", choices=_TYPES),
                ParamSpec("kind", "choice", "kind of attack instead of the weapon's", choices=ATTACK_KINDS),
                ParamSpec("modifier", "int", "other modifiers to hit", default=0, minimum=-30, maximum=30),
                ParamSpec("size_modifier", "int", "ranged step 3: target's SM", default=0, minimum=-15, maximum=15),
                ParamSpec(
                    "range_speed", "int", "ranged step 4: range and speed modifier", default=0, minimum=-30, maximum=0
                ),
                ParamSpec("circumstances", "int", "ranged step 5: circumstances", default=0, minimum=-30, maximum=30),
                ParamSpec("hits", "int", "hits scored by a rapid-fire attack", default=1, minimum=1, maximum=100),
                ParamSpec("off_hand", "bool", "a second weapon in the off hand (-4)", default=False),
                ParamSpec("small", "bool", "a small thrown weapon (1 lb or less: parried at -2)", default=False),
                ParamSpec(
                    "unaware",
                    "bool",
                    "the target does not know of the attack (no defense)",
                    default=False,
                    overrides_rules=True,
                ),
                ParamSpec(
                    "defense",
                    "choice",
                    "the target's defense, if decided now (else the target acts with defend)",
                    choices=(*DEFENSES, "none"),
                    target_decides=True,
                ),
                ParamSpec(
                    "second_defense",
                    "choice",
                    "a second defense after a failed one (All-Out Defense, Double)",
                    choices=DEFENSES,
                    target_decides=True,
                ),
                ParamSpec(
                    "distance",
                    "float",
                    "ranged: yards to the target (refused beyond Max; damage halved at 1/2D or farther)",
                    minimum=0,
                ),
                ParamSpec("parry_weapon", "str", "the weapon the target parries with", target_decides=True),
                ParamSpec(
                    "second_weapon",
                    "str",
                    "the other hand's weapon for a second parry after a failed one (Double)",
                    target_decides=True,
                ),
                ParamSpec("parry_skill", "str", "the skill the target parries with when unarmed", target_decides=True),
                ParamSpec(
                    "defense_modifier",
                    "int",
                    "other modifiers to the defense",
                    default=0,
                    minimum=-20,
                    maximum=20,
                    target_decides=True,
                ),
                ParamSpec("dr", "int", "DR to use instead of the target's", minimum=0, overrides_rules=True),
                ParamSpec(
                    "location",
                    "choice",
                    "hit location (the sheet's DR there applies)",
                    default="torso",
                    choices=HIT_LOCATIONS,
                    # No to-hit penalty goes with it here (seed 004), so aiming is the GM's call.
                    overrides_rules=True,
                ),
                ParamSpec(
                    "damage_roll",
                    "int",
                    "the damage total rolled at the table (first hit)",
                    minimum=0,
                    overrides_rules=True,
                ),
            ),
            kind="attack",
        ),
        ActionSpec(
            "defend",
            "Answer a good attack with an active defense (or none)",
            defend_action,
            params=(
                ParamSpec(
                    "defense", "choice", "dodge, parry, block or none", required=True, choices=(*DEFENSES, "none")
                ),
                ParamSpec("attack", "int", "which waiting attack (default the oldest)", minimum=1),
                ParamSpec("weapon", "str", "the weapon to parry with"),
                ParamSpec("parry_skill", "str", "the skill to parry with when unarmed"),
                ParamSpec(
                    "second_weapon",
                    "str",
                    "the other hand's weapon for a second parry after a failed one (Double)",
                    target_decides=True,
                ),
                ParamSpec(
                    "second_defense",
                    "choice",
                    "a second defense after a failed one (All-Out Defense, Double)",
                    choices=DEFENSES,
                    target_decides=True,
                ),
                ParamSpec("modifier", "int", "other modifiers to the defense", default=0, minimum=-20, maximum=20),
            ),
            kind="defense",
        ),
        ActionSpec(
            "start_combat",
            "Fix the turn sequence for a fight: Basic Speed, then DX among PCs, then a roll",
            _start_combat,
            params=(
                ParamSpec(
                    "characters",
                    "str",
                    "comma-separated ids in the GM's order (default: everyone alive)",
                    names_character=True,
                ),
                ParamSpec("surprised", "str", "comma-separated ids of surprised characters", names_character=True),
            ),
            actor="none",
            kind="combat",
        ),
        ActionSpec("end_combat", "Leave combat time", _end_combat, actor="none", kind="combat"),
    )
}


#: The core actions (combat, damage, rest ...) and the rolls they ask for: turn-order ties and Feints.
ACTIONS_SECTION = Section(
    "actions",
    actions=CORE_ACTIONS,
    checks=(
        CheckSpec("initiative", on_initiative_roll, check_stakes),
        CheckSpec("feint", on_feint_check, check_stakes),
    ),
    skip_orphans=True,
)
