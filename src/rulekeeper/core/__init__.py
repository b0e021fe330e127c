"""The functional rules core: checks, state, actions, outcomes, the clock and the ruleset protocol.

Pure and deterministic given a dice source: no I/O, no database, no printing.
"""

from rulekeeper.core.action import Action, ActionSpec, Calculation, CalculatorSpec, Call, ParamSpec, validate_params
from rulekeeper.core.arc import PLACEHOLDER_TABLE, THRESHOLDS, ArcOpposed, ArcThreshold, RollModifierTable
from rulekeeper.core.check import Check, CheckResult, Critical, Modifier
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import DAY, HOUR, MINUTE, WEEK, format_duration, parse_duration
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.engine import add_character, advance, apply_action, next_round, resolve_check
from rulekeeper.core.explain import Step
from rulekeeper.core.params import Params
from rulekeeper.core.play import Event, Outcome, Play
from rulekeeper.core.roll_under import ActingContest, RollUnder
from rulekeeper.core.ruleset import Ruleset, canonical_system_name, get_ruleset, system_names
from rulekeeper.core.state import AnyCheck, AutomationLevel, Condition, GameState, PendingCheck, Settings, Timer
from rulekeeper.core.success_roll import QuickContest, SuccessRoll

__all__ = [
    "DAY",
    "HOUR",
    "MINUTE",
    "PLACEHOLDER_TABLE",
    "THRESHOLDS",
    "WEEK",
    "ActingContest",
    "Action",
    "ActionSpec",
    "AnyCheck",
    "ArcOpposed",
    "ArcThreshold",
    "AutomationLevel",
    "Calculation",
    "CalculatorSpec",
    "Call",
    "Check",
    "CheckResult",
    "Condition",
    "Critical",
    "Event",
    "GameState",
    "Modifier",
    "Outcome",
    "ParamSpec",
    "Params",
    "PendingCheck",
    "Play",
    "PoolTest",
    "QuickContest",
    "RollModifierTable",
    "RollUnder",
    "Rule",
    "Ruleset",
    "Settings",
    "Step",
    "SuccessRoll",
    "Timer",
    "add_character",
    "advance",
    "apply_action",
    "canonical_system_name",
    "format_duration",
    "get_ruleset",
    "next_round",
    "parse_duration",
    "resolve_check",
    "system_names",
    "validate_params",
]
