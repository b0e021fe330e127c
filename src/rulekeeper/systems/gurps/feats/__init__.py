"""GURPS physical and mental feats (seed 004, "Physical Feats" and "Mental Feats").

The GURPS ruleset loads this section on first use: every check whose purpose starts with
``feat.`` and every timer whose kind starts with ``gurps.feat.`` is its:

* :data:`FEAT_ACTIONS` -- one action per feat (climb, hike, jump, lift, carry, run, swim,
  throw, sense, influence, will_roll, fright_check, attribute_roll, skill_roll, stop_feat);
* :data:`FEAT_CALCULATORS` -- the same rules without a campaign (climb, hike, jump, lift, run,
  swim, throw, reaction);
* :data:`FEAT_CHECK_KINDS` -- every check kind the feats ask for, for automation settings;
* :data:`FEATS_SECTION` -- the section: actions, calculators, what each ``feat.*`` check and each
  ``gurps.feat.*`` timer does (the ruleset loads it on first use).

Pure functions shared by the calculators and the actions live in the feat modules
(:func:`~rulekeeper.systems.gurps.feats.jumping.high_jump`, ...).
"""

from __future__ import annotations

from rulekeeper.core.action import ActionSpec, CalculatorSpec
from rulekeeper.core.section import CheckSpec, Section, TimerSpec
from rulekeeper.systems.gurps.feat_kinds import FEAT_CHECK_KINDS
from rulekeeper.systems.gurps.feats.attribute_roll import ATTRIBUTE_ROLL_ACTION, ATTRIBUTE_ROLL_HANDLERS
from rulekeeper.systems.gurps.feats.checking import CheckHandler, TimerHandler
from rulekeeper.systems.gurps.feats.climbing import (
    CLIMB_ACTION,
    CLIMB_CALCULATOR,
    CLIMBING_CHECK_HANDLERS,
    CLIMBING_TIMER_HANDLERS,
    climb_time,
)
from rulekeeper.systems.gurps.feats.hiking import HIKE_ACTION, HIKE_CALCULATOR, HIKING_CHECK_HANDLERS, daily_march
from rulekeeper.systems.gurps.feats.influence import (
    INFLUENCE_ACTION,
    INFLUENCE_CHECK_HANDLERS,
    REACTION_CALCULATOR,
    influence_reaction,
)
from rulekeeper.systems.gurps.feats.jumping import JUMP_ACTION, JUMP_CALCULATOR, broad_jump, high_jump
from rulekeeper.systems.gurps.feats.lifting import (
    CARRY_ACTION,
    LIFT_ACTION,
    LIFT_CALCULATOR,
    LIFTING_TIMER_HANDLERS,
    lift,
)
from rulekeeper.systems.gurps.feats.reaction_table import Reaction, reaction_for
from rulekeeper.systems.gurps.feats.running import (
    RUN_ACTION,
    RUN_CALCULATOR,
    RUNNING_CHECK_HANDLERS,
    RUNNING_TIMER_HANDLERS,
    paced_speed,
    sprint_speed,
)
from rulekeeper.systems.gurps.feats.senses import SENSE_ACTION, SENSES_CHECK_HANDLERS
from rulekeeper.systems.gurps.feats.skill_roll import SKILL_ROLL_ACTION, SKILL_ROLL_HANDLERS
from rulekeeper.systems.gurps.feats.stopping import STOP_ACTION
from rulekeeper.systems.gurps.feats.swimming import (
    SWIM_ACTION,
    SWIM_CALCULATOR,
    SWIMMING_CHECK_HANDLERS,
    SWIMMING_TIMER_HANDLERS,
    water_move,
)
from rulekeeper.systems.gurps.feats.throwing import THROW_ACTION, THROW_CALCULATOR, THROWING_CHECK_HANDLERS, throw
from rulekeeper.systems.gurps.feats.will import FRIGHT_ACTION, WILL_ACTION, WILL_CHECK_HANDLERS

__all__ = [
    "FEATS_SECTION",
    "FEAT_ACTIONS",
    "FEAT_CALCULATORS",
    "FEAT_CHECK_KINDS",
    "Reaction",
    "broad_jump",
    "climb_time",
    "daily_march",
    "high_jump",
    "influence_reaction",
    "lift",
    "paced_speed",
    "reaction_for",
    "sprint_speed",
    "throw",
    "water_move",
]

FEAT_ACTIONS: dict[str, ActionSpec] = {
    spec.name: spec
    for spec in (
        CLIMB_ACTION,
        HIKE_ACTION,
        JUMP_ACTION,
        LIFT_ACTION,
        CARRY_ACTION,
        RUN_ACTION,
        SWIM_ACTION,
        THROW_ACTION,
        STOP_ACTION,
        SENSE_ACTION,
        INFLUENCE_ACTION,
        WILL_ACTION,
        FRIGHT_ACTION,
        ATTRIBUTE_ROLL_ACTION,
        SKILL_ROLL_ACTION,
    )
}

FEAT_CALCULATORS: dict[str, CalculatorSpec] = {
    spec.name: spec
    for spec in (
        CLIMB_CALCULATOR,
        HIKE_CALCULATOR,
        JUMP_CALCULATOR,
        LIFT_CALCULATOR,
        RUN_CALCULATOR,
        SWIM_CALCULATOR,
        THROW_CALCULATOR,
        REACTION_CALCULATOR,
    )
}


_CHECK_HANDLERS: dict[str, CheckHandler] = {
    **CLIMBING_CHECK_HANDLERS,
    **HIKING_CHECK_HANDLERS,
    **RUNNING_CHECK_HANDLERS,
    **SWIMMING_CHECK_HANDLERS,
    **THROWING_CHECK_HANDLERS,
    **SENSES_CHECK_HANDLERS,
    **INFLUENCE_CHECK_HANDLERS,
    **WILL_CHECK_HANDLERS,
    **ATTRIBUTE_ROLL_HANDLERS,
    **SKILL_ROLL_HANDLERS,
}

_TIMER_HANDLERS: dict[str, TimerHandler] = {
    **CLIMBING_TIMER_HANDLERS,
    **LIFTING_TIMER_HANDLERS,
    **RUNNING_TIMER_HANDLERS,
    **SWIMMING_TIMER_HANDLERS,
}


#: The physical and mental feats (seed 004), loaded on first use (see ``feat_kinds.DEFERRED_FEATS``).
FEATS_SECTION = Section(
    "feats",
    actions=FEAT_ACTIONS,
    calculators=FEAT_CALCULATORS,
    checks=tuple(CheckSpec(purpose, handler) for purpose, handler in _CHECK_HANDLERS.items()),
    timers=tuple(TimerSpec(kind, handler) for kind, handler in _TIMER_HANDLERS.items()),
    skip_orphans=True,
)
