"""The seed 000 actions: one per rule that changes or needs character state.

Each handler validates what the rules forbid (``RuleRefusal`` with the rule cited) and hands the
work to the module that holds the rule, so the calculators and the actions share the math.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters import consciousness, dying, heroic, recovery, stakes
from rulekeeper.systems.gods_monsters.archetypal import archetypal_reason
from rulekeeper.systems.gods_monsters.bonus_pools import end_pool, grant_pool
from rulekeeper.systems.gods_monsters.character import ELIGIBILITIES, SCORES, GmCharacter
from rulekeeper.systems.gods_monsters.checks import gm_roll
from rulekeeper.systems.gods_monsters.damage import add_injuries, take_damage
from rulekeeper.systems.gods_monsters.healing import heal
from rulekeeper.systems.gods_monsters.npc import roll_npc_survival
from rulekeeper.systems.gods_monsters.rules import (
    INJURIES,
    NPCS,
    REGAINING,
    TIME_TO_DIE,
    USING_VERVE,
    brief_rule,
    rule,
)
from rulekeeper.systems.gods_monsters.spells import can_cast, spell_level_cap

__all__ = ["SEED_000_ACTIONS", "SURVIVAL_SECTION"]

P = Play[GmCharacter]


def _all_or_one(play: P, action: Call) -> list[str]:
    return [action.actor] if action.actor else sorted(play.state.characters)


def _field_names(text: str | None) -> list[str]:
    return [f.strip().lower() for f in (text or "").split(",") if f.strip()]


def _refuse_if_dead(play: P, actor: str) -> None:
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead (seed 000, {TIME_TO_DIE})")


# -- damage and healing ------------------------------------------------------------------------
def _damage(play: P, action: Call) -> None:
    actor = action.character
    p = action.params
    character = play.char(actor)
    reason = archetypal_reason(
        character,
        roll_against=p.opt_str("roll_against") or "",
        consequence=p.bool("archetypal"),
        in_combat=p.bool("in_combat"),
    )
    if reason is not None:
        play.explain(f"the damage is archetypal for {actor}: {reason}", rule(USING_VERVE), actor=actor)
    take_damage(
        play,
        actor,
        p.int("amount"),
        archetypal=reason is not None,
        rule=rule(REGAINING),
        source=p.str("source").lower(),
        injury_override=p.int("direct_injuries") or None,
        physical=not p.bool("mental"),
        phantasmal=p.bool("phantasmal"),
        fields=_field_names(p.str("fields")),
    )


def _injure(play: P, action: Call) -> None:
    actor = action.character
    p = action.params
    add_injuries(
        play,
        actor,
        p.int("injuries"),
        rule(INJURIES),
        archetypal=p.bool("archetypal"),
        physical=not p.bool("mental"),
    )


def _heal(play: P, action: Call) -> None:
    p = action.params
    heal(
        play,
        action.character,
        rule(REGAINING),
        survival=p.int("survival"),
        injuries=p.int("injuries"),
        verve=p.int("verve"),
        magical=p.bool("magical"),
        source=p.str("source") or "healing aid",
    )


# -- rolls -------------------------------------------------------------------------------------
def _roll(play: P, action: Call) -> None:
    actor = action.character
    _refuse_if_dead(play, actor)
    p = action.params
    character = play.char(actor)
    mods = [Modifier(p.int("modifier"), "circumstances")]
    for name in _field_names(p.str("fields")):
        if name not in character.fields:
            raise InputError(
                f"{actor} has no field {name!r}",
                expected="one of " + (", ".join(character.fields) or "no fields"),
                where="fields",
            )
        mods.append(Modifier(character.field_bonus(name), f"{name} field"))
    against = p.str("against")
    check = gm_roll(play, character, kind="gm.roll", label=against, score=against, modifiers=mods, actor=actor)
    play.check(check, purpose="roll", rule=rule(INJURIES), actor=actor, data={"against": against})


def _consciousness_roll(play: P, action: Call) -> None:
    actor = action.character
    _refuse_if_dead(play, actor)
    if cond.counts_as_unconscious(play, actor):
        raise RuleRefusal(f"{actor} is already unconscious")
    consciousness.ask_consciousness_roll(play, actor, physical=not action.params.bool("mental"))


def _death_check(play: P, action: Call) -> None:
    actor = action.character
    _refuse_if_dead(play, actor)
    p = action.params
    dying.ask_death_roll(play, actor, archetypal=p.bool("archetypal"), fields=_field_names(p.str("fields")))


# -- consciousness and dying ---------------------------------------------------------------------
def _fall_unconscious(play: P, action: Call) -> None:
    consciousness.choose_unconsciousness(play, action.character, action.params.opt_int("minutes"))


def _semi_conscious(play: P, action: Call) -> None:
    consciousness.become_semi_conscious(play, action.character)


def _heroic(play: P, action: Call) -> None:
    p = action.params
    heroic.heroic_last_effort(
        play,
        action.character,
        against=p.opt_str("against"),
        score=p.opt_int("score"),
        modifier=p.int("modifier"),
        mojo=p.int("mojo"),
        contributions=heroic.parse_contributions(p.str("contributions")),
        task=p.str("task"),
    )


def _end_scene(play: P, action: Call) -> None:
    from rulekeeper.systems.gods_monsters.consequences.illusions_play import end_certainties

    actors = _all_or_one(play, action)
    heroic.end_scene(play, actors)
    for actor in actors:
        end_certainties(play, actor)  # the scene's illusions are over


# -- rest and recovery ---------------------------------------------------------------------------
def _rest(play: P, action: Call) -> None:
    recovery.start_rest(play, action.character, action.params.str("kind"), action.params.str("recover"))


def _new_day(play: P, action: Call) -> None:
    for actor in _all_or_one(play, action):
        recovery.new_day(play, actor)


def _encounter(play: P, action: Call) -> None:
    recovery.encounter(
        play, _all_or_one(play, action), action.params.str("encounter"), conflict=action.params.bool("conflict")
    )


def _new_adventure(play: P, action: Call) -> None:
    recovery.new_adventure(play, _all_or_one(play, action))


def _mojo(play: P, action: Call) -> None:
    actor = action.character
    p = action.params
    character = play.char(actor)
    after = character.mojo + p.int("gain") - p.int("spend")
    if after < 0:
        raise RuleRefusal(f"{actor} has only {character.mojo} mojo")
    play.put(actor, replace(character, mojo=after))
    play.explain(f"{actor}'s mojo {character.mojo} → {after}", brief_rule("Context: mojo"), actor=actor)
    play.result["mojo"] = after


# -- pools, NPCs, spells -------------------------------------------------------------------------
def _bonus_pool(play: P, action: Call) -> None:
    p = action.params
    actor = action.character
    _refuse_if_dead(play, actor)
    grant_pool(
        play,
        actor,
        name=p.str("name"),
        points=p.int("points"),
        duration=None if p.opt_int("duration") is None else p.opt_int("duration"),
        eligible=p.str("eligible"),
    )


def _end_bonus_pool(play: P, action: Call) -> None:
    end_pool(play, action.character, action.params.str("name"))


def _roll_npc_survival(play: P, action: Call) -> None:
    actor = action.character
    if not play.char(actor).is_npc:
        raise RuleRefusal(f"{actor} is a player character; only NPCs roll survival dice (seed 000, {NPCS})")
    roll_npc_survival(play, actor)


def _cast_spell(play: P, action: Call) -> None:
    actor = action.character
    character = play.char(actor)
    spell = action.params.int("spell_level")
    verb = "memorize" if action.params.bool("memorize") else "cast"
    if character.archetype != "sorceror":
        raise RuleRefusal(f"{actor} is not a sorceror; the spell-level cap is a sorceror's rule")
    cap = spell_level_cap(character.level, character.injuries)
    play.result["max_spell_level"] = cap
    if cap == 0:
        raise RuleRefusal(
            f"{actor} cannot {verb} any spell: level {character.level} minus {character.injuries} injuries leaves "
            f"no spell level (seed 000, {INJURIES})"
        )
    if not can_cast(character.level, character.injuries, spell):
        raise RuleRefusal(
            f"{actor} cannot {verb} a level {spell} spell: level {character.level} minus {character.injuries} "
            f"injuries allows spells up to level {cap} (seed 000, {INJURIES})"
        )
    play.explain(f"{actor} may {verb} a level {spell} spell (up to level {cap})", rule(INJURIES), actor=actor)


_MENTAL = ParamSpec(
    "mental", "bool", "mental rather than physical harm (consciousness roll on willpower)", default=False
)
_FIELDS = ParamSpec("fields", "str", "comma-separated field names whose bonus applies (e.g. falling)", default="")


def _specs() -> dict[str, ActionSpec]:
    specs = [
        ActionSpec(
            "damage",
            "Damage: bonus pool, verve (if archetypal), survival, then injuries; consciousness and death checks",
            _damage,
            (
                ParamSpec("amount", "int", "points of damage", required=True, minimum=0, maximum=100_000),
                ParamSpec(
                    "archetypal", "bool", "direct consequence of an archetypal action (criterion 3)", default=False
                ),
                ParamSpec("in_combat", "bool", "taken in combat (archetypal for warriors, criterion 4)", default=False),
                ParamSpec("roll_against", "choice", "the roll the damage followed (criteria 1 and 2)", choices=SCORES),
                _MENTAL,
                ParamSpec(
                    "direct_injuries",
                    "int",
                    "points that go straight to injuries by rule (falling: one per die)",
                    default=0,
                    minimum=0,
                    maximum=100_000,
                ),
                ParamSpec("source", "str", "what caused it; a field of that name helps the death roll", default=""),
                _FIELDS,
                ParamSpec("phantasmal", "bool", "illusory damage (a lost death roll means shock)", default=False),
            ),
            kind="damage",
        ),
        ActionSpec(
            "injure",
            "Injury points inflicted directly by a rule (ailments, forced march)",
            _injure,
            (
                ParamSpec("injuries", "int", "injury points", required=True, minimum=0, maximum=10_000),
                ParamSpec("archetypal", "bool", "the injuries come from archetypal activity", default=False),
                _MENTAL,
            ),
            kind="damage",
        ),
        ActionSpec(
            "heal",
            "Healing aid: restore survival and verve (never above maximum) and remove injuries",
            _heal,
            (
                ParamSpec("survival", "int", "survival points restored", default=0, minimum=0, maximum=100_000),
                ParamSpec("injuries", "int", "injury points removed", default=0, minimum=0, maximum=10_000),
                ParamSpec("verve", "int", "verve points restored", default=0, minimum=0, maximum=100_000),
                ParamSpec("magical", "bool", "magical healing (also ends illusory shock)", default=False),
                ParamSpec("source", "str", "what heals", default=""),
            ),
            kind="heal",
        ),
        ActionSpec(
            "rest",
            "Begin a night's rest (8 h, health roll at the end) or a full day of rest (no roll)",
            _rest,
            (
                ParamSpec("kind", "choice", "night or day", default="night", choices=recovery.REST_KINDS),
                ParamSpec(
                    "recover",
                    "choice",
                    "on success: auto (an injury if any), survival or injury",
                    default="auto",
                    choices=recovery.RECOVERY_CHOICES,
                ),
            ),
            kind="rest",
        ),
        ActionSpec(
            "new_day",
            "A new game day begins on awakening: verve fully restored (everyone if no actor)",
            _new_day,
            actor="optional",
            kind="rest",
        ),
        ActionSpec(
            "encounter",
            "A non-conflict encounter has begun: each character regains up to level verve, once per encounter",
            _encounter,
            (
                ParamSpec("encounter", "str", "an id for the encounter", required=True),
                ParamSpec("conflict", "bool", "the encounter is a conflict (restores nothing)", default=False),
            ),
            actor="optional",
            kind="rest",
        ),
        ActionSpec(
            "new_adventure",
            "A new adventure: encounters may restore verve again",
            _new_adventure,
            actor="optional",
            kind="rest",
        ),
        ActionSpec(
            "roll",
            "An ability or reaction roll (d20 at most the score), at the injury penalty",
            _roll,
            (
                ParamSpec("against", "choice", "ability or reaction", required=True, choices=SCORES),
                ParamSpec("modifier", "int", "bonus (+) or penalty (-)", default=0, minimum=-100, maximum=100),
                _FIELDS,
            ),
            kind="feat",
        ),
        ActionSpec(
            "consciousness_roll",
            "Roll to stay conscious (fortitude, or willpower for mental harm)",
            _consciousness_roll,
            (_MENTAL,),
            kind="feat",
        ),
        ActionSpec(
            "death_check",
            "Check for death now: injuries against endurance, if injuries exceed survival (and verve)",
            _death_check,
            (
                ParamSpec("archetypal", "bool", "the latest injuries were archetypal (verve counts)", default=False),
                _FIELDS,
            ),
            kind="feat",
        ),
        ActionSpec(
            "fall_unconscious",
            "The player chooses unconsciousness (e.g. for +2 on death rolls; slows dying to hours)",
            _fall_unconscious,
            (ParamSpec("minutes", "int", "how long (default: injury total, at least 1)", minimum=1, maximum=100_000),),
            kind="feat",
        ),
        ActionSpec(
            "semi_conscious",
            "Spend one mojo to bring an unconscious character to semi-consciousness",
            _semi_conscious,
            kind="feat",
        ),
        ActionSpec(
            "heroic_last_effort",
            "One last roll after the dying time runs out: +level, no injury penalty, mojo bids; then death",
            _heroic,
            (
                ParamSpec("against", "choice", "ability or reaction rolled against", choices=SCORES),
                ParamSpec(
                    "score",
                    "int",
                    "or a score to roll against (e.g. an attack)",
                    minimum=0,
                    maximum=100,
                    overrides_rules=True,
                ),
                ParamSpec("modifier", "int", "other bonus (+) or penalty (-)", default=0, minimum=-100, maximum=100),
                ParamSpec("mojo", "int", "mojo the dying character bids", default=0, minimum=0, maximum=1_000_000),
                ParamSpec(
                    "contributions", "str", "mojo from others, e.g. gralen:2,bors:1", default="", names_character=True
                ),
                ParamSpec("task", "str", "what the character attempts", default=""),
            ),
            kind="feat",
        ),
        ActionSpec(
            "end_scene",
            "The scene ends: characters whose time ran out die (everyone if no actor)",
            _end_scene,
            actor="optional",
            kind="feat",
        ),
        ActionSpec(
            "mojo",
            "Gain or spend mojo",
            _mojo,
            (
                ParamSpec("gain", "int", "mojo gained", default=0, minimum=0, maximum=1_000_000),
                ParamSpec("spend", "int", "mojo spent", default=0, minimum=0, maximum=1_000_000),
            ),
            kind="feat",
        ),
        ActionSpec(
            "bonus_pool",
            "Grant a temporary bonus pool of survival (spell, specialty, spirit) for a duration",
            _bonus_pool,
            (
                ParamSpec("points", "int", "survival points in the pool", required=True, minimum=1, maximum=100_000),
                ParamSpec("duration", "duration", "how long the effect lasts (none: until ended)", minimum=1),
                ParamSpec("name", "str", "the effect granting it", default="bonus pool"),
                ParamSpec("eligible", "choice", "which damage it absorbs", default="any", choices=ELIGIBILITIES),
            ),
            kind="heal",
        ),
        ActionSpec(
            "end_bonus_pool",
            "The effect behind a bonus pool ends",
            _end_bonus_pool,
            (ParamSpec("name", "str", "the pool's name", default="bonus pool"),),
            kind="feat",
        ),
        ActionSpec(
            "roll_npc_survival",
            "Roll an NPC's survival dice (d6 per level, d10 for warriors)",
            _roll_npc_survival,
            kind="feat",
        ),
        ActionSpec(
            "cast_spell",
            "Check a sorceror may cast or memorize a spell: up to level minus injuries",
            _cast_spell,
            (
                ParamSpec("spell_level", "int", "the spell's level", required=True, minimum=1, maximum=99),
                ParamSpec("memorize", "bool", "memorizing rather than casting", default=False),
            ),
            kind="feat",
        ),
    ]
    return {s.name: s for s in specs}


SEED_000_ACTIONS: Mapping[str, ActionSpec] = _specs()


def _on_table_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    """An ability or reaction roll the table asked for: report it, nothing follows by the rules."""
    play.result["roll"] = {"success": result.success, "margin": result.margin, "roll": result.total}
    play.explain(
        f"{pending.data.get('against')} roll: {'success' if result.success else 'failure'} by {abs(result.margin)}",
        rule(INJURIES),
        actor=pending.actor,
    )


#: Seed 000's actions, and the plain roll the table may ask for.
SURVIVAL_SECTION = Section(
    "survival",
    actions=SEED_000_ACTIONS,
    check_kinds=(CheckKind("gm.roll", "an ability or reaction roll asked for by the table"),),
    checks=(CheckSpec("roll", _on_table_roll, stakes.check_stakes),),
)
