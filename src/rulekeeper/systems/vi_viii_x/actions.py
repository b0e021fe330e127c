"""Every action VI·VIII·X offers, declared once: the CLI, the HTTP layer and scenarios are built from these."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rulekeeper.core.action import ActionSpec, Call, ParamSpec
from rulekeeper.core.play import Play
from rulekeeper.core.section import Section
from rulekeeper.systems.vi_viii_x import hazard_actions as hazard
from rulekeeper.systems.vi_viii_x import injury_actions as injury
from rulekeeper.systems.vi_viii_x import state_actions as states
from rulekeeper.systems.vi_viii_x.character import Burden, Character, Regimen
from rulekeeper.systems.vi_viii_x.damage import DAMAGE_KINDS
from rulekeeper.systems.vi_viii_x.deprivation import NEEDS
from rulekeeper.systems.vi_viii_x.effects import sync_states
from rulekeeper.systems.vi_viii_x.states import GM_STATES

__all__ = ["ACTIONS_SECTION", "REST_KINDS", "actions"]

REST_KINDS: tuple[str, ...] = tuple(r.value for r in Regimen)
_KS = ("bu", "co", "in", "em")


def _ks(default: str | None = "bu", help: str = "known stat hit") -> ParamSpec:
    return ParamSpec("ks", "choice", help, default=default, choices=_KS)


_US = ParamSpec("us", "str", "unknown stat paired with the KS (default: the KS's only one)", gm_only=True)
_GM = ParamSpec(
    "gm_modifier", "int", "GM modifier (about -3 to +3)", default=0, minimum=-10, maximum=10, overrides_rules=True
)
_SKILL = ParamSpec("skill", "str", "exclusive skill to check instead of a KS/US pair")


def _threshold(required: bool = False, default: str | None = None, help: str = "threshold") -> ParamSpec:
    return ParamSpec(
        "threshold",
        "str",
        f"{help}: a number or trivial, easy, average, hard ...",
        required,
        default,
        overrides_rules=True,
    )


def _synced(handler: Callable[[Play[Character], Call], None]) -> Callable[[Play[Character], Call], None]:
    """Run a handler, then bring the actor's sheet-derived states up to date.

    A character enters play without any action (a sheet read in), so its first action is
    where states such as Injured or Burdened first show up.
    """

    def run(play: Play[Character], action: Call) -> None:
        handler(play, action)
        if action.actor is not None:
            sync_states(play, action.actor)

    run.__doc__ = handler.__doc__
    return run


def actions() -> dict[str, ActionSpec]:
    specs = (
        ActionSpec(
            "damage",
            "Damage on a KS and US pair, US first; physical on BU/CO, mental on IN/EM (VIII.1)",
            injury.damage,
            (
                ParamSpec("amount", "int", "points of damage", required=True, minimum=0, maximum=100),
                ParamSpec("kind", "choice", "kind of damage", default="physical", choices=tuple(DAMAGE_KINDS)),
                _ks(),
                _US,
            ),
            kind="damage",
        ),
        ActionSpec(
            "heal",
            "Immediate healing, KS first then US; magic ages a week per point (VIII.2)",
            injury.heal,
            (
                ParamSpec("amount", "int", "points healed", required=True, minimum=0, maximum=100),
                ParamSpec("source", "choice", "magic or another means", default="magic", choices=("magic", "other")),
                _ks(None, "only this known stat's pair (default: all, KS first)"),
                _US,
                ParamSpec("weeks_per_point", "int", "aging per point for other means", default=0, minimum=0),
            ),
            kind="heal",
        ),
        ActionSpec(
            "potion",
            "A healing potion: 2d3 points over the next day, or spread over more days (VIII.2)",
            injury.potion,
            (
                ParamSpec("days", "int", "days the potion works over", default=1, minimum=1, maximum=30),
                _ks(None, "only this known stat's pair (default: all, KS first)"),
                _US,
            ),
            kind="heal",
        ),
        ActionSpec(
            "rest",
            "How the character spends the days: total rest, basic actions, or acting normally (VIII.2)",
            injury.rest,
            (ParamSpec("kind", "choice", "total, basic or active", default="total", choices=REST_KINDS),),
            kind="rest",
        ),
        ActionSpec(
            "arc",
            "An action resolution check: ARCT against a threshold or ARCO against an opponent",
            states.arc,
            (
                _ks(None, "known stat (default BU)"),
                _US,
                _SKILL,
                _threshold(help="ARCT threshold"),
                # Set by a player, the opponent's side is a threshold of their choosing (see _threshold).
                ParamSpec(
                    "opponent_stats",
                    "int",
                    "ARCO: the opponent's KS + US",
                    minimum=-20,
                    maximum=40,
                    overrides_rules=True,
                ),
                ParamSpec(
                    "opponent_modifier", "int", "ARCO: the opponent's modifiers", default=0, overrides_rules=True
                ),
                _GM,
                ParamSpec(
                    "roll_modifier", "int", "a roll modifier read at the table (judged at once)", overrides_rules=True
                ),
                ParamSpec(
                    "opponent_roll_modifier",
                    "int",
                    "the opponent's roll modifier read at the table",
                    overrides_rules=True,
                ),
            ),
            kind="check",
        ),
        ActionSpec(
            "reaction",
            "A Reaction check: automatic when exalted, harder when panicked; ends Surprised (VIII.4)",
            states.reaction,
            (_ks(None, "known stat (default BU)"), _US, _SKILL, _threshold(True, help="threshold"), _GM),
            kind="check",
        ),
        ActionSpec(
            "climb",
            "Climb: Stamina ARCT on grips; without grips only with a tool (VIII.3)",
            hazard.climb,
            (
                ParamSpec("grips", "bool", "the surface has grips", default=True),
                ParamSpec("tool", "bool", "rope and grappling hook or a like tool", default=False),
                _threshold(help="the GM's threshold (optional for tool climbs)"),
                _GM,
            ),
            kind="feat",
        ),
        ActionSpec(
            "fall",
            "A fall of h metres: h - 2 damage from 3 m, less a Body Control relief (VIII.3)",
            hazard.fall,
            (
                ParamSpec("metres", "int", "height fallen in metres", required=True, minimum=0, maximum=10_000),
                ParamSpec("ks", "choice", "known stat the fall hurts", default="bu", choices=("bu", "co")),
                _US,
                _threshold(help="threshold instead of the 3-metre band"),
                ParamSpec("body_control", "bool", "try the Body Control ARCT if the skill is there", default=True),
                _GM,
            ),
            kind="damage",
        ),
        ActionSpec(
            "jump",
            "A running or standing jump by agility and burden (VIII.3)",
            hazard.jump,
            (
                ParamSpec("style", "choice", "running or standing", default="running", choices=("running", "standing")),
                ParamSpec("distance", "float", "metres to clear", minimum=0),
            ),
            kind="feat",
        ),
        ActionSpec(
            "exert",
            "Start a prolonged action: a Stamina ARCT after every turn at a rising threshold (VIII.3)",
            hazard.exert,
            (
                _threshold(default="trivial", help="threshold of the first ARCT"),
                ParamSpec(
                    "step",
                    "int",
                    "rise of the threshold each turn",
                    default=3,
                    minimum=0,
                    maximum=30,
                    overrides_rules=True,
                ),
                ParamSpec("skill", "str", "the skill checked", default="stamina"),
                ParamSpec("turns", "int", "turns the action lasts (default: until a rest)", minimum=1),
            ),
            kind="feat",
        ),
        ActionSpec(
            "afflict",
            "A disease or poison lowers a KS and US pair and stays until every point is back (VIII.3)",
            hazard.afflict,
            (
                ParamSpec("kind", "choice", "disease or poison", default="disease", choices=("disease", "poison")),
                ParamSpec("name", "str", "name of the disease or poison", required=True),
                ParamSpec("amount", "int", "points lost", required=True, minimum=0, maximum=100),
                _ks("bu", "known stat it lowers"),
                _US,
            ),
            kind="damage",
        ),
        ActionSpec(
            "cure",
            "Look for a cure: Education medicine (or alchemy for poison) ARCT (VIII.3)",
            hazard.cure,
            (
                ParamSpec("ailment", "str", "the disease or poison", required=True),
                ParamSpec("healer", "character", "who looks for the cure (default: the patient)"),
                ParamSpec("skill", "str", "education-medicine or education-alchemy (default: the better)"),
                _threshold(True, help="the GM's threshold"),
                _GM,
            ),
            kind="feat",
        ),
        ActionSpec(
            "deprive",
            "Go without food or water: harm from day 5 without food, day 3 without water (VIII.3)",
            hazard.deprive,
            (
                ParamSpec("kind", "choice", "food or water", default="food", choices=NEEDS),
                ParamSpec("days", "int", "days already gone without", default=0, minimum=0, maximum=365),
            ),
            kind="feat",
        ),
        ActionSpec(
            "nourish",
            "Eat or drink again: the count of days without stops (VIII.3)",
            hazard.nourish,
            (ParamSpec("kind", "choice", "food or water", default="food", choices=NEEDS),),
            kind="heal",
        ),
        ActionSpec(
            "state",
            "Put a state the GM rules on or off, with its malus for every check (VIII.4)",
            states.set_state,
            (
                ParamSpec("kind", "choice", "the state", required=True, choices=GM_STATES),
                ParamSpec("on", "bool", "on (true) or off (false)", default=True),
                ParamSpec("turns", "int", "lasts this many turns (default: until lifted)", minimum=1),
                ParamSpec(
                    "modifier",
                    "int",
                    "the GM's adjustment to every check",
                    default=0,
                    minimum=-10,
                    maximum=10,
                    overrides_rules=True,
                ),
                ParamSpec("limbs", "choice", "entangled: which limbs", choices=("legs", "arms")),
            ),
            kind="condition",
        ),
        ActionSpec(
            "stun",
            "A stunning blow: unconscious until a Stamina ARCT succeeds (VIII.4)",
            states.stun,
            (_threshold(True, help="the stun's threshold"), _GM),
            kind="condition",
        ),
        ActionSpec(
            "sight",
            "An action that needs sight: while blind, only a 1 on 1d6 (VIII.4)",
            states.sight,
            (ParamSpec("task", "str", "what the character tries"),),
            kind="feat",
        ),
        ActionSpec(
            "som",
            "Set the state of mind: 10 exalted, 1 panicked (VIII.4)",
            states.set_som,
            (ParamSpec("value", "int", "SOM 1-10", required=True, minimum=1, maximum=10),),
            kind="condition",
        ),
        ActionSpec(
            "burden",
            "Set the burden rank carried (VIII.4)",
            states.burden,
            (ParamSpec("kind", "choice", "burden rank", default="none", choices=tuple(b.value for b in Burden)),),
            kind="condition",
        ),
        ActionSpec(
            "cast",
            "Cast a spell: refused while deafened or unconscious (VIII.4)",
            states.cast,
            (ParamSpec("spell", "str", "the spell"),),
            kind="feat",
        ),
        ActionSpec(
            "player_view",
            "What the character's player may see: no unknown stat, nothing computed from one",
            states.player_view,
            (),
            kind="view",
            player_facing=True,
        ),
    )
    # A view changes nothing, not even the derived states.
    return {s.name: s if s.kind == "view" else replace(s, handler=_synced(s.handler)) for s in specs}


#: Every action of the system (the topics' handlers, gathered with their parameters here).
ACTIONS_SECTION = Section("actions", actions=actions())
