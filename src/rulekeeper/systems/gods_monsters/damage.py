"""Damage and injuries: the absorption order and everything that follows from gaining injuries.

Absorption order (seed 000, "Temporary bonus pools", "Using verve", "Injury points (zero survival
points)"; rules brief, readings): an eligible temporary bonus pool first, then verve if the damage
is archetypal, then survival, and what is left becomes injury points.

Consequences (seed 000, "Injury points (zero survival points)" and "A time to die"):

* dropping to zero survival or gaining injuries asks for a consciousness roll at once
  (fortitude for physical harm, willpower for mental harm, minus the injury total);
* gaining injuries schedules the death check for the end of the round (the next 10-second
  boundary), remembering whether the latest injuries were archetypal;
* damage taken during a night's or day's rest interrupts it.

For seed 002 rules (``consequences``): use :func:`take_damage` for rolled damage (falling:
``injury_override`` = number of dice) and :func:`add_injuries` for effects that inflict injury
points directly (ailments, a failed forced march, suffocation). Set ``phantasmal=True`` for
illusory damage: a death roll lost to it puts the character in shock instead of dying
(seed 002, "Actions and consequences: Illusions").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from rulekeeper.core.citation import Rule
from rulekeeper.core.play import Play
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters import conditions as cond
from rulekeeper.systems.gods_monsters.character import BonusPool, GmCharacter
from rulekeeper.systems.gods_monsters.checks import injury_penalty
from rulekeeper.systems.gods_monsters.rules import BONUS_POOLS, INJURIES, REGAINING, USING_VERVE
from rulekeeper.systems.gods_monsters.rules import rule as cite

__all__ = ["Absorption", "absorb", "add_injuries", "injury_penalty", "resume_damage", "take_damage"]


@dataclass(frozen=True)
class Absorption:
    """Where each point of one hit went; ``character`` is the character afterwards."""

    character: GmCharacter
    amount: int
    from_pools: int
    from_verve: int
    from_survival: int
    to_injuries: int
    direct_injuries: int
    pools_emptied: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "from_bonus_pool": self.from_pools,
            "from_verve": self.from_verve,
            "from_survival": self.from_survival,
            "to_injuries": self.to_injuries,
            "direct_injuries": self.direct_injuries,
        }


def absorb(
    character: GmCharacter,
    amount: int,
    *,
    archetypal: bool,
    physical: bool = True,
    direct_injuries: int = 0,
) -> Absorption:
    """Apply ``amount`` damage in the absorption order; pure, no rolls.

    ``direct_injuries`` points of the amount go straight to injuries (a rule that gives injuries
    before survival runs out, e.g. one per falling die); the rest runs through pools, verve
    (only if ``archetypal``) and survival, and what is left over also becomes injuries.
    """
    if amount < 0 or direct_injuries < 0:
        raise InputError(f"damage cannot be negative ({amount}, {direct_injuries})", expected="0 or more")
    direct = min(direct_injuries, amount)
    rest = amount - direct
    pools: list[BonusPool] = []
    emptied: list[str] = []
    from_pools = 0
    for pool in character.bonus_pools:
        if rest > 0 and pool.absorbs(archetypal=archetypal, physical=physical):
            take = min(pool.points, rest)
            rest -= take
            from_pools += take
            if pool.points > take:
                pools.append(replace(pool, points=pool.points - take))
            else:
                emptied.append(pool.name)
        else:
            pools.append(pool)
    from_verve = min(character.verve, rest) if archetypal else 0
    rest -= from_verve
    from_survival = min(character.survival, rest)
    rest -= from_survival
    to_injuries = rest + direct
    after = replace(
        character,
        bonus_pools=tuple(pools),
        verve=character.verve - from_verve,
        survival=character.survival - from_survival,
        injuries=character.injuries + to_injuries,
    )
    return Absorption(
        character=after,
        amount=amount,
        from_pools=from_pools,
        from_verve=from_verve,
        from_survival=from_survival,
        to_injuries=to_injuries,
        direct_injuries=direct,
        pools_emptied=tuple(emptied),
    )


def _explain_absorption(
    play: Play[GmCharacter], actor: str, before: GmCharacter, after: GmCharacter, hit: Absorption
) -> None:
    """Say what took the damage, in the order it was taken: bonus pools, verve, survival, injuries."""
    from rulekeeper.systems.gods_monsters.bonus_pools import forget_pool_timers

    if hit.from_pools:
        play.explain(
            f"the temporary bonus pool absorbs {hit.from_pools} ({before.bonus_pool_points} → "
            f"{after.bonus_pool_points}); real survival is untouched by it",
            cite(BONUS_POOLS),
            actor=actor,
        )
    for name in hit.pools_emptied:
        forget_pool_timers(play, actor, name)
        play.explain(f"bonus pool {name!r} is exhausted", cite(BONUS_POOLS), actor=actor)
    if hit.from_verve:
        play.explain(
            f"verve absorbs {hit.from_verve} ({before.verve} → {after.verve})",
            cite(USING_VERVE),
            actor=actor,
        )
    if hit.from_survival:
        play.explain(
            f"survival absorbs {hit.from_survival} ({before.survival} → {after.survival})",
            cite(REGAINING),
            actor=actor,
        )
    if hit.to_injuries:
        how = f" ({hit.direct_injuries} directly by rule)" if hit.direct_injuries else ""
        play.explain(
            f"{hit.to_injuries} injur{'y' if hit.to_injuries == 1 else 'ies'}{how}: "
            f"{before.injuries} → {after.injuries}; {injury_penalty(after):+d} on every roll",
            cite(INJURIES),
            actor=actor,
        )


def take_damage(
    play: Play[GmCharacter],
    actor: str,
    amount: int,
    *,
    archetypal: bool,
    rule: Rule,
    source: str = "",
    injury_override: int | None = None,
    physical: bool = True,
    phantasmal: bool = False,
    fields: Iterable[str] = (),
    at_round_end: bool = False,
) -> None:
    """Apply ``amount`` points of damage to ``actor`` with every consequence.

    ``archetypal``: the damage meets one of the four criteria of seed 000 "Using verve" (see
    :mod:`.archetypal`), so verve absorbs it. ``rule`` cites what caused the damage.
    ``source`` names the cause; if the character has a field of that name, its bonus applies to
    the death roll, as do the bonuses of ``fields`` (seed 000, "A time to die").
    ``injury_override``: how many of the points go straight to injuries (see :func:`absorb`).
    ``physical``: False for mental harm (the consciousness roll is then willpower).
    ``phantasmal``: illusory damage (a lost death roll means shock, not dying).

    Puts a summary in ``play.result["damage"]``.
    """
    from rulekeeper.systems.gods_monsters import consciousness, dying
    from rulekeeper.systems.gods_monsters.npc import roll_npc_survival

    if amount < 0:
        raise InputError(f"damage cannot be negative ({amount})", expected="0 or more", where="amount")
    if cond.is_dead(play, actor):
        play.explain(f"{actor} is dead; the damage changes nothing", rule, actor=actor)
        play.result["damage"] = {"amount": amount, "dead": True}
        return
    if play.char(actor).survival_dice:
        # An NPC's survival is rolled when first needed; the damage lands once it is known
        # (at once on ``auto``, when the dice are typed on ``prompt``).
        then = {
            "amount": amount,
            "archetypal": archetypal,
            "rule": asdict(rule),
            "source": source,
            "injury_override": injury_override,
            "physical": physical,
            "phantasmal": phantasmal,
            "fields": list(fields),
            "at_round_end": at_round_end,
        }
        roll_npc_survival(play, actor, then=then)
        return
    before = play.char(actor)
    hit = absorb(before, amount, archetypal=archetypal, physical=physical, direct_injuries=injury_override or 0)
    after = hit.character
    if after.injuries > before.injuries:
        after = replace(after, latest_injuries_archetypal=archetypal)
    play.put(actor, after)
    cause = f" from {source}" if source else ""
    play.explain(
        f"{actor} takes {amount} damage{cause}" + (" (archetypal)" if archetypal else ""),
        rule,
        actor=actor,
        **hit.to_json(),
    )
    _explain_absorption(play, actor, before, after, hit)
    play.result["damage"] = {**hit.to_json(), "archetypal": archetypal}
    play.result.update(
        survival=after.survival,
        verve=after.verve,
        injuries=after.injuries,
        bonus_pool=after.bonus_pool_points,
    )
    if amount > 0:
        _interrupt_rest(play, actor)
    gained = after.injuries - before.injuries
    dropped_to_zero = before.survival > 0 and after.survival == 0
    field_names = [*fields]
    if source and source in after.fields:
        field_names.append(source)
    if gained > 0:
        dying.schedule_round_end(
            play,
            actor,
            death_check=True,
            archetypal=archetypal,
            fields=field_names,
            phantasmal=phantasmal,
            closing=at_round_end,
        )
    if gained > 0 or dropped_to_zero:
        consciousness.ask_consciousness_roll(play, actor, physical=physical)


def resume_damage(play: Play[GmCharacter], actor: str, then: Mapping[str, Any]) -> None:
    """Damage that waited for an NPC's survival dice (see :func:`take_damage`) comes off now."""
    take_damage(
        play,
        actor,
        int(then["amount"]),
        archetypal=bool(then["archetypal"]),
        rule=Rule(**dict(then["rule"])),
        source=str(then["source"]),
        injury_override=None if then["injury_override"] is None else int(then["injury_override"]),
        physical=bool(then["physical"]),
        phantasmal=bool(then["phantasmal"]),
        fields=[str(f) for f in then["fields"]],
        at_round_end=bool(then["at_round_end"]),
    )


def add_injuries(
    play: Play[GmCharacter],
    actor: str,
    n: int,
    rule: Rule,
    *,
    archetypal: bool = False,
    physical: bool = True,
    phantasmal: bool = False,
    at_round_end: bool = False,
) -> None:
    """Give ``n`` injury points directly (ailments, a failed forced march, suffocation).

    They bypass bonus pools, verve and survival but have every other consequence of injuries:
    the consciousness roll and the end-of-round death check.
    """
    if n < 0:
        raise InputError(f"injuries cannot be negative ({n})", expected="0 or more", where="injuries")
    take_damage(
        play,
        actor,
        n,
        archetypal=archetypal,
        rule=rule,
        injury_override=n,
        physical=physical,
        phantasmal=phantasmal,
        at_round_end=at_round_end,
    )


def _interrupt_rest(play: Play[GmCharacter], actor: str) -> None:
    for name in (cond.ASLEEP, cond.RESTING):
        if play.has(actor, name):
            play.remove_condition(actor, name, quiet=True)
            play.explain(
                f"{actor}'s rest is interrupted by the damage; it brings no recovery",
                cite(REGAINING, reading="rest interrupted by damage gives no recovery"),
                actor=actor,
            )
