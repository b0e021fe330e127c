"""A GURPS character's turn on the player's phone (issue 27; core/turn.py).

Seed 004, "Maneuvers": a turn is one maneuver, and an attack within an attacking one; "Attack
Roll" and "Range Attacks": the weapon's skill, damage and range, and the hit location; "Defending":
when an attack waits, the defences the defender's maneuver leaves, each with its score. The
one-tap rolls are the success rolls against the sheet's attributes and skills, the Fright Check
and the Sense rolls (seed 004, "Success Rolls", "Fright Checks", "Sense Rolls"), at the sheet's score: the GM's
modifiers and shock are applied when the roll is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.success_roll import SuccessRoll
from rulekeeper.core.turn import Choice, Tap, TurnAction
from rulekeeper.errors import RuleRefusal
from rulekeeper.systems.gurps.damage_table import parse_damage

if TYPE_CHECKING:
    from rulekeeper.core.check import Modifier
    from rulekeeper.core.state import GameState
    from rulekeeper.systems.gurps.character import GurpsCharacter, IncomingAttack, Weapon

__all__ = ["TURN_ACTIONS", "defence_taps", "weapon_choices"]

#: What a GURPS character does on a turn: a maneuver, an attack within it, and rests.
TURN_ACTIONS = (
    TurnAction("maneuver", "Choose a maneuver", params=("choice", "option", "defense", "target", "weapon", "posture")),
    TurnAction("attack", "Attack", params=("target", "weapon", "location", "distance", "hits")),
    TurnAction("rest", "Rest", group="rest", params=("kind", "meal")),
)
#: Attributes rolled with a tap, and how the card names them.
_ATTRIBUTES = {"st": "ST", "dx": "DX", "iq": "IQ", "ht": "HT", "will": "Will", "per": "Per"}
_SENSES = {"vision": "Vision", "hearing": "Hearing", "taste-smell": "Taste/Smell"}


def _chance(base: int, modifiers: tuple[Modifier, ...] = ()) -> Any:
    return SuccessRoll(kind="gurps.turn", label="", base=base, modifiers=modifiers).probability()


def _weapon_label(char: GurpsCharacter, w: Weapon) -> str:
    level = char.weapon_level(w)
    dice = parse_damage(w.damage, char.st) if w.damage else None
    damage = f"{w.damage} {w.damage_type}" + (f" ({dice})" if dice is not None and str(dice) != w.damage else "")
    where = f"range {w.range}" if w.ranged and w.range else w.kind
    skill = f"{w.skill} {level}" if level is not None else f"no {w.skill} skill"
    return f"{w.name}: {skill}, {damage if w.damage else w.effect or 'no damage'}, {where}"


def weapon_choices(char: GurpsCharacter) -> tuple[Choice, ...]:
    """The sheet's weapons, melee and ranged, with skill level, damage and reach or range."""
    return tuple(Choice(w.name, _weapon_label(char, w)) for w in char.weapons)


def _defence(
    ruleset: Ruleset[GurpsCharacter],
    state: GameState[GurpsCharacter],
    actor: str,
    attack: IncomingAttack,
    choice: str,
    weapon: str | None,
    *,
    several: bool,
) -> Tap | None:
    """One defence against a waiting attack with its odds, or None when the rules forbid it now."""
    from rulekeeper.core.play import Play
    from rulekeeper.dice.source import SeededSource
    from rulekeeper.systems.gurps.attack import incoming_info
    from rulekeeper.systems.gurps.defense import defense_score

    play: Play[GurpsCharacter] = Play(ruleset, state, SeededSource(0), explain=False)
    info = incoming_info(attack, actor, parry_weapon=weapon)
    try:
        base, mods, label = defense_score(play, actor, info, choice)
    except RuleRefusal:
        return None
    chance = _chance(base, tuple(mods))
    chosen: dict[str, Any] = {"defense": choice, "attack": attack.id}
    if weapon:
        chosen["weapon"] = weapon
    shown = label.removeprefix(f"{actor} ")
    effective = base + sum(m.value for m in mods)
    against = f"against {attack.attacker}'s {attack.weapon} (#{attack.id})" if several else ""
    return Tap(f"{shown} {effective}", "defend", chosen, group="defend", detail=against, chance=chance)


def defence_taps(ruleset: Ruleset[GurpsCharacter], state: GameState[GurpsCharacter], actor: str) -> tuple[Tap, ...]:
    """For each attack waiting on ``actor``: every legal defence with its odds, and no defence."""
    char = state.characters[actor]
    out: list[Tap] = []
    several = len(char.incoming) > 1  # then each tap says which attack it answers
    for attack in char.incoming:
        options: list[tuple[str, str | None]] = [("dodge", None)]
        options += [("parry", w.name) for w in char.weapons if w.can_parry and not w.ranged]
        options.append(("block", None))
        for choice, weapon in options:
            tap = _defence(ruleset, state, actor, attack, choice, weapon, several=several)
            if tap is not None:
                out.append(tap)
        against = f"against {attack.attacker}'s {attack.weapon} (#{attack.id})" if several else ""
        out.append(
            Tap("No defence", "defend", {"defense": "none", "attack": attack.id}, group="defend", detail=against)
        )
    return tuple(out)


class GurpsTurn(Ruleset["GurpsCharacter"]):
    """The turn a GURPS ruleset offers a player's phone (mixed into ``GurpsRuleset``)."""

    turn_actions = TURN_ACTIONS

    def turn_picks(
        self, state: GameState[GurpsCharacter], actor: str, view: Mapping[str, Any]
    ) -> Mapping[str, tuple[Choice, ...]]:
        # The attacker's weapon; on the GM's forms the same lists give the defender's parrying weapons.
        weapons = weapon_choices(state.characters[actor])
        return {"weapon": weapons, "parry_weapon": weapons, "second_weapon": weapons}

    def turn_taps(self, state: GameState[GurpsCharacter], actor: str, view: Mapping[str, Any]) -> tuple[Tap, ...]:
        taps = list(defence_taps(self, state, actor))
        for key, name in _ATTRIBUTES.items():
            score = view.get(key)
            if isinstance(score, int):
                taps.append(Tap(f"{name} {score}", "attribute_roll", {"attribute": key}, chance=_chance(score)))
        skills = view.get("skills")
        if isinstance(skills, Mapping):
            for skill, level in skills.items():
                if isinstance(level, int):
                    taps.append(Tap(f"{skill} {level}", "skill_roll", {"skill": skill}, chance=_chance(level)))
        will, per = view.get("will"), view.get("per")
        if isinstance(will, int):
            taps.append(Tap(f"Fright Check {will}", "fright_check", {}, chance=_chance(will)))
        if isinstance(per, int):
            for key, name in _SENSES.items():
                taps.append(Tap(f"{name} {per}", "sense", {"sense": key}, chance=_chance(per)))
        return tuple(taps)

    def turn_waiting(self, state: GameState[GurpsCharacter], actor: str) -> tuple[str, ...]:
        return tuple(
            f"{a.attacker}'s attack with {a.weapon} hits {actor}'s {a.location}: choose a defence (attack #{a.id})"
            for a in state.characters[actor].incoming
        )
