"""The GM's view of a GURPS character: every stored and derived value, and its conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.systems.gurps.encumbrance import ENCUMBRANCE_LEVELS, OVERLOADED
from rulekeeper.systems.gurps.maneuvers import ALL_DEFENSES, maneuver_named, movement_yards
from rulekeeper.systems.gurps.thresholds import dead_at, death_thresholds

if TYPE_CHECKING:
    from rulekeeper.core.state import GameState
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["character_view"]


def character_view(state: GameState[GurpsCharacter], actor: str) -> dict[str, Any]:
    char = state.characters[actor]
    level = char.encumbrance_level
    turn = char.turn
    conditions = [c.name for c in state.conditions_of(actor)]
    shock = state.condition(actor, "shock")
    combat = state.condition(actor, "in combat")
    skills = dict(char.skills)
    for name in ("climbing", "hiking"):
        level_of = char.skill(name)
        if level_of is not None:
            skills.setdefault(name, level_of)
    parry_by_skill: dict[str, int] = {}
    for w in char.weapons:
        if w.can_parry and not w.ranged:
            value = char.parry(w.skill)
            if value is not None:
                parry_by_skill[w.skill] = value
    maneuver = maneuver_named(turn.maneuver) if turn.maneuver else None
    defenses: list[str] = list(maneuver.defenses) if maneuver else list(ALL_DEFENSES)
    if any(c in conditions for c in ("unconscious", "collapsed", "dead")):
        defenses = []
    increased_dodge = turn.option == "increased" and turn.defense == "dodge"
    view: dict[str, Any] = {
        "name": char.name,
        "st": char.st,
        "dx": char.dx,
        "iq": char.iq,
        "ht": char.ht,
        "hp": char.hp,
        "fp": char.fp,
        "will": char.will,
        "per": char.per,
        "current_hp": char.current_hp,
        "current_fp": char.current_fp,
        "hp_lost": char.hp - char.current_hp,
        "fp_lost": char.fp - char.current_fp,
        "basic_lift": char.basic_lift,
        "basic_speed": char.basic_speed,
        "basic_move": char.basic_move,
        "carried": char.carried,
        "encumbrance_level": level,
        "encumbrance": "overloaded" if level >= OVERLOADED else ENCUMBRANCE_LEVELS[level].name,
        "encumbrance_limits": [row.max_bl * char.basic_lift for row in ENCUMBRANCE_LEVELS],
        "encumbered_move": char.encumbered_move,
        "move": char.move,
        "basic_dodge": char.basic_dodge,
        "encumbered_dodge": char.encumbered_dodge,
        "dodge": char.dodge,
        "parry": char.weapon_parries,
        "parry_by_skill": parry_by_skill,
        "block": char.block,
        "shield_skill": char.shield_skill,
        "effective_st": char.effective_st,
        "skills": skills,
        "dr": char.dr,
        "is_pc": char.is_pc,
        "weapons": [w.name for w in char.weapons],
        "posture": char.posture,
        "reeling": char.reeling,
        "very_tired": char.very_tired,
        "dead": char.dead,
        "shock": int(shock.data.get("penalty", 0)) if shock else 0,
        "death_checks_at": list(death_thresholds(char.hp)),
        "dead_at": dead_at(char.hp),
        "turn": turn.number,
        "maneuver": turn.maneuver,
        "maneuver_option": turn.option,
        "increased_defense": turn.defense if turn.option == "increased" else None,
        "allowed_defenses": defenses,
        "maneuver_move": movement_yards(maneuver.movement, char.move, increased_dodge=increased_dodge)
        if maneuver
        else None,
        "attacks_left": max(0, turn.attacks_allowed - turn.attacks_made),
        "block_used": turn.block_used,
        "aim_turns": turn.aim.turns if turn.aim else 0,
        "aim_target": turn.aim.target if turn.aim else None,
        "evaluate_bonus": turn.evaluate.bonus if turn.evaluate else 0,
        "feint": {"target": turn.feint.target, "margin": turn.feint.margin} if turn.feint else None,
        "wait_trigger": turn.trigger,
        "concentrating_on": turn.task if turn.maneuver == "concentrate" else None,
        "incoming_attacks": [a.id for a in char.incoming],
        "combat_place": combat.data.get("place") if combat else None,
        "conditions": conditions,
    }
    return view
