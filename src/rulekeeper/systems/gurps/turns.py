"""Taking a turn: choosing a maneuver and recording what it allows until the next turn.

One :func:`take_maneuver` call is one turn of one character (seed 004, "Maneuvers"). It
enforces who may act (stun and surprise force Do Nothing; collapse and unconsciousness allow
nothing else), starts the new turn (shock from before the last turn wears off, the per-turn
block resets), asks for the Will roll to act at 0 FP, and records the maneuver on the character.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.core.check import Modifier
from rulekeeper.core.clock import format_duration
from rulekeeper.core.frozen import evolve
from rulekeeper.core.params import Params
from rulekeeper.core.success_roll import QuickContest, SuccessRoll
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.character import AimState, EvaluateState, FeintState, TurnState, Weapon
from rulekeeper.systems.gurps.fatigue import ask_will_to_act, needs_will_to_act
from rulekeeper.systems.gurps.injury import shock_modifier
from rulekeeper.systems.gurps.maneuvers import (
    AOA_MELEE_OPTIONS,
    AOA_RANGED_OPTIONS,
    AOD_OPTIONS,
    maneuver_named,
    movement_yards,
)
from rulekeeper.systems.gurps.recovery import interrupt_rest
from rulekeeper.systems.gurps.rules import (
    ALL_OUT_DEFENSE,
    CHANGE_POSTURE,
    DO_NOTHING,
    EVALUATE,
    FEINT,
    SHOCK,
    STUN,
    SUPPRESSION_FIRE,
    WAIT,
)
from rulekeeper.systems.gurps.status import is_stunned

if TYPE_CHECKING:
    from rulekeeper.core.check import CheckResult
    from rulekeeper.core.citation import Rule
    from rulekeeper.core.play import Play
    from rulekeeper.core.state import PendingCheck
    from rulekeeper.systems.gurps.character import GurpsCharacter

__all__ = ["ATTACKING_MANEUVERS", "on_feint_check", "pick_weapon", "take_maneuver"]

ATTACKING_MANEUVERS = ("attack", "all-out-attack", "move-and-attack")
LYING = ("prone", "face up")


def pick_weapon(char: GurpsCharacter, name: str | None, *, melee: bool | None = None) -> Weapon | None:
    """The named weapon (error if unknown), else the first fitting weapon on the sheet, else None."""
    if name:
        weapon = char.weapon(name)
        if weapon is None:
            known = ", ".join(w.name for w in char.weapons) or "none on the sheet"
            raise InputError(f"{char.name or 'the character'} has no weapon {name!r}", expected=f"one of: {known}")
        return weapon
    for w in char.weapons:
        if melee is None or w.ranged != melee:
            return w
    return None


def _refuse_if_unable(play: Play[GurpsCharacter], actor: str, choice: str) -> None:
    char = play.char(actor)
    if char.dead or play.has(actor, "dead"):
        raise RuleRefusal(f"{actor} is dead")
    if play.has(actor, "unconscious"):
        raise RuleRefusal(
            f"{actor} is unconscious and can take no maneuver (seed 004, Recovering from Unconsciousness)"
        )
    if choice == "do-nothing":
        return
    if play.has(actor, "collapsed"):
        raise RuleRefusal(
            f"{actor} has collapsed from fatigue and can do nothing until FP are positive "
            "(seed 004, Lost Fatigue Points)"
        )
    if is_stunned(play, actor):
        raise RuleRefusal(f"{actor} is stunned and must Do Nothing (seed 004, Do Nothing; Stunning, Lite p. 30)")
    if play.has(actor, "surprised"):
        raise RuleRefusal(f"{actor} is surprised and must Do Nothing this turn (seed 004, Do Nothing)")
    if char.overloaded and maneuver_named(choice).movement in ("full move", "half move forward"):
        raise RuleRefusal(
            f"{actor} carries more than 10 x BL ({char.carried:g} lb) and cannot move "
            "(seed 004, Encumbrance and Move, Lite p. 17)"
        )


def _new_turn(play: Play[GurpsCharacter], actor: str) -> int:
    """Start the character's next turn; returns its number."""
    char = play.char(actor)
    number = char.turn.number + 1
    shock = play.state.condition(actor, "shock")
    if shock is not None and int(shock.data.get("turn", number)) < number:
        play.remove_condition(actor, "shock", SHOCK)
    interrupt_rest(play, actor)
    return number


@dataclass(frozen=True)
class _Chosen:
    """A maneuver being taken: who takes it, their sheet as the turn began, its options, and the
    turn before it (``old``) and its number now."""

    play: Play[GurpsCharacter]
    actor: str
    char: GurpsCharacter
    params: Params
    old: TurnState
    number: int


# What a maneuver family makes of the new turn: the turn as recorded, notes for the explanation,
# and the rule cited when it is not the maneuver's own.
_Taken = tuple[TurnState, list[str], "Rule | None"]


def take_maneuver(play: Play[GurpsCharacter], actor: str, params: Params) -> None:
    """Apply the ``maneuver`` action: the ``choice`` of maneuver and its options.

    What every maneuver shares happens here; what one family adds is in :data:`_FAMILIES`.
    """
    choice = maneuver_named(params.str("choice")).name
    _refuse_if_unable(play, actor, choice)
    char = play.char(actor)
    old = char.turn
    if params.bool("triggered"):
        _trigger_wait(play, actor, choice, params)
        return
    number = _new_turn(play, actor)
    spec = maneuver_named(choice)
    target = params.opt_str("target")
    if target is not None and target == actor:
        raise InputError("a character cannot target themselves", expected="another character id", where="target")
    if target is not None:
        play.char(target)  # unknown ids are refused here, with the known ones listed
    turn = TurnState(
        number=number,
        maneuver=choice,
        weapon=params.opt_str("weapon"),
        target=target,
        attacks_allowed=spec.attacks,
        aim=old.aim if old.aim is not None and old.aim.turn == number - 1 else None,
        evaluate=old.evaluate if old.evaluate is not None and old.evaluate.turn == number - 1 else None,
        feint=old.feint if old.feint is not None and old.feint.applies_turn >= number else None,
    )
    notes: list[str] = []
    rule: Rule | None = None
    family = _FAMILIES.get(choice)
    if family is not None:
        turn, notes, rule = family(_Chosen(play, actor, char, params, old, number), turn)
    play.put(actor, evolve(play.char(actor), turn=turn))
    _explain_turn(play, actor, choice, notes, rule or spec.rule)
    if choice == "feint" or (choice == "all-out-attack" and params.opt_str("option") == "feint"):
        _ask_feint(play, actor, params, this_turn=choice == "all-out-attack")
    if needs_will_to_act(play.char(actor)) and choice != "do-nothing":
        ask_will_to_act(play, actor, f"take the {choice} maneuver")


def _aim(c: _Chosen, turn: TurnState) -> _Taken:
    weapon = pick_weapon(c.char, c.params.opt_str("weapon"), melee=False)
    if weapon is None or not weapon.ranged:
        raise RuleRefusal(f"Aim needs a ranged weapon (seed 004, Aim); {c.actor} has none named")
    target = c.params.opt_str("target")
    if target is None:
        raise InputError("Aim needs a target", expected="a character id", where="target")
    prev = c.old.aim
    turns = (
        prev.turns + 1
        if prev and prev.turn == c.number - 1 and (prev.weapon, prev.target) == (weapon.name, target)
        else 1
    )
    turn = evolve(turn, weapon=weapon.name, aim=AimState(weapon.name, target, turns, c.number))
    bonus = min(2, turns - 1)
    note = f"aiming {weapon.name} at {target} for {turns} turn(s): Acc {weapon.acc}" + (f" {bonus:+d}" if bonus else "")
    return turn, [note], None


def _all_out_attack(c: _Chosen, turn: TurnState) -> _Taken:
    option, weapon_name = c.params.opt_str("option"), c.params.opt_str("weapon")
    weapon = pick_weapon(c.char, weapon_name)
    ranged = weapon is not None and weapon.ranged
    allowed = AOA_RANGED_OPTIONS if ranged else AOA_MELEE_OPTIONS
    if option not in allowed:
        kind = "ranged" if ranged else "melee"
        raise InputError(
            f"All-Out Attack ({kind}) needs an option", expected="one of " + ", ".join(allowed), where="option"
        )
    notes: list[str] = []
    rule = None
    if option == "suppression":
        assert weapon is not None
        if weapon.rof < 5:
            raise RuleRefusal(
                f"Suppression Fire needs RoF 5+; {weapon.name} has RoF {weapon.rof} (seed 004, All-Out Attack)"
            )
        rule = SUPPRESSION_FIRE
        notes.append("suppression fire: resolve it by Basic Set p. 410, which seed 004 does not include")
    turn = evolve(
        turn,
        option=option,
        feint=None if option == "feint" else turn.feint,
        weapon=weapon.name if weapon else weapon_name,
        attacks_allowed=2 if option == "double" else (0 if option == "suppression" else 1),
    )
    notes.append("no active defense until the next turn; may move up to half Move, forward only")
    return turn, notes, rule


def _all_out_defense(c: _Chosen, turn: TurnState) -> _Taken:
    option = c.params.opt_str("option")
    if option not in AOD_OPTIONS:
        raise InputError("All-Out Defense needs an option", expected="one of " + ", ".join(AOD_OPTIONS), where="option")
    defense = c.params.opt_str("defense")
    if option == "increased":
        if defense is None:
            raise InputError(
                "Increased Defense needs the defense to raise", expected="dodge, parry or block", where="defense"
            )
        note = f"+2 to {defense} until the next turn"
    else:
        defense = None
        note = "may try a second, different defense after a failed one"
    return evolve(turn, option=option, defense=defense), [note], ALL_OUT_DEFENSE


def _change_posture(c: _Chosen, turn: TurnState) -> _Taken:
    posture = c.params.opt_str("posture")
    if posture is None:
        raise InputError(
            "Change Posture needs a posture",
            expected="standing, sitting, kneeling, crawling, prone or face up",
            where="posture",
        )
    if c.char.posture in LYING and posture == "standing":
        raise RuleRefusal(
            f"{c.actor} is lying down ({c.char.posture}): standing up takes two Change Posture maneuvers, "
            "first to crawling, kneeling or sitting (seed 004, Change Posture)"
        )
    c.play.put(c.actor, evolve(c.play.char(c.actor), posture=posture))
    return turn, [f"now {posture}"], CHANGE_POSTURE


def _concentrate(c: _Chosen, turn: TurnState) -> _Taken:
    task = c.params.opt_str("task") or "a mental task"
    return evolve(turn, task=task), [f"concentrating on {task}"], None


def _do_nothing(c: _Chosen, turn: TurnState) -> _Taken:
    notes: list[str] = []
    rule = None
    if c.play.has(c.actor, "stunned"):
        notes.append("stunned: defends at -4; rolls to recover at the end of the turn")
        rule = STUN
    fear = c.play.state.condition(c.actor, "stunned by fear")
    if fear is not None and fear.until is not None:
        notes.append(f"stunned by fear: defends at -4 for {format_duration(fear.until - c.play.now)} more")
        rule = STUN
    if c.play.has(c.actor, "surprised"):
        c.play.remove_condition(c.actor, "surprised", DO_NOTHING)
    return turn, notes, rule


def _evaluate(c: _Chosen, turn: TurnState) -> _Taken:
    target = c.params.opt_str("target")
    if target is None:
        raise InputError("Evaluate needs an opponent", expected="a character id", where="target")
    prev = c.old.evaluate
    consecutive = prev is not None and prev.turn == c.number - 1 and prev.target == target
    bonus = min(3, prev.bonus + 1) if consecutive and prev else 1
    turn = evolve(turn, evaluate=EvaluateState(target, bonus, c.number))
    return turn, [f"+{bonus} to attack or feint {target} next turn"], EVALUATE


def _feint(c: _Chosen, turn: TurnState) -> _Taken:
    if c.params.opt_str("target") is None:
        raise InputError("Feint needs an opponent", expected="a character id", where="target")
    weapon = pick_weapon(c.char, c.params.opt_str("weapon"), melee=True)
    # a new Feint's outcome replaces any earlier one
    return evolve(turn, weapon=weapon.name if weapon else None, feint=None), [], None


def _wait(c: _Chosen, turn: TurnState) -> _Taken:
    trigger, option = c.params.opt_str("trigger"), c.params.opt_str("option")
    if not trigger:
        raise InputError("Wait needs a trigger", expected="text such as 'the orc steps into reach'", where="trigger")
    wait_action = c.params.opt_str("wait_action") or "attack"
    if wait_action == "all-out-attack" and option not in AOA_MELEE_OPTIONS + AOA_RANGED_OPTIONS:
        raise InputError(
            "a Wait for an All-Out Attack names its option now",
            expected="determined, double, feint, strong or suppression",
            where="option",
        )
    turn = evolve(turn, trigger=trigger, wait_action=wait_action, option=option)
    return turn, [f"waiting to {wait_action} when: {trigger}"], WAIT


def _ready(c: _Chosen, turn: TurnState) -> _Taken:
    task = c.params.opt_str("task")
    return turn, [f"readies {task}"] if task else [], None


# What each maneuver family adds to the turn; a maneuver not listed (attack, move, move-and-attack)
# adds nothing beyond what every maneuver records.
_FAMILIES: dict[str, Callable[[_Chosen, TurnState], _Taken]] = {
    "aim": _aim,
    "all-out-attack": _all_out_attack,
    "all-out-defense": _all_out_defense,
    "change-posture": _change_posture,
    "concentrate": _concentrate,
    "do-nothing": _do_nothing,
    "evaluate": _evaluate,
    "feint": _feint,
    "wait": _wait,
    "ready": _ready,
}


def _maneuver_params(play: Play[GurpsCharacter], **values: Any) -> Params:
    """The ``maneuver`` action's parameters for a maneuver the rules take on a character's behalf."""
    return Params.validate(play.ruleset.actions()["maneuver"].params, values, "maneuver")


def _explain_turn(play: Play[GurpsCharacter], actor: str, choice: str, notes: list[str], rule: Rule) -> None:
    char = play.char(actor)
    spec = maneuver_named(choice)
    turn = char.turn
    increased_dodge = turn.option == "increased" and turn.defense == "dodge"
    yards = movement_yards(spec.movement, char.move, increased_dodge=increased_dodge)
    if play.explaining:
        movement = "half Move (increased dodge)" if increased_dodge else spec.movement
        defenses = ", ".join(spec.defenses) or "none"
        text = f"{actor} takes {choice} (turn {turn.number}): movement {movement} ({yards} yd), defenses: {defenses}"
        if notes:
            text += "; " + "; ".join(notes)
        play.explain(text, rule, actor=actor)
    play.result.update(
        {"maneuver": choice, "option": turn.option, "move": yards, "defenses": list(spec.defenses), "turn": turn.number}
    )


def _trigger_wait(play: Play[GurpsCharacter], actor: str, choice: str, params: Params) -> None:
    char = play.char(actor)
    turn = char.turn
    if turn.maneuver != "wait":
        raise RuleRefusal(f"{actor} is not waiting; only a Wait can be triggered (seed 004, Wait)")
    if choice != turn.wait_action:
        raise RuleRefusal(f"{actor} waited to {turn.wait_action}, not to {choice} (seed 004, Wait)")
    spec = maneuver_named(choice)
    allowed = spec.attacks
    if choice == "all-out-attack":
        allowed = 2 if turn.option == "double" else (0 if turn.option == "suppression" else 1)
    target = params.opt_str("target") or turn.target
    weapon = params.opt_str("weapon") or turn.weapon
    play.put(
        actor,
        evolve(char, turn=evolve(turn, maneuver=choice, attacks_allowed=allowed, target=target, weapon=weapon)),
    )
    play.explain(
        f"{actor}'s Wait is triggered ({turn.trigger}): it becomes {choice}, interrupting the turn sequence",
        WAIT,
        actor=actor,
    )
    play.result.update({"maneuver": choice, "option": turn.option, "triggered": True})
    if choice == "feint" or (choice == "all-out-attack" and turn.option == "feint"):
        _ask_feint(play, actor, params.replace(target=target, weapon=weapon), this_turn=choice != "feint")


def attack_turn(play: Play[GurpsCharacter], actor: str) -> TurnState:
    """The turn an ``attack`` action belongs to: the current attacking maneuver if it has an attack
    left, a triggered Wait, or else a fresh Attack maneuver (a new turn)."""
    turn = play.char(actor).turn
    if turn.maneuver in ATTACKING_MANEUVERS and turn.attacks_made < turn.attacks_allowed:
        _refuse_if_unable(play, actor, turn.maneuver or "attack")
        return turn
    if turn.maneuver == "wait" and turn.wait_action in ("attack", "all-out-attack"):
        _trigger_wait(play, actor, turn.wait_action, _maneuver_params(play, choice=turn.wait_action, triggered=True))
        return play.char(actor).turn
    if turn.maneuver == "all-out-attack" and turn.option == "suppression":
        raise RuleRefusal(
            "Suppression Fire is resolved by Basic Set p. 410, which seed 004 does not include; "
            "take a new maneuver next turn"
        )
    take_maneuver(play, actor, _maneuver_params(play, choice="attack"))
    return play.char(actor).turn


def _resisting_skill(char: GurpsCharacter) -> tuple[int, str]:
    """The foe's best of melee weapon skills, Shield/Cloak skill or DX (seed 004, Feint)."""
    best = (char.dx, "DX")
    for w in char.weapons:
        level = char.skill(w.skill)
        if not w.ranged and level is not None and level > best[0]:
            best = (level, w.skill)
    if char.shield_skill is not None and char.shield_skill > best[0]:
        best = (char.shield_skill, "shield")
    return best


def _ask_feint(play: Play[GurpsCharacter], actor: str, params: Params, *, this_turn: bool) -> None:
    char = play.char(actor)
    target = params.opt_str("target")
    if target is None:
        raise InputError("a Feint needs an opponent", expected="a character id", where="target")
    foe = play.char(target)
    weapon = pick_weapon(char, params.opt_str("weapon"), melee=True)
    if weapon is None or weapon.ranged:
        raise RuleRefusal("a Feint needs a ready melee weapon or unarmed attack (seed 004, Feint)")
    level = char.skill(weapon.skill)
    if level is None:
        raise InputError(f"{actor} has no {weapon.skill} skill", expected="the skill on the sheet", where="weapon")
    mods: list[Modifier] = []
    ev = char.turn.evaluate
    if ev is not None and ev.target == target and ev.turn == char.turn.number - 1:
        mods.append(Modifier(ev.bonus, "Evaluate"))
    shock = shock_modifier(play, actor)
    if shock is not None:
        mods.append(shock)
    if params.int("modifier"):
        mods.append(Modifier(params.int("modifier"), "circumstances"))
    resist = params.opt_int("resist")
    resist_level, resist_with = (resist, "given skill") if resist is not None else _resisting_skill(foe)
    contest = QuickContest(
        kind="gurps.feint",
        label=f"{actor} feints {target}",
        first=SuccessRoll(kind="gurps.feint", label=f"{actor} {weapon.skill}", base=level, modifiers=tuple(mods)),
        second=SuccessRoll(kind="gurps.feint", label=f"{target} {resist_with}", base=resist_level),
    )
    number = char.turn.number
    play.check(
        contest,
        purpose="feint",
        rule=FEINT,
        actor=actor,
        data={"target": target, "applies_turn": number if this_turn else number + 1},
    )


def feint_margin(first_success: bool, first_margin: int, second_success: bool, second_margin: int) -> int:
    """What a Feint takes off the foe's defense: 0 if it failed (seed 004, Feint).

    The foe failed: your margin of success. Both succeeded and you by more: the difference.
    """
    if not first_success:
        return 0
    if not second_success:
        return max(0, first_margin)
    return max(0, first_margin - second_margin)


def on_feint_check(play: Play[GurpsCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    assert actor is not None
    first = result.details.get("first", {})
    second = result.details.get("second", {})
    margin = feint_margin(
        bool(first.get("success")),
        int(first.get("margin", 0)),
        bool(second.get("success")),
        int(second.get("margin", 0)),
    )
    target = str(pending.data["target"])
    play.result["feint"] = margin
    if margin <= 0:
        play.explain(f"{actor}'s feint fails", FEINT, actor=actor)
        return
    char = play.char(actor)
    applies = int(pending.data["applies_turn"])
    play.put(actor, evolve(char, turn=evolve(char.turn, feint=FeintState(target, margin, applies))))
    when = "this turn" if applies == char.turn.number else "next turn"
    play.explain(
        f"{actor}'s feint works: -{margin} to {target}'s defense against {actor}'s attack {when}", FEINT, actor=actor
    )
