"""Rule options a table may change, with the defaults the rules brief chose.

Every unconfirmed reading in ``shared/rules/wrath-and-glory.md`` is one of these rather than
hard-wired. Read them through the accessors so the defaults live in one place.
"""

from __future__ import annotations

from typing import Any

from rulekeeper.core.action import ParamSpec
from rulekeeper.core.play import Play
from rulekeeper.core.who_rolls import NPC_AUTOMATION

__all__ = [
    "AFTER_DETERMINATION",
    "BEFORE_DETERMINATION",
    "RULE_OPTIONS",
    "annihilation_before_determination",
    "blinded_dn",
    "count_replaced_injuries",
    "dying_complication_each",
    "dying_recovery_caps",
    "eye_dn",
    "light_activity_allowance",
    "regroup_heals_icons",
    "torso_dn",
]

AFTER_DETERMINATION = "after_determination"
BEFORE_DETERMINATION = "before_determination"

RULE_OPTIONS: tuple[ParamSpec, ...] = (
    NPC_AUTOMATION,  # who rolls an NPC's checks (core.who_rolls): the table's, in every system
    ParamSpec(
        "round_seconds",
        "int",
        "seconds in one combat turn (the seed gives no length)",
        default=6,
        minimum=1,
    ),
    ParamSpec(
        "annihilation_order",
        "choice",
        "check Annihilation on the Wounds left after Determination, or on the Wounds before it (unconfirmed)",
        default=AFTER_DETERMINATION,
        choices=(AFTER_DETERMINATION, BEFORE_DETERMINATION),
    ),
    ParamSpec(
        "regroup_healing",
        "choice",
        "Regroup Medicae healing: Wounds equal to the healer's pool size, or to the Icons it rolls",
        default="pool",
        choices=("pool", "icons"),
    ),
    ParamSpec(
        "replaced_injuries_count",
        "bool",
        "replaced Traumatic Injuries still count towards death and Dying Wrath dice",
        default=True,
    ),
    ParamSpec(
        "dying_complication_injuries",
        "choice",
        "Traumatic Injuries from Complications on a Dying test: one per test, or one per Complication",
        default="one",
        choices=("one", "each"),
    ),
    ParamSpec("torso_dn", "int", "DN added to Toughness tests per unreplaced Torso injury", default=1, minimum=1),
    ParamSpec("eye_dn", "int", "DN added to tests needing sight with one eye lost", default=2, minimum=0),
    ParamSpec(
        "blinded_dn",
        "int",
        "DN added to tests needing sight when Blinded (both eyes lost); never less than eye_dn",
        default=2,
        minimum=0,
    ),
    ParamSpec(
        "dying_recovery",
        "choice",
        "healing a Dying character: 'literal' heals what was healed and Dying ends; 'cap' also drops "
        "Wounds above Max Wounds",
        default="literal",
        choices=("literal", "cap"),
    ),
    ParamSpec(
        "respite_light_hours",
        "int",
        "hours of light activity (standing watch) a Respite allows",
        default=2,
        minimum=0,
        maximum=6,
    ),
)
_DEFAULTS: dict[str, Any] = {spec.name: spec.default for spec in RULE_OPTIONS}


def _get(play: Play[Any], name: str) -> Any:
    return play.option(name, _DEFAULTS[name])


def annihilation_before_determination(play: Play[Any]) -> bool:
    return str(_get(play, "annihilation_order")) == BEFORE_DETERMINATION


def regroup_heals_icons(play: Play[Any]) -> bool:
    return str(_get(play, "regroup_healing")) == "icons"


def count_replaced_injuries(play: Play[Any]) -> bool:
    return bool(_get(play, "replaced_injuries_count"))


def dying_complication_each(play: Play[Any]) -> bool:
    return str(_get(play, "dying_complication_injuries")) == "each"


def torso_dn(play: Play[Any]) -> int:
    return int(_get(play, "torso_dn"))


def eye_dn(play: Play[Any]) -> int:
    return int(_get(play, "eye_dn"))


def blinded_dn(play: Play[Any]) -> int:
    """Never below the one-eye penalty: losing the second eye cannot make sight tests easier."""
    return max(int(_get(play, "blinded_dn")), eye_dn(play))


def dying_recovery_caps(play: Play[Any]) -> bool:
    return str(_get(play, "dying_recovery")) == "cap"


def light_activity_allowance(play: Play[Any]) -> int:
    """Seconds of light activity a Respite tolerates."""
    return int(_get(play, "respite_light_hours")) * 3600
