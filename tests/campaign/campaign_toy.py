"""A tiny but complete ruleset for campaign tests: it uses every hook a real system uses.

Characters have HP. ``damage`` to 0 HP or below makes them ``down``: a pending (or rolled)
death check and a bleeding timer that rolls a d6 every ``bleed_every`` seconds. ``heal``
above 0 ends all that. ``hit`` rolls a d6 against another character (two characters in one
command). ``stun`` is a condition that ends by itself. ``rest`` is refused while down. ``census``
counts who is down without naming anyone. The sheet has ``max_hp`` and ``secret`` (GM-only).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rulekeeper.core import (
    Action,
    ActionSpec,
    CheckResult,
    GameState,
    ParamSpec,
    PendingCheck,
    Play,
    RollUnder,
    Rule,
    Ruleset,
    Timer,
)
from rulekeeper.core.section import CheckKind, CheckSpec, Section, TimerSpec
from rulekeeper.errors import InputError, RuleRefusal

RULE = Rule(system="toy", section="Toy rules")


@dataclass(frozen=True)
class ToyCharacter:
    hp: int
    max_hp: int
    secret: int = 0
    wounds: tuple[int, ...] = ()


def _damage(play: Play[ToyCharacter], action: Action) -> None:
    assert action.actor is not None
    hurt(play, action.actor, int(action.params["amount"]))


def hurt(play: Play[ToyCharacter], actor: str, amount: int) -> None:
    char = play.char(actor)
    char = replace(char, hp=char.hp - amount, wounds=(*char.wounds, amount))
    play.put(actor, char)
    play.explain(f"{actor} loses {amount} HP, now {char.hp}", RULE, actor=actor)
    play.result["hp"] = char.hp
    if char.hp <= 0 and not play.has(actor, "down"):
        play.add_condition(actor, "down", RULE)
        every = int(play.option("bleed_every", 60))
        play.schedule(every, "toy.bleed", f"{actor} bleeds", actor=actor)
        play.check(
            RollUnder(kind="toy.death", label="death check", score=10),
            purpose="death",
            rule=RULE,
            actor=actor,
        )


def _heal(play: Play[ToyCharacter], action: Action) -> None:
    assert action.actor is not None
    char = play.char(action.actor)
    if play.has(action.actor, "dead"):
        raise RuleRefusal(f"{action.actor} is dead (toy rules)")
    hp = min(char.max_hp, char.hp + int(action.params["amount"]))
    play.put(action.actor, replace(char, hp=hp))
    play.explain(f"{action.actor} heals to {hp} HP", RULE, actor=action.actor)
    play.result["hp"] = hp
    if hp > 0 and play.remove_condition(action.actor, "down", RULE):
        play.cancel_timers(actor=action.actor, kind="toy.bleed")
        play.drop_pending(actor=action.actor, purpose="death")


def _hit(play: Play[ToyCharacter], action: Action) -> None:
    target = str(action.params["target"])
    play.char(target)
    value = play.dice.roll(6)
    play.explain(f"{action.actor} hits {target}: d6 = {value}", RULE, actor=action.actor, dice=(value,))
    hurt(play, target, value)


def _stun(play: Play[ToyCharacter], action: Action) -> None:
    assert action.actor is not None
    play.add_condition(action.actor, "stunned", RULE, duration=int(action.params["seconds"]))


def _census(play: Play[ToyCharacter], action: Action) -> None:
    # Concerns no character by name: only the replay check can tell it depends on others.
    down = sum(1 for c in play.state.conditions if c.name == "down")
    play.explain(f"{down} character(s) down", RULE)
    play.result["down"] = down


def _rest(play: Play[ToyCharacter], action: Action) -> None:
    assert action.actor is not None
    if play.has(action.actor, "down"):
        raise RuleRefusal(f"{action.actor} cannot rest while down (toy rules)")
    char = play.char(action.actor)
    gain = play.dice.roll(6)
    hp = min(char.max_hp, char.hp + gain)
    play.put(action.actor, replace(char, hp=hp))
    play.explain(f"{action.actor} rests and regains {gain} HP", RULE, actor=action.actor, dice=(gain,))


def _on_death_check(play: Play[ToyCharacter], pending: PendingCheck, result: CheckResult) -> None:
    if pending.actor and not result.success:
        play.add_condition(pending.actor, "dead", RULE)
        play.cancel_timers(actor=pending.actor)


def _on_bleed(play: Play[ToyCharacter], timer: Timer) -> None:
    if timer.actor is None:
        return
    value = play.dice.roll(6)
    if value <= 3:
        char = play.char(timer.actor)
        play.put(timer.actor, replace(char, hp=char.hp - 1))
        play.explain(f"{timer.actor} bleeds 1 HP (d6 = {value})", RULE, actor=timer.actor, dice=(value,))
    else:
        play.explain(f"{timer.actor} does not bleed (d6 = {value})", RULE, actor=timer.actor, dice=(value,))
    if play.has(timer.actor, "down") and not play.has(timer.actor, "dead"):
        play.schedule(int(play.option("bleed_every", 60)), "toy.bleed", timer.label, actor=timer.actor)


#: The toy rules as one section: the death check when down, and bleeding.
TOY_SECTION = Section(
    "toy",
    check_kinds=(CheckKind("toy.death", "death check when down"),),
    checks=(CheckSpec("death", _on_death_check),),
    timers=(TimerSpec("toy.bleed", _on_bleed),),
)


class ToyRuleset(Ruleset[ToyCharacter]):
    name = "toy"
    aliases = ("toy",)
    title = "Toy rules for tests"
    round_seconds = 6
    character_type = ToyCharacter
    sections = (TOY_SECTION,)
    rule_options = (ParamSpec("bleed_every", kind="int", default=60, minimum=1, help="seconds between bleeds"),)
    rest_kinds = ("night",)

    def sheet_for(self, actor: str, sheet: Mapping[str, Any], *, npc: bool = False) -> Mapping[str, Any]:
        return sheet  # toy sheets have no name

    def actions(self) -> Mapping[str, ActionSpec]:
        amount = ParamSpec("amount", kind="int", required=True, minimum=0, help="HP")
        return {
            "damage": ActionSpec("damage", "lose HP", _damage, params=(amount,), kind="damage"),
            "heal": ActionSpec("heal", "regain HP", _heal, params=(amount,), kind="heal"),
            "hit": ActionSpec(
                "hit",
                "hit another character for d6",
                _hit,
                params=(ParamSpec("target", kind="character", required=True, help="who is hit"),),
            ),
            "stun": ActionSpec(
                "stun",
                "stunned for a while",
                _stun,
                params=(ParamSpec("seconds", kind="duration", required=True, minimum=1, help="how long"),),
            ),
            "census": ActionSpec("census", "count who is down", _census, actor="none"),
            "rest": ActionSpec(
                "rest",
                "rest",
                _rest,
                params=(ParamSpec("kind", kind="choice", choices=("night",), default="night", help="rest kind"),),
                kind="rest",
            ),
        }

    def new_character(self, sheet: Mapping[str, Any]) -> ToyCharacter:
        unknown = sorted(set(sheet) - {"max_hp", "secret"})
        if unknown:
            raise InputError(f"unknown field {unknown[0]!r}", expected="max_hp, secret", where=f"field {unknown[0]}")
        hp = sheet.get("max_hp", 10)
        if isinstance(hp, bool) or not isinstance(hp, int) or hp < 1:
            raise InputError(
                f"max_hp={hp!r} is not valid", expected="a whole number of at least 1", where="field max_hp"
            )
        secret = sheet.get("secret", 0)
        if isinstance(secret, bool) or not isinstance(secret, int):
            raise InputError(f"secret={secret!r} is not valid", expected="a whole number", where="field secret")
        return ToyCharacter(hp=hp, max_hp=hp, secret=secret)

    def view(self, state: GameState[ToyCharacter], actor: str) -> dict[str, Any]:
        char = state.characters[actor]
        return {
            "hp": char.hp,
            "max_hp": char.max_hp,
            "secret": char.secret,
            "wounds": list(char.wounds),
            "conditions": [c.name for c in state.conditions_of(actor)],
        }

    def player_view(self, state: GameState[ToyCharacter], actor: str) -> dict[str, Any]:
        view = self.view(state, actor)
        del view["secret"]
        return view


def register() -> None:
    """Make ``toy`` a system name (tests only; the registry normally lists the four systems)."""
    from rulekeeper.core.ruleset import register_system

    register_system("toy", "campaign_toy:ToyRuleset")


def unregister() -> None:
    from rulekeeper.core.ruleset import unregister_system

    unregister_system("toy")
