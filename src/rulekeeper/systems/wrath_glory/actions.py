"""The actions Wrath & Glory offers, as specs every front end generates its commands from.

Handlers validate what the parameter specs cannot (either ``amount`` or ``dice``; known targets;
the living) and hand over to the rule modules; refusals name the rule that forbids the action.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Literal

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult
from rulekeeper.core.clock import HOUR
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError
from rulekeeper.limits import MAX_POOL, MAX_POOL_DICE
from rulekeeper.systems.wrath_glory import citations, conditions, options
from rulekeeper.systems.wrath_glory.character import RestKind, WrathGloryCharacter
from rulekeeper.systems.wrath_glory.damage import strike, suffer_shock
from rulekeeper.systems.wrath_glory.injuries import suffer_memorable_injury, suffer_traumatic_injury
from rulekeeper.systems.wrath_glory.manoeuvres import MANOEUVRES, take_action
from rulekeeper.systems.wrath_glory.pool_tests import ATTRIBUTES, TEST_PURPOSE, PoolRequest, build_test, pool_odds
from rulekeeper.systems.wrath_glory.recovery import recover, restore_shock
from rulekeeper.systems.wrath_glory.rest import end_rest, light_activity, start_rest, strenuous_activity
from rulekeeper.systems.wrath_glory.rolls import WGPlay
from rulekeeper.systems.wrath_glory.stakes import POOL_STAKES
from rulekeeper.systems.wrath_glory.traumatic_injuries import BodyPart, Side, lost_eyes, torso_injuries

__all__ = ["ACTIONS", "ACTIONS_SECTION", "DAMAGE_KIND", "DAMAGE_PURPOSE", "on_damage_roll"]


DAMAGE_KIND = "wg.damage"
DAMAGE_PURPOSE = "damage"


def _living(play: WGPlay, actor: str) -> WrathGloryCharacter:
    character = play.char(actor)
    if character.dead:
        raise RuleRefusal(f"{actor} is dead ({character.death.value if character.death else ''})")
    return character


def _targets(play: WGPlay, action: Call) -> tuple[str, ...]:
    raw = action.params.opt_str("targets")
    where = f"action {action.name}"
    if not raw:
        if action.actor is None:
            raise InputError("no one to damage", expected="a character, or targets=a,b,c", where=where)
        names: tuple[str, ...] = (action.actor,)
    else:
        names = tuple(name.strip() for name in raw.split(",") if name.strip())
    if not names:
        raise InputError("targets lists no one", expected="comma-separated character ids", where=where)
    if len(set(names)) != len(names):
        raise InputError("a target is listed twice", expected="each character once", where=where)
    for name in names:
        if name not in play.state.characters:
            known = ", ".join(sorted(play.state.characters)) or "none yet"
            raise UnknownNameError(f"unknown target {name!r}", expected=f"one of: {known}", where=where)
    if all(play.char(name).dead for name in names):
        raise RuleRefusal(f"{', '.join(names)}: already dead")
    return names


def _damage(play: WGPlay, action: Call) -> None:
    amount, dice = action.params.opt_int("amount"), action.params.opt_str("dice")
    if (amount is None) == (dice is None):
        raise InputError(
            "give the damage either as amount or as dice", expected="amount=8 or dice=1d6+7", where="action damage"
        )
    targets = _targets(play, action)
    mortal = action.params.bool("mortal")
    mortal_determination = action.params.bool("mortal_determination")
    if amount is not None:  # exactly one of the two, checked above
        strike(play, targets, amount, mortal=mortal, mortal_determination=mortal_determination)
        return
    rule = citations.MULTIPLE_TARGETS if len(targets) > 1 else citations.DAMAGE
    play.roll_check(
        DiceRoll(kind=DAMAGE_KIND, label="damage roll", notation=str(dice), floor=0),
        purpose=DAMAGE_PURPOSE,
        rule=rule,
        data={"targets": list(targets), "mortal": mortal, "mortal_determination": mortal_determination},
        stakes=Stakes(
            purpose=f"damage against {', '.join(targets)}",
            on_success="each point over Resilience is a Wound (Determination may turn them into Shock); "
            "equal to Resilience is 1 Shock",
        ),
    )


def on_damage_roll(play: WGPlay, pending: PendingCheck, result: CheckResult) -> None:
    """The damage dice are in: one roll serves every target."""
    data = pending.data
    targets = tuple(t for t in data["targets"] if t in play.state.characters)
    strike(
        play,
        targets,
        result.total,
        mortal=bool(data["mortal"]),
        mortal_determination=bool(data["mortal_determination"]),
    )


def _heal(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    wounds, shock = action.params.int("wounds"), action.params.int("shock")
    if wounds == 0 and shock == 0:
        raise InputError("nothing to heal", expected="wounds or shock of at least 1", where="action heal")
    recover(play, actor, wounds, shock, citations.WOUNDS)


def _shock(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    amount = action.params.int("amount")
    play.result["shock_inflicted"] = amount
    suffer_shock(play, actor, amount, citations.SHOCK)
    play.result["shock"] = play.char(actor).shock


def _restore_shock(play: WGPlay, action: Call) -> None:
    actor = action.character
    character = _living(play, actor)
    if character.wrath < 1:
        raise RuleRefusal(f"{actor} has no Wrath to spend on restoring Shock ({citations.SHOCK})")
    restore_shock(play, actor)


def _wrath(play: WGPlay, action: Call) -> None:
    actor = action.character
    character = _living(play, actor)
    change = action.params.int("change")
    if change == 0:
        raise InputError(
            "change must not be 0", expected="a gain such as 1 or a spend such as -1", where="action wrath"
        )
    if character.wrath + change < 0:
        raise RuleRefusal(f"{actor} has only {character.wrath} Wrath to spend ({citations.WRATH})")
    play.put(actor, replace(character, wrath=character.wrath + change))
    verb = "gains" if change > 0 else "spends"
    play.explain(
        f"{actor} {verb} {abs(change)} Wrath: {character.wrath} -> {character.wrath + change}",
        citations.WRATH,
        actor=actor,
    )
    play.result["wrath"] = character.wrath + change


def _test(play: WGPlay, action: Call) -> None:
    actor = action.character
    character = _living(play, actor)
    p = action.params
    attribute = p.opt_str("attribute")
    pool = p.opt_int("pool")
    if pool is None:
        stored = {"toughness": character.toughness, "willpower": character.willpower, "intellect": character.intellect}
        if attribute not in stored:
            raise InputError(
                "the pool is needed unless the attribute is toughness, willpower or intellect",
                expected="pool=N (attribute + skill)",
                where="action test",
            )
        pool = stored[attribute]
    request = PoolRequest(
        pool=pool,
        dn=p.int("dn"),
        attribute=attribute,
        bonus_dice=p.int("bonus_dice"),
        dn_modifier=p.int("dn_modifier"),
        intimidation=p.bool("intimidation"),
        sight=p.bool("sight"),
        label=p.opt_str("label") or (f"{actor}'s {attribute} test" if attribute else f"{actor}'s test"),
    )
    count_replaced = options.count_replaced_injuries(play)
    test = build_test(
        character,
        request,
        torso_dn=options.torso_dn(play),
        eye_dn=options.eye_dn(play),
        blinded_dn=options.blinded_dn(play),
        count_replaced=count_replaced,
    )
    _explain_test_rules(play, actor, character, request, test.wrath_count)
    odds = pool_odds(test)
    play.result.update(odds.to_values())
    play.check(test, purpose=TEST_PURPOSE, rule=citations.POOL_TESTS, actor=actor, data={"dying": character.dying})


def _explain_test_rules(
    play: WGPlay, actor: str, character: WrathGloryCharacter, request: PoolRequest, wrath_dice: int
) -> None:
    if character.wounded:
        play.explain(f"{actor} is Wounded: +1 DN", citations.WOUNDED, actor=actor)
    if request.attribute == "toughness" and torso_injuries(character.traumatic_injuries):
        play.explain(f"{actor}'s Torso injury makes Toughness tests harder", citations.TRAUMATIC_INJURY, actor=actor)
    if request.sight and lost_eyes(character.traumatic_injuries) == 1:
        play.explain(f"{actor} has one eye left: harder to do by sight", citations.TRAUMATIC_INJURY, actor=actor)
    elif request.sight and lost_eyes(character.traumatic_injuries) > 1:
        play.explain(
            f"{actor} is Blinded: a test needing sight is at least as hard as with one eye lost",
            citations.rule("Traumatic Injury", page="W&G Core p.199", reading="Blinded is never easier than one eye"),
            actor=actor,
        )
    if request.intimidation:
        if character.memorable_injuries:
            play.explain(
                f"{actor} reveals a Memorable Injury: +1 bonus die on Intimidation",
                citations.MEMORABLE_INJURY,
                actor=actor,
            )
        else:
            play.explain(f"{actor} has no Memorable Injury to reveal", citations.MEMORABLE_INJURY, actor=actor)
    if character.dying:
        play.explain(
            f"{actor} is Dying: {wrath_dice} of the dice are Wrath dice; a 1 on any brings a Traumatic Injury, "
            "and a Wrath Critical needs a 6 on every one",
            citations.DYING_TESTS,
            actor=actor,
        )


def _act(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    take_action(play, actor, action.params.str("action"), weapon=action.params.bool("weapon"))


def _move_dying(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    target = action.params.str("target")
    patient = play.char(target)
    if not patient.dying:
        raise RuleRefusal(f"{target} is not Dying and can move on their own ({citations.DYING})")
    if target == actor:
        raise RuleRefusal(
            f"{actor} is Dying and can only be moved by another character; on their own they may only crawl "
            f"or fall back ({citations.DYING})"
        )
    play.explain(f"{actor} spends a Combat Action moving the Dying {target}", citations.DYING, actor=actor)
    play.result.update(moved=target)


def _roll_injury(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    if action.params.str("table") == "memorable":
        suffer_memorable_injury(play, actor)
    else:
        suffer_traumatic_injury(play, actor, "a rule inflicts a Traumatic Injury")


def _replace_part(play: WGPlay, action: Call) -> None:
    actor = action.character
    character = _living(play, actor)
    part = BodyPart(action.params.str("part"))
    side_text = action.params.opt_str("side")
    side = None if part is BodyPart.TORSO or side_text is None else Side(side_text)
    if part is not BodyPart.TORSO and side is None:
        raise InputError(f"which {part.value}?", expected="side=left or side=right", where="action replace_part")
    injuries = list(character.traumatic_injuries)
    for index, injury in enumerate(injuries):
        if injury.part is part and injury.side is side and not injury.replaced:
            injuries[index] = replace(injury, replaced=True)
            break
    else:
        label = part.value if side is None else f"{side.value} {part.value}"
        raise RuleRefusal(f"{actor} has no unreplaced Traumatic Injury to the {label} ({citations.TRAUMATIC_INJURY})")
    play.put(actor, replace(character, traumatic_injuries=tuple(injuries)))
    play.explain(
        f"{actor} acquires a replacement {injuries[index].label}: its penalties are gone",
        citations.TRAUMATIC_INJURY,
        actor=actor,
    )
    play.result.update(replaced=injuries[index].label)
    conditions.sync_conditions(play, actor)


def _rest(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    healer = action.params.opt_str("healer")
    if healer is not None and healer not in play.state.characters:
        known = ", ".join(sorted(play.state.characters))
        raise UnknownNameError(f"unknown healer {healer!r}", expected=f"one of: {known}", where="action rest")
    start_rest(play, actor, RestKind(action.params.str("kind")), healer)


def _light_activity(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    light_activity(play, actor, action.params.int("duration"))


def _strenuous(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    strenuous_activity(play, actor, action.params.int("duration"))


def _end_rest(play: WGPlay, action: Call) -> None:
    actor = action.character
    _living(play, actor)
    end_rest(play, actor)


def _spec(
    name: str,
    help_text: str,
    handler: Callable[[WGPlay, Call], None],
    *params: ParamSpec,
    actor: Literal["required", "optional", "none"] = "required",
    kind: str = "feat",
) -> ActionSpec:
    return ActionSpec(name, help_text, handler, params=params, actor=actor, kind=kind)


ACTIONS: Mapping[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        _spec(
            "damage",
            "one attack's damage against Resilience (or Mortal Wounds), then Determination, for one or more targets",
            _damage,
            ParamSpec("amount", "int", "the attack's total damage", minimum=0),
            ParamSpec("dice", "dice", "roll the damage once, e.g. 1d6+7"),
            ParamSpec(
                "targets",
                "str",
                "comma-separated ids hit by the same attack (default: the character)",
                names_character=True,
            ),
            ParamSpec(
                "mortal", "bool", "the amount is Mortal Wounds: ignores Resilience and Determination", default=False
            ),
            ParamSpec(
                "mortal_determination", "bool", "a rule lets Determination negate these Mortal Wounds", default=False
            ),
            actor="optional",
            kind="damage",
        ),
        _spec(
            "heal",
            "recover Wounds and/or Shock; any Wounds recovered end Dying",
            _heal,
            ParamSpec("wounds", "int", "Wounds recovered", default=0, minimum=0),
            ParamSpec("shock", "int", "Shock recovered", default=0, minimum=0),
            kind="heal",
        ),
        _spec(
            "shock",
            "suffer Shock directly",
            _shock,
            ParamSpec("amount", "int", "Shock suffered", required=True, minimum=0),
            kind="damage",
        ),
        _spec("restore_shock", "spend a Combat Action and 1 Wrath to restore Rank + Tier Shock", _restore_shock),
        _spec(
            "wrath",
            "gain or spend Wrath points",
            _wrath,
            ParamSpec("change", "int", "Wrath gained (positive) or spent (negative)", required=True),
        ),
        _spec(
            "test",
            "a dice pool test against a DN, with Wounded, trauma and Dying rules applied",
            _test,
            ParamSpec(
                "pool",
                "int",
                "dice in the pool (attribute + skill); defaults to a stored attribute",
                minimum=1,
                maximum=MAX_POOL,
            ),
            ParamSpec(
                "attribute", "choice", "the attribute tested (Toughness tests feel Torso trauma)", choices=ATTRIBUTES
            ),
            ParamSpec(
                "dn", "int", "Difficulty Number", default=3, minimum=0, maximum=2 * MAX_POOL_DICE, overrides_rules=True
            ),
            ParamSpec(
                "bonus_dice",
                "int",
                "bonus dice added to (or, negative, taken from) the pool",
                default=0,
                minimum=-MAX_POOL,
                maximum=MAX_POOL,
            ),
            ParamSpec(
                "dn_modifier",
                "int",
                "other DN changes",
                default=0,
                minimum=-2 * MAX_POOL_DICE,
                maximum=2 * MAX_POOL_DICE,
                overrides_rules=True,
            ),
            ParamSpec("intimidation", "bool", "an Intimidation test revealing a Memorable Injury", default=False),
            ParamSpec("sight", "bool", "the test needs sight (one lost eye makes it harder)", default=False),
            ParamSpec("label", "str", "what the test is for"),
        ),
        _spec(
            "act",
            "take a movement or combat action, refused where Dying or lasting injuries forbid it",
            _act,
            ParamSpec("action", "choice", "what the character does", required=True, choices=MANOEUVRES),
            ParamSpec("weapon", "bool", "the action uses a held weapon or similar gear", default=False),
            kind="maneuver",
        ),
        _spec(
            "move_dying",
            "spend a Combat Action moving a Dying character",
            _move_dying,
            ParamSpec("target", "character", "the Dying character moved", required=True),
            kind="maneuver",
        ),
        _spec(
            "roll_injury",
            "roll on an injury table because a rule says so",
            _roll_injury,
            ParamSpec("table", "choice", "which table", required=True, choices=("memorable", "traumatic")),
            kind="damage",
        ),
        _spec(
            "replace_part",
            "fit a replacement for a part lost to a Traumatic Injury, removing its penalties",
            _replace_part,
            ParamSpec("part", "choice", "the part replaced", required=True, choices=tuple(p.value for p in BodyPart)),
            ParamSpec("side", "choice", "left or right (not for the torso)", choices=tuple(s.value for s in Side)),
            kind="heal",
        ),
        _spec(
            "rest",
            "begin a Regroup (1 hour; a healer may treat the character) or a Respite (6 hours)",
            _rest,
            ParamSpec("kind", "choice", "the kind of rest", required=True, choices=tuple(k.value for k in RestKind)),
            ParamSpec("healer", "character", "Regroup only: a character with a Medicae rating treating this one"),
            kind="rest",
        ),
        _spec(
            "light_activity",
            "light activity or standing watch during a Respite",
            _light_activity,
            ParamSpec("duration", "duration", "how long", default=HOUR, minimum=1),
            kind="rest",
        ),
        _spec(
            "strenuous",
            "strenuous activity; an hour of it restarts a Respite",
            _strenuous,
            ParamSpec("duration", "duration", "how long", default=HOUR, minimum=1),
            kind="rest",
        ),
        _spec("end_rest", "break off a Regroup or Respite without its benefits", _end_rest, kind="rest"),
    )
}


#: The actions of seed 003, and the damage roll of an attack given as dice.
ACTIONS_SECTION = Section(
    "actions",
    actions=ACTIONS,
    check_kinds=(CheckKind(DAMAGE_KIND, "the damage roll of an attack given as dice (one roll serves every target)"),),
    checks=(CheckSpec(DAMAGE_PURPOSE, on_damage_roll, POOL_STAKES),),
)
