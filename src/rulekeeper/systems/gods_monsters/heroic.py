"""The heroic last effort and the end of the scene (seed 000, "A time to die").

Once a character's dying time has run out they die at the end of the scene, but before then they
may make one heroic last effort at anything except staying alive: one roll at a bonus of their
level, with no injury penalty, on which they may bid any remaining mojo and other players may
contribute theirs. The character dies when the effort is over.

Mojo bids (reading, after the Gods & Monsters rules "Play the Game": a bid that succeeds costs
what the roll needed): the whole bid is a bonus on the roll; if the roll succeeds only the points
it needed are spent (all of them with the table option ``mojo_bid_spend: all``), the dying
character's own mojo first, then the contributors' in the order given; a failed roll spends none.
"""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.core.check import CheckResult, Modifier
from rulekeeper.core.play import Play
from rulekeeper.core.section import CheckKind, CheckSpec, Section
from rulekeeper.core.state import PendingCheck
from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import GmCharacter
from rulekeeper.systems.gods_monsters.checks import gm_roll
from rulekeeper.systems.gods_monsters.dying import die
from rulekeeper.systems.gods_monsters.rules import TIME_TO_DIE, rule

__all__ = [
    "HEROIC_SECTION",
    "MOJO_SPEND_OPTION",
    "end_scene",
    "heroic_last_effort",
    "mojo_spent",
    "on_heroic_roll",
    "parse_contributions",
]

MOJO_SPEND_OPTION = "mojo_bid_spend"


def parse_contributions(text: str) -> list[tuple[str, int]]:
    """``"gralen:2, bors:1"`` -> ``[("gralen", 2), ("bors", 1)]``."""
    out: list[tuple[str, int]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, sep, amount = part.partition(":")
        if not sep or not name.strip() or not amount.strip().isdigit() or int(amount) < 1:
            raise InputError(
                f"cannot read contribution {part!r}",
                expected="character:mojo pairs such as gralen:2,bors:1",
                where="contributions",
            )
        out.append((name.strip(), int(amount)))
    return out


def mojo_spent(bid: int, margin_without_bid: int, *, spend_all: bool) -> int:
    """Mojo a bid costs: what the roll needed (``-margin`` before the bid), or the whole bid."""
    if spend_all:
        return bid
    return min(bid, max(0, -margin_without_bid))


def heroic_last_effort(
    play: Play[GmCharacter],
    actor: str,
    *,
    against: str | None,
    score: int | None,
    modifier: int,
    mojo: int,
    contributions: list[tuple[str, int]],
    task: str,
) -> None:
    cite = rule(TIME_TO_DIE)
    character = play.char(actor)
    if cond.is_dead(play, actor):
        raise RuleRefusal(f"{actor} is dead (seed 000, {TIME_TO_DIE})")
    if not play.has(actor, cond.DOOMED):
        raise RuleRefusal(
            f"{actor}'s time has not run out; the heroic last effort comes only after the dying time ends "
            f"(seed 000, {TIME_TO_DIE})"
        )
    if character.is_npc:
        raise RuleRefusal(f"the heroic last effort is for player characters (seed 000, {TIME_TO_DIE})")
    if character.last_effort_used:
        raise RuleRefusal(f"{actor} has already made their one heroic last effort (seed 000, {TIME_TO_DIE})")
    if (against is None) == (score is None):
        raise InputError("give either against (an ability or reaction) or score", where="heroic_last_effort")
    if mojo > character.mojo:
        raise RuleRefusal(f"{actor} has only {character.mojo} mojo to bid")
    for name, amount in contributions:
        if name == actor:
            raise InputError("the dying character bids with mojo, not contributions", where="contributions")
        giver = play.char(name)
        if giver.mojo < amount:
            raise RuleRefusal(f"{name} has only {giver.mojo} mojo to contribute")
    bid = mojo + sum(a for _, a in contributions)
    mods = [Modifier(character.level, "heroic last effort (level)"), Modifier(modifier, "circumstances")]
    if bid:
        mods.append(Modifier(bid, "mojo bid"))
    base = against if against is not None else int(score or 0)
    label = against if against is not None else "heroic last effort"
    check = gm_roll(
        play, character, kind="gm.heroic", label=label, score=base, modifiers=mods, ignore_injuries=True, actor=actor
    )
    play.put(actor, replace(character, last_effort_used=True))
    play.explain(
        f"{actor} makes a heroic last effort{': ' + task if task else ''} (no injury penalty)",
        cite,
        actor=actor,
    )
    play.check(
        check,
        purpose="heroic",
        rule=cite,
        actor=actor,
        data={"bid": bid, "mojo": mojo, "contributions": [[n, a] for n, a in contributions]},
    )


def on_heroic_roll(play: Play[GmCharacter], pending: PendingCheck, result: CheckResult) -> None:
    actor = pending.actor
    if actor is None or cond.is_dead(play, actor):
        return
    bid = int(pending.data.get("bid", 0))
    spend_all = play.option(MOJO_SPEND_OPTION, "needed") == "all"
    cost = mojo_spent(bid, result.margin - bid, spend_all=spend_all) if result.success else 0
    givers: list[tuple[str, int]] = [(actor, int(pending.data.get("mojo", 0)))]
    givers += [(str(n), int(a)) for n, a in pending.data.get("contributions", [])]
    spent: dict[str, int] = {}
    left = cost
    for name, offered in givers:
        take = min(offered, left)
        if take <= 0 or name not in play.state.characters:
            continue
        giver = play.char(name)
        take = min(take, giver.mojo)
        play.put(name, replace(giver, mojo=giver.mojo - take))
        spent[name] = take
        left -= take
    play.result["heroic"] = {"success": result.success, "mojo_spent": spent}
    if spent:
        play.explain(
            "mojo spent on the heroic last effort: " + ", ".join(f"{n} {a}" for n, a in spent.items()),
            rule(TIME_TO_DIE, reading="a successful bid costs only what the roll needed"),
            actor=actor,
        )
    outcome = "succeeds" if result.success else "fails"
    die(play, actor, f"{actor}'s heroic last effort {outcome}; with it ends their life")


def end_scene(play: Play[GmCharacter], actors: list[str]) -> list[str]:
    """The scene ends: every doomed character among ``actors`` dies."""
    dead = []
    for actor in actors:
        if play.has(actor, cond.DOOMED):
            die(play, actor, f"the scene ends and {actor} dies")
            dead.append(actor)
    if not dead:
        play.explain("the scene ends; nobody's time had run out", rule(TIME_TO_DIE))
    play.result["died"] = dead
    return dead


#: The heroic last effort (seed 000).
HEROIC_SECTION = Section(
    "heroic effort",
    check_kinds=(CheckKind("gm.heroic", "the heroic last effort (seed 000)"),),
    checks=(CheckSpec("heroic", on_heroic_roll),),
)
