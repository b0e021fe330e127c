"""The ``item_reaction`` action: does an exposed item survive an attack? (see :mod:`.item_reactions`)"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.params import Params
from rulekeeper.core.play import Play
from rulekeeper.core.roll_under import RollUnder
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.systems.gods_monsters.checks import NATURAL_EXTREMES_OPTION
from rulekeeper.systems.gods_monsters.consequences.item_reactions import (
    ATTACK_FORMS,
    ITEM_REACTION_BASE,
    MATERIALS,
    item_survival,
    material,
    parse_thickness,
    thickness_bonus,
)
from rulekeeper.systems.gods_monsters.consequences.sections import ITEM_REACTIONS, c_rule

__all__ = ["ITEM_ACTIONS", "ITEM_PURPOSE", "ITEM_SECTION", "item_check", "on_item_check"]

ITEM_PURPOSE = "c.item"


def item_check(params: Params, *, natural_extremes: bool = False) -> tuple[RollUnder, dict[str, Any]]:
    """The item's reaction roll and what it is made of, from action or calculator parameters."""
    mat = material(params.str("material"))
    raw_thickness = params.opt_str("thickness")
    thickness = parse_thickness(raw_thickness) if raw_thickness is not None else Fraction(0)
    attack = params.str("attack")
    override = params.opt_int("modifier")
    mod = mat.modifier(attack) if override is None else override
    thick = thickness_bonus(thickness, mat.bonus_thickness)
    mods = []
    if mod:
        note = " (given)" if override is not None else " (unconfirmed)" if mat.unconfirmed else ""
        mods.append(Modifier(mod, f"{mat.name} against {attack}{note}"))
    if thick:
        mods.append(Modifier(thick, f"{float(thickness):g} in thick"))
    if params.int("bonus"):
        mods.append(Modifier(params.int("bonus"), "other"))
    check = RollUnder(
        kind="gm.item",
        label=f"{mat.name} item",
        score=ITEM_REACTION_BASE,
        modifiers=tuple(mods),
        natural_extremes=natural_extremes,
    )
    info = {
        "material": mat.name,
        "attack": attack,
        "thickness": float(thickness),
        "thickness_bonus": thick,
        "material_modifier": mod,
        "target": check.target,
        "survival": item_survival(params.float("weight")),
        "damage": params.int("damage"),
    }
    return check, info


def _item_reaction(play: Play[Any], action: Call) -> None:
    check, info = item_check(action.params, natural_extremes=bool(play.option(NATURAL_EXTREMES_OPTION, False)))
    play.explain(
        f"the {info['material']} item ({info['survival']} survival: its weight in pounds) reacts to {info['attack']}",
        c_rule(ITEM_REACTIONS, reading="material modifiers reconstructed from a garbled table (unconfirmed)"),
        actor=action.actor,
    )
    play.result["item"] = dict(info)
    play.check(check, purpose=ITEM_PURPOSE, rule=c_rule(ITEM_REACTIONS), actor=action.actor, data=info)


def on_item_check(play: Play[Any], pending: PendingCheck, result: CheckResult) -> None:
    info = dict(pending.data)
    cite = c_rule(ITEM_REACTIONS)
    if result.success:
        play.explain("the item comes through unharmed", cite, actor=pending.actor)
        info.update(damaged=False, survival_left=info["survival"])
    else:
        left = max(0, int(info["survival"]) - int(info["damage"]))
        state = "destroyed" if left == 0 else f"{left} survival left"
        play.explain(f"the item takes {info['damage']} damage: {state}", cite, actor=pending.actor)
        info.update(damaged=True, survival_left=left)
    play.result["item"] = info


ITEM_PARAMS: tuple[ParamSpec, ...] = (
    ParamSpec(
        "material", "choice", "what the item is made of", required=True, choices=tuple(m.name for m in MATERIALS)
    ),
    ParamSpec("attack", "choice", "the attack form", required=True, choices=ATTACK_FORMS),
    ParamSpec("thickness", "str", "thickness in inches, e.g. 1/4, 0.5, 2 (none: no thickness bonus)"),
    ParamSpec("weight", "float", "weight in pounds (= survival points)", default=1.0, minimum=0, maximum=1e9),
    ParamSpec(
        "damage", "int", "damage the attack does to the item if it fails", default=0, minimum=0, maximum=1_000_000
    ),
    ParamSpec(
        "modifier",
        "int",
        "material modifier to use instead of the table's",
        minimum=-50,
        maximum=50,
        overrides_rules=True,
    ),
    ParamSpec("bonus", "int", "other bonuses or penalties", default=0, minimum=-50, maximum=50),
)

ITEM_ACTIONS: dict[str, ActionSpec] = {
    "item_reaction": ActionSpec(
        "item_reaction",
        "An uncarried (or exposed) item reacts to an attack: d20 against 4 + material + thickness (seed 002)",
        _item_reaction,
        params=ITEM_PARAMS,
        actor="optional",
        kind="feat",
    ),
}


#: Item reactions (seed 002).
ITEM_SECTION = Section(
    "item reactions",
    actions=ITEM_ACTIONS,
    check_kinds=(CheckKind("gm.item", "an item's reaction roll against an attack"),),
    checks=(CheckSpec(ITEM_PURPOSE, on_item_check),),
)
