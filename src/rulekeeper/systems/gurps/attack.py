"""Attacking: the attack roll, the defense it calls for, and the damage of each hit.

Seed 004, "Attacking", "Attack Roll", "Range Attacks", "Damage & Injury". An attack roll of 3
does maximum damage and bypasses defense; other critical hits bypass defense; 17-18 always miss
(the success roll handles criticals). A hit that is not critical waits for the defender's
``defend`` action unless the attack named the defense up front.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.check import Critical, Modifier
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.frozen import evolve
from rulekeeper.core.section import CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.character import IncomingAttack, TurnState, Weapon
from rulekeeper.systems.gurps.checks import ask_success_roll
from rulekeeper.systems.gurps.damage_table import DamageDice, is_st_based, parse_damage
from rulekeeper.systems.gurps.defense import ask_defense, best_parry_weapon, defense_score, no_defense_reason
from rulekeeper.systems.gurps.fatigue import lose_fp, wait_for_will, will_to_act_waiting
from rulekeeper.systems.gurps.injury import shock_modifier, take_injury
from rulekeeper.systems.gurps.ranged import ranged_modifiers
from rulekeeper.systems.gurps.rolling import damage_without_dice
from rulekeeper.systems.gurps.rules import (
    ALL_OUT_ATTACK,
    ATTACK_ROLL,
    DAMAGE,
    DEFENDING,
    MIN_INJURY,
    MOVE_AND_ATTACK,
    PARRY,
    RANGED,
)
from rulekeeper.systems.gurps.stakes import check_stakes
from rulekeeper.systems.gurps.turns import attack_turn, pick_weapon
from rulekeeper.systems.gurps.weapon_range import HALF_DAMAGE, MAX_RANGE, half_damage, weapon_range
from rulekeeper.systems.gurps.wounding import DAMAGE_TYPES, injury_from, penetrating

if TYPE_CHECKING:
    from rulekeeper.core.action import Call
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.params import Params
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = [
    "ATTACK_SECTION",
    "apply_damage",
    "ask_damage",
    "ask_parry_counter",
    "attack_action",
    "attack_modifiers",
    "defend_action",
    "incoming_info",
    "on_attack_check",
    "on_damage_roll",
    "resolve_hits",
]


def _weapon_for(char: GurpsCharacter, params: Params) -> Weapon:
    name = params.opt_str("weapon") or char.turn.weapon
    damage, kind = params.opt_str("damage"), params.opt_str("kind")
    weapon = pick_weapon(char, name) if name else None
    if weapon is None and damage is None:
        weapon = pick_weapon(char, None)
    if weapon is None:
        if damage is None:
            raise InputError("no weapon on the sheet: give the attack's damage", expected="e.g. 1d+1", where="damage")
        weapon = Weapon(name=kind or "unarmed", skill="dx", damage=damage, kind=kind or "unarmed", can_parry=False)
    changes: dict[str, Any] = {}
    if damage is not None:
        changes["damage"] = damage
    if params.opt_str("damage_type") is not None:
        changes["damage_type"] = params.opt_str("damage_type")
    if kind is not None:
        changes["kind"] = kind
    return evolve(weapon, **changes) if changes else weapon


def attack_modifiers(
    play: Play[GurpsCharacter], actor: str, target: str, weapon: Weapon, params: Params
) -> list[Modifier]:
    """Every modifier to the attack roll from the maneuver, Aim, Evaluate, shock and the five ranged steps."""
    char = play.char(actor)
    turn = char.turn
    mods: list[Modifier] = []
    if weapon.ranged:
        aim = turn.aim
        aim_turns = (
            aim.turns
            if aim and aim.turn == turn.number - 1 and (aim.weapon, aim.target) == (weapon.name, target)
            else 0
        )
        mods.extend(
            ranged_modifiers(
                acc=weapon.acc,
                aim_turns=aim_turns,
                size_modifier=params.int("size_modifier"),
                range_speed=params.int("range_speed"),
                circumstances=params.int("circumstances"),
            )
        )
    ev = turn.evaluate
    if ev is not None and ev.target == target and ev.turn == turn.number - 1:
        mods.append(Modifier(ev.bonus, "Evaluate"))
    if turn.maneuver == "all-out-attack" and turn.option == "determined":
        mods.append(Modifier(1 if weapon.ranged else 4, "All-Out Attack (Determined)"))
    if params.bool("off_hand"):
        mods.append(Modifier(-4, "weapon in the off hand"))
    if turn.maneuver == "move-and-attack":
        if weapon.ranged:
            mods.append(Modifier(-max(2, abs(weapon.bulk)), "Move and Attack: -2 or Bulk, whichever is worse"))
        else:
            mods.append(Modifier(-4, "Move and Attack (melee)"))
    shock = shock_modifier(play, actor)
    if shock is not None:
        mods.append(shock)
    mods.append(Modifier(params.int("modifier"), "circumstances"))
    return [m for m in mods if m.value]


def _base_skill(actor: str, char: GurpsCharacter, weapon: Weapon, given: int | None) -> int:
    """The skill the attack starts from: the level given at the table, else the sheet's."""
    if given is not None:
        return given
    level = char.weapon_level(weapon)
    if level is None:
        raise InputError(
            f"{actor} has no {weapon.skill} skill", expected="the skill on the sheet, or skill=N", where="skill"
        )
    return level


def _damage_dice(play: Play[GurpsCharacter], actor: str, turn: TurnState, weapon: Weapon) -> DamageDice | None:
    """The weapon's damage at the attacker's ST, with All-Out Attack (Strong)'s bonus on ST-based
    damage; None for a weapon that does no damage rulekeeper applies (a grapple, a lasso: its effect)."""
    dice = parse_damage(weapon.damage, play.char(actor).st) if weapon.damage else None
    if dice is not None and turn.maneuver == "all-out-attack" and turn.option == "strong" and not weapon.ranged:
        if is_st_based(weapon.damage):
            dice = dice.plus(max(2, dice.dice))
            play.explain(f"All-Out Attack (Strong): damage becomes {dice}", ALL_OUT_ATTACK, actor=actor)
        else:
            play.explain(
                "All-Out Attack (Strong) adds only to ST-based thrust or swing damage", ALL_OUT_ATTACK, actor=actor
            )
    return dice


def _check_parry_choice(defender: GurpsCharacter, target: str, params: Params) -> None:
    """The target's parry weapon or skill, given now, must be on their sheet: checked when the
    attack is made, not when the defense is rolled later (it would then fail for the table)."""
    weapon = params.opt_str("parry_weapon")
    if weapon is not None and weapon != "unarmed" and defender.weapon(weapon) is None:
        known = ", ".join(w.name for w in defender.weapons) or "none"
        raise InputError(f"{target} has no weapon {weapon!r}", expected=f"one of: {known}", where="parry_weapon")
    skill = params.opt_str("parry_skill")
    if skill is not None and defender.skill(skill) is None:
        raise InputError(
            f"{target} has no skill {skill!r} to parry with", expected="a skill on their sheet", where="parry_skill"
        )


def _attack_info(
    actor: str, target: str, weapon: Weapon, damage: str, turn: TurnState, params: Params
) -> dict[str, Any]:
    """What the attack check carries to its defense and damage: the weapon, the hits and the target's options."""
    feint = turn.feint
    penalty = feint.margin if feint is not None and feint.target == target and feint.applies_turn == turn.number else 0
    return {
        "attacker": actor,
        "target": target,
        "weapon": weapon.name,
        "kind": weapon.kind,
        "damage": damage,
        "damage_type": weapon.damage_type,
        "hits": params.int("hits"),
        "defense_penalty": penalty,
        "small_thrown": weapon.kind == "thrown" and (params.bool("small") or 0 < weapon.weight <= 1),
        "dr": params.opt_int("dr"),
        "location": params.str("location"),
        "damage_roll": params.opt_int("damage_roll"),
        "defense": params.opt_str("defense"),
        "second_defense": params.opt_str("second_defense"),
        # Only when named, so attacks recorded before two-handed Double Defense replay the same.
        **({"second_weapon": params.opt_str("second_weapon")} if params.opt_str("second_weapon") else {}),
        "parry_weapon": params.opt_str("parry_weapon"),
        "parry_skill": params.opt_str("parry_skill"),
        "defense_modifier": params.int("defense_modifier"),
        "unaware": params.bool("unaware"),
        # Only when there is one, so attacks recorded before effects existed replay the same.
        **({"effect": weapon.effect} if weapon.effect else {}),
    }


def _distance(play: Play[GurpsCharacter], actor: str, weapon: Weapon, distance: float | None) -> dict[str, Any]:
    """A ranged attack's distance against its weapon's range: refused beyond Max; at 1/2D or farther
    the hit's damage is halved (``half_damage`` in the attack's data, only then, so attacks
    recorded before distances replay the same)."""
    if distance is None:
        return {}
    if not weapon.ranged:
        raise InputError(
            f"{weapon.name} is a {weapon.kind} weapon: a distance applies to ranged attacks only",
            expected="a ranged weapon, or no distance",
            where="distance",
        )
    reach = weapon_range(weapon.range)
    if reach.max is None:
        play.explain(
            f"{weapon.name} has no Max range on the sheet ({weapon.range or 'none'}): {distance:g} yd is not checked",
            MAX_RANGE,
            actor=actor,
        )
        return {}
    if distance > reach.max:
        raise RuleRefusal(
            f"the target is {distance:g} yd away, beyond {weapon.name}'s Max range of {reach.max:g} yd "
            "(seed 004, Attack: the target must be within Max range)"
        )
    if reach.half_damage is not None and distance >= reach.half_damage:
        play.explain(
            f"{distance:g} yd is at or beyond {weapon.name}'s 1/2D range of {reach.half_damage:g} yd: damage is halved",
            HALF_DAMAGE,
            actor=actor,
        )
        return {"half_damage": True}
    return {}


def attack_action(play: Play[GurpsCharacter], action: Call) -> None:
    """The ``attack`` action: one attack against ``target`` within an attacking maneuver."""
    actor = action.character
    params = action.params
    target = params.str("target")
    if target == actor:
        raise InputError("a character cannot attack themselves", expected="another character id", where="target")
    _check_parry_choice(play.char(target), target, params)
    char = play.char(actor)
    weapon = _weapon_for(char, params)  # validate before a maneuver is taken
    turn = attack_turn(play, actor)
    if play.has(actor, "collapsed"):
        play.explain(f"{actor} collapses instead of attacking", ATTACK_ROLL, actor=actor)
        return
    will = will_to_act_waiting(play, actor) if play.state.settings.actions_wait_for_will else None
    if will is not None:  # the maneuver's Will roll at 0 FP is the table's: the attack waits for it
        wait_for_will(play, will, "attack", params)
        return
    char = play.char(actor)
    base = _base_skill(actor, char, weapon, params.opt_int("skill"))
    mods = attack_modifiers(play, actor, target, weapon, params)
    effective = base + sum(m.value for m in mods)
    if turn.maneuver == "move-and-attack" and not weapon.ranged and effective > 9:
        mods.append(Modifier(9 - effective, "Move and Attack: skill at most 9"))
    dice = _damage_dice(play, actor, turn, weapon)
    if params.int("hits") > 1 and weapon.rof < 2 and weapon.name in {w.name for w in char.weapons}:
        raise RuleRefusal(
            f"{weapon.name} has RoF {weapon.rof}; only rapid fire scores several hits (seed 004, Dodging)"
        )
    info = _attack_info(actor, target, weapon, "" if dice is None else str(dice), turn, params)
    info.update(_distance(play, actor, weapon, params.opt_float("distance")))
    if info["defense"] not in (None, "none") and no_defense_reason(play, target, info) is None:
        defense_score(play, target, info, str(info["defense"]))  # refuse an illegal defense before rolling
    new_turn = evolve(
        turn,
        attacks_made=turn.attacks_made + 1,
        attacked_with=(*turn.attacked_with, weapon.name),
        aim=None if weapon.ranged else turn.aim,
    )
    play.put(actor, evolve(char, turn=new_turn))
    rule = RANGED if weapon.ranged else ATTACK_ROLL
    if turn.maneuver == "move-and-attack":
        rule = MOVE_AND_ATTACK
    # The skill rolled against: every modifier, the melee cap of Move and Attack included (ranged has none).
    play.result.update({"attack_skill": base + sum(m.value for m in mods)})
    ask_success_roll(
        play,
        kind="gurps.attack",
        label=f"{actor} attacks {target} with {weapon.name}",
        base=base,
        modifiers=mods,
        purpose="attack",
        rule=rule,
        actor=actor,
        data=info,
    )


def on_attack_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    info = dict(pending.data)
    actor = str(info["attacker"])
    target = str(info["target"])
    if not result.success:
        play.explain(f"{actor} misses {target}", ATTACK_ROLL, actor=actor)
        play.result["hit"] = False
        return
    if play.char(target).dead:
        play.explain(f"{target} is already dead", ATTACK_ROLL, actor=actor)
        return
    if result.critical is Critical.SUCCESS:
        maximum = result.total == 3
        text = "a 3: maximum damage, no defense" if maximum else "a critical hit: no defense roll"
        play.explain(f"{actor} rolls {text}", ATTACK_ROLL, actor=actor)
        play.result["critical"] = True
        resolve_hits(play, info, int(info.get("hits", 1)), maximum=maximum)
        return
    reason = no_defense_reason(play, target, info)
    if reason is not None:
        play.explain(f"{actor} hits: {reason}, so no defense", DEFENDING, actor=actor)
        resolve_hits(play, info, int(info.get("hits", 1)))
        return
    choice = info.get("defense")
    if choice == "none":
        play.explain(f"{target} does not defend", DEFENDING, actor=target)
        resolve_hits(play, info, int(info.get("hits", 1)))
        return
    if choice is not None:
        try:
            ask_defense(play, info, str(choice))
            return
        except RuleRefusal as exc:
            play.explain(f"{target} cannot {choice} after all ({exc}); the hit waits for a legal defense", DEFENDING)
    _await_defense(play, info, pending.id)


def _await_defense(play: Play[GurpsCharacter], info: Mapping[str, Any], attack_id: int) -> None:
    target = str(info["target"])
    char = play.char(target)
    incoming = IncomingAttack(
        id=attack_id,
        attacker=str(info["attacker"]),
        weapon=str(info["weapon"]),
        kind=str(info["kind"]),
        damage=str(info["damage"]),
        damage_type=str(info["damage_type"]),
        hits=int(info.get("hits", 1)),
        defense_penalty=int(info.get("defense_penalty", 0)),
        small_thrown=bool(info.get("small_thrown")),
        dr=None if info.get("dr") is None else int(info["dr"]),
        location=str(info.get("location") or "torso"),
        damage_roll=None if info.get("damage_roll") is None else int(info["damage_roll"]),
        effect=str(info.get("effect") or ""),
        half_damage=bool(info.get("half_damage")),
    )
    play.put(target, evolve(char, incoming=(*char.incoming, incoming)))
    play.explain(
        f"{info['attacker']}'s attack is good: {target} may defend (action defend, attack #{attack_id})",
        DEFENDING,
        actor=target,
    )
    play.result["awaiting_defense"] = attack_id


def incoming_info(
    chosen: IncomingAttack,
    defender: str,
    *,
    second_defense: str | None = None,
    second_weapon: str | None = None,
    parry_weapon: str | None = None,
    parry_skill: str | None = None,
    defense_modifier: int = 0,
) -> dict[str, Any]:
    """A waiting attack as its defense roll sees it, with the defender's choices (``defend``,
    and the odds a defender's page shows for each defence before choosing)."""
    info: dict[str, Any] = {
        "attacker": chosen.attacker,
        "target": defender,
        "weapon": chosen.weapon,
        "kind": chosen.kind,
        "damage": chosen.damage,
        "damage_type": chosen.damage_type,
        "hits": chosen.hits,
        "defense_penalty": chosen.defense_penalty,
        "small_thrown": chosen.small_thrown,
        "dr": chosen.dr,
        "location": chosen.location,
        "damage_roll": chosen.damage_roll,
        "second_defense": second_defense,
        **({"second_weapon": second_weapon} if second_weapon else {}),
        "parry_weapon": parry_weapon,
        "parry_skill": parry_skill,
        "defense_modifier": defense_modifier,
    }
    if chosen.effect:
        info["effect"] = chosen.effect
    if chosen.half_damage:
        info["half_damage"] = True
    return info


def defend_action(play: Play[GurpsCharacter], action: Call) -> None:
    """The ``defend`` action: the defender answers an attack that is waiting for them."""
    actor = action.character
    params = action.params
    char = play.char(actor)
    if not char.incoming:
        raise RuleRefusal(f"no attack on {actor} is waiting for a defense")
    wanted = params.opt_int("attack")
    chosen = next((a for a in char.incoming if wanted is None or a.id == wanted), None)
    if chosen is None:
        ids = ", ".join(f"#{a.id}" for a in char.incoming)
        raise InputError(f"no waiting attack #{wanted} on {actor}", expected=f"one of {ids}", where="attack")
    info = incoming_info(
        chosen,
        actor,
        second_defense=params.opt_str("second_defense"),
        second_weapon=params.opt_str("second_weapon"),
        parry_weapon=params.opt_str("weapon"),
        parry_skill=params.opt_str("parry_skill"),
        defense_modifier=params.int("modifier"),
    )
    choice = params.str("defense")
    if choice != "none" and no_defense_reason(play, actor, info) is None:
        defense_score(play, actor, info, choice)  # refuse before anything changes
    play.put(actor, evolve(char, incoming=tuple(a for a in char.incoming if a.id != chosen.id)))
    if choice == "none" or no_defense_reason(play, actor, info) is not None:
        play.explain(f"{actor} takes the hit from {chosen.attacker}", DEFENDING, actor=actor)
        resolve_hits(play, info, chosen.hits)
        return
    ask_defense(play, info, choice)


def resolve_hits(play: Play[GurpsCharacter], info: Mapping[str, Any], hits: int, *, maximum: bool = False) -> None:
    """Roll damage for each hit and apply it to the target, one hit after the other."""
    play.result["hit"] = True
    play.result["hits"] = hits
    if not info.get("damage"):
        # a weapon with only an effect (a grapple, an affliction): the hit lands, the GM applies it
        effect = str(info.get("effect") or "its effect")
        play.explain(
            f"{info['weapon']} hits {info['target']}: {effect}, which rulekeeper does not apply (the GM does)",
            DAMAGE,
            actor=str(info["attacker"]),
        )
        play.result["effect"] = effect
        return
    label = f"damage of {info['weapon']}"
    chain = {**info, "label": label, "hit_index": 0, "hit_count": hits, "maximum": maximum}
    _next_hit(play, chain)


def ask_damage(play: Play[GurpsCharacter], info: Mapping[str, Any]) -> None:
    """Ask for one damage roll (kind ``gurps.damage``); :func:`on_damage_roll` lands it.

    ``info`` names the target, damage dice and type, DR and location, the roller (``attacker``)
    and, for a volley, which hit of how many this is. A critical 3 or a total already typed
    at the table needs no roll.
    """
    dice = parse_damage(str(info["damage"]))
    index, count = int(info.get("hit_index", 0)), int(info.get("hit_count", 1))
    label = str(info["label"]) + (f" (hit {index + 1} of {count})" if count > 1 else "")
    typed = info.get("damage_roll") if index == 0 else None
    roller = str(info["attacker"])
    if info.get("maximum") or typed is not None:
        damage = damage_without_dice(
            play,
            dice,
            label,
            DAMAGE,
            actor=roller,
            typed=None if typed is None else int(typed),
            maximum=bool(info.get("maximum")),
        )
        _land_hit(play, info, damage)
        return
    target = str(info["target"])
    type_name = DAMAGE_TYPES[str(info["damage_type"])].name
    play.roll_check(
        DiceRoll(kind="gurps.damage", label=label, notation=dice.notation, floor=0, style="sum"),
        purpose="damage",
        rule=DAMAGE,
        actor=roller,
        data=dict(info),
        stakes=Stakes(
            purpose=f"{label} against {target}",
            on_success=f"the total less {target}'s DR, times the {type_name} wounding multiplier, is injury",
        ),
    )


def on_damage_roll(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    _land_hit(play, pending.data, result.total)


def _land_hit(play: Play[GurpsCharacter], info: Mapping[str, Any], damage: int) -> None:
    target = str(info["target"])
    if play.char(target).dead:
        return
    if info.get("half_damage"):
        halved = half_damage(damage)
        play.explain(f"at 1/2D range: {damage} basic damage halves to {halved}", HALF_DAMAGE, actor=target)
        damage = halved
    apply_damage(
        play,
        target,
        damage,
        str(info["damage_type"]),
        dr=None if info.get("dr") is None else int(info["dr"]),
        location=str(info.get("location") or "torso"),
    )
    _next_hit(play, {**info, "hit_index": int(info.get("hit_index", 0)) + 1})


def _next_hit(play: Play[GurpsCharacter], info: Mapping[str, Any]) -> None:
    if int(info.get("hit_index", 0)) >= int(info.get("hit_count", 1)) or play.char(str(info["target"])).dead:
        return
    ask_damage(play, info)


def apply_damage(
    play: Play[GurpsCharacter],
    target: str,
    damage: int,
    damage_type: str,
    *,
    dr: int | None = None,
    location: str = "torso",
) -> int:
    """Basic damage -> penetrating damage (after DR) -> injury (wounding multiplier); returns the injury."""
    char = play.char(target)
    used_dr = char.dr_at(location) if dr is None else dr
    pen = penetrating(damage, used_dr)
    row = DAMAGE_TYPES[damage_type]
    min_injury = bool(play.option("min_injury", True))
    injury = injury_from(pen, damage_type, min_injury=min_injury)
    play.result.update({"damage": damage, "dr": used_dr, "penetrating": pen, "injury_done": injury})
    if pen <= 0:
        play.explain(f"{damage} damage does not get through DR {used_dr}", DAMAGE, actor=target)
        return 0
    raw = row.times(pen)
    text = f"{damage} - DR {used_dr} = {pen} penetrating; {row.name} x{float(row.multiplier):g} = {injury}"
    play.explain(text, row.rule, actor=target)
    if min_injury and raw < injury:
        play.explain("a penetrating hit does at least 1 HP of injury", MIN_INJURY, actor=target)
    if row.fatigue:
        lose_fp(play, target, injury, row.rule)
    else:
        take_injury(play, target, injury, row.rule, location=location)
    return injury


def ask_parry_counter(play: Play[GurpsCharacter], info: Mapping[str, Any]) -> None:
    """A weapon parry of an unarmed attack may injure the attacker: a skill roll, then damage with no defense."""
    defender = str(info["target"])
    char = play.char(defender)
    name = info.get("parry_weapon")
    weapon = char.weapon(str(name)) if name else best_parry_weapon(char)
    if weapon is None:
        return
    level = char.weapon_level(weapon)
    if level is None:
        return
    ask_success_roll(
        play,
        kind="gurps.parry-counter",
        label=f"{defender} {weapon.skill} to strike the parried limb",
        base=level,
        purpose="parry-counter",
        rule=PARRY,
        actor=defender,
        data={"attacker": defender, "target": str(info["attacker"]), "weapon": weapon.name},
    )


def on_parry_counter_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    if not result.success:
        play.explain(f"{pending.actor}'s parry does not catch the limb", PARRY, actor=pending.actor)
        return
    defender = str(pending.data["attacker"])
    char = play.char(defender)
    weapon = char.weapon(str(pending.data["weapon"]))
    assert weapon is not None
    if not weapon.damage:
        play.explain(f"{defender}'s parry catches the limb, but {weapon.name} does no damage", PARRY, actor=defender)
        return
    dice = parse_damage(weapon.damage, char.st)
    play.explain(f"{defender}'s parry strikes the attacker's limb squarely: no defense", PARRY, actor=defender)
    info = {
        "attacker": defender,
        "target": str(pending.data["target"]),
        "weapon": weapon.name,
        "damage": str(dice),
        "damage_type": weapon.damage_type,
    }
    resolve_hits(play, info, 1)


#: Attacking (seed 004, "Attacking"): the attack roll, its damage and a parry's counter-strike.
ATTACK_SECTION = Section(
    "attack",
    checks=(
        CheckSpec("attack", on_attack_check, check_stakes),
        CheckSpec("damage", on_damage_roll, check_stakes),
        CheckSpec("parry-counter", on_parry_counter_check, check_stakes),
    ),
    skip_orphans=True,
)
