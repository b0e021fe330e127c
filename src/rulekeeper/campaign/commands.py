"""Commands: their JSON form, the one pure function that applies each, and a summary line.

A command is a JSON mapping with a ``kind``. The same :func:`apply_command` runs when a command
is first issued (dice from the campaign's seeded source or typed at the table) and when history
is replayed (the recorded dice), so the two cannot drift apart.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from rulekeeper.campaign.jsonable import jsonable
from rulekeeper.campaign.names import check_name
from rulekeeper.campaign.requests import add_request, answer_request, waiting_request
from rulekeeper.campaign.seat import Seat, SeatDice
from rulekeeper.campaign.table import Table, merge_settings, settings_json
from rulekeeper.core import engine
from rulekeeper.core.action import Action, validate_params
from rulekeeper.core.citation import Rule
from rulekeeper.core.clock import format_duration
from rulekeeper.core.explain import Step
from rulekeeper.core.frozen import evolve
from rulekeeper.core.play import Outcome
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.core.state import AutomationLevel
from rulekeeper.core.who_rolls import level_for as who_level_for
from rulekeeper.core.who_rolls import with_players, without_players
from rulekeeper.dice.source import DiceSource, RecordingSource, ScriptedSource, SeededSource
from rulekeeper.errors import InputError, RuleRefusal, UnknownNameError

__all__ = [
    "COMMAND_KINDS",
    "GLOBAL_KINDS",
    "ROLES_RULE",
    "Applied",
    "LiveDice",
    "apply_command",
    "live_dice",
    "recorded_dice_problem",
    "summarize",
]

ROLES_RULE = Rule(system="campaign", section="Characters and roles")
SETTINGS_RULE = Rule(system="campaign", section="Table settings")
REQUESTS_RULE = Rule(system="campaign", section="Requests to the GM")

#: Kinds that change the game for everyone: undoing one takes every later command with it.
GLOBAL_KINDS: frozenset[str] = frozenset({"advance", "next_round", "set_settings"})


@dataclass(frozen=True)
class Applied:
    """What applying one command gave: the new table, the engine's outcome (if the rules ran),
    the JSON record kept in history, and the characters it concerned."""

    table: Table
    outcome: Outcome[Any] | None
    record: dict[str, Any]
    actors: tuple[str, ...]


# -- reading command fields (a command may come from an imported file, so check its shape) --
def _field(command: Mapping[str, Any], name: str) -> Any:
    if name not in command:
        raise InputError(f"{command.get('kind')} command without {name!r}", where="command")
    return command[name]


def _text(command: Mapping[str, Any], name: str, *, optional: bool = False) -> str | None:
    value = command.get(name) if optional else _field(command, name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{name}={value!r} is not valid", expected="non-empty text", where="command")
    return value


def _actor(command: Mapping[str, Any]) -> str:
    value = _text(command, "actor")
    assert value is not None
    return value


def _int(command: Mapping[str, Any], name: str, *, minimum: int | None = None) -> int:
    value = _field(command, name)
    if isinstance(value, bool) or not isinstance(value, int) or (minimum is not None and value < minimum):
        bound = f" of at least {minimum}" if minimum is not None else ""
        raise InputError(f"{name}={value!r} is not valid", expected=f"a whole number{bound}", where="command")
    return value


def _mapping(command: Mapping[str, Any], name: str, *, optional: bool = False) -> dict[str, Any] | None:
    value = command.get(name) if optional else _field(command, name)
    if value is None and optional:
        return None
    if not isinstance(value, Mapping):
        raise InputError(f"{name} must be a mapping, not {type(value).__name__}", where="command")
    return dict(value)


def _dice_values(command: Mapping[str, Any]) -> list[int] | None:
    value = command.get("dice")
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InputError(f"dice={value!r} are not valid", expected="a list of whole numbers", where="command")
    return value


def _record(
    result: Mapping[str, Any],
    steps: Iterable[Step],
    outcome: Outcome[Any] | None = None,
) -> dict[str, Any]:
    # jsonable() of the whole record, the same data in half the time: the steps as
    # _steps_record makes them, and nothing already plain walked again.
    if outcome is not None:
        return {
            "result": jsonable(outcome.result),
            "explanation": _steps_record(outcome.explanation),
            "events": jsonable(outcome.events) if outcome.events else [],
            "pending": jsonable(outcome.pending) if outcome.pending else [],
            "checks": jsonable(outcome.checks) if outcome.checks else [],
        }
    return {"result": jsonable(result), "explanation": _steps_record(steps), "events": [], "pending": [], "checks": []}


def _steps_record(steps: Iterable[Step]) -> list[dict[str, Any]]:
    """``jsonable(steps)``, the same data, in a third of the time: a step's rule is one of a few
    dozen, made into JSON once (``_rule_record``), where pydantic-core's encoder read every
    field of every one (an action's three steps: 5.8 µs of the record's 8.4)."""
    return [
        {
            "text": s.text,
            "rule": dict(_rule_record(s.rule)),
            "actor": s.actor,
            "roll": s.roll,
            "dice": list(s.dice),
            "data": jsonable(s.data) if s.data else {},
        }
        for s in steps
    ]


@functools.lru_cache(maxsize=4096)
def _rule_record(rule: Rule) -> dict[str, Any]:
    record: dict[str, Any] = jsonable(rule)
    return record


def _outcome_actors(outcome: Outcome[Any]) -> set[str]:
    found = {s.actor for s in outcome.explanation} | {e.actor for e in outcome.events}
    found |= {p.actor for p in outcome.pending}
    return {a for a in found if a}


# -- the commands -------------------------------------------------------------------------
def _add_character(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    actor = _actor(command)
    sheet = _mapping(command, "sheet")
    assert sheet is not None
    player = _text(command, "player", optional=True)
    check_name(actor, "character id")
    if player is not None:
        check_name(player, "player name")
    npc = command.get("npc", False)
    if not isinstance(npc, bool):
        raise InputError(f"npc={npc!r} is not valid", expected="true or false", where="command")
    if npc and player is not None:
        raise InputError(f"{actor} cannot be an NPC and played by {player}", expected="either npc or a player")
    game = engine.add_character(ruleset, table.game, actor, sheet, npc=npc)
    players = dict(table.players)
    if player is not None:
        players[actor] = player
    npcs = table.npcs | {actor} if npc else table.npcs
    if npc:
        text = f"{actor} joins the campaign as an NPC"
    elif player is not None:
        text = f"{actor} joins the campaign, played by {player}"
    else:
        text = f"{actor} joins the campaign (no player yet; the GM plays them)"
    new = replace(table, game=game, sheets={**table.sheets, actor: sheet}, players=players, npcs=npcs)
    record = _record({"character": actor, "player": player, "npc": npc}, [Step(text, ROLES_RULE, actor=actor)])
    return Applied(new, None, record, (actor,))


def _edit_character(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    actor = _actor(command)
    changes = _mapping(command, "changes")
    assert changes is not None
    if not changes:
        raise InputError("no changes given", expected="sheet fields and their new values", where="edit")
    _known(table, actor)
    old_sheet = dict(table.sheets.get(actor, {}))
    new_sheet = dict(old_sheet)
    for key, value in changes.items():
        if value is None:
            new_sheet.pop(key, None)
        else:
            new_sheet[key] = value
    return _rebuild(ruleset, table, actor, new_sheet, set(changes), [])


def _known(table: Table, actor: str) -> None:
    if actor not in table.game.characters:
        known = ", ".join(sorted(table.game.characters)) or "none yet"
        raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}")


def _rebuild(
    ruleset: Ruleset[Any],
    table: Table,
    actor: str,
    new_sheet: dict[str, Any],
    named: set[str],
    steps: list[Step],
    *,
    say_follows: bool = True,
) -> Applied:
    """The character rebuilt from ``new_sheet``: each stored value follows the new sheet unless play
    has moved it (current HP after a wound stays), a field in ``named`` always follows it. With
    ``say_follows`` False only the values play keeps are explained (``steps`` say the rest)."""
    current = table.game.characters[actor]
    old_sheet = dict(table.sheets.get(actor, {}))
    fresh_old = ruleset.new_character(old_sheet)
    fresh_new = ruleset.new_character(new_sheet)
    changed: dict[str, Any] = {}
    if is_dataclass(current) and not isinstance(current, type):
        updates: dict[str, Any] = {}
        for f in fields(current):
            if not f.init:
                continue
            was, now, have = getattr(fresh_old, f.name), getattr(fresh_new, f.name), getattr(current, f.name)
            is_named = f.name in named
            if was == now and not is_named:
                continue
            # A value play has moved away from the sheet (current HP after a wound) stays, unless named.
            if is_named or have == was:
                if have != now:
                    updates[f.name] = now
                    changed[f.name] = now
                    if say_follows:
                        steps.append(Step(f"{actor}: {f.name} {have} -> {now}", ROLES_RULE, actor=actor))
            else:
                steps.append(
                    Step(
                        f"{actor}: {f.name} stays {have} (changed in play; the new sheet alone would give {now})",
                        ROLES_RULE,
                        actor=actor,
                    )
                )
        character = replace(current, **updates)
    else:
        character = fresh_new
    if not steps:
        steps.append(Step(f"{actor}: the sheet changes nothing stored", ROLES_RULE, actor=actor))
    game = replace(table.game, characters={**table.game.characters, actor: character})
    # `--set wounds=0` lifts Wounded and `--set current_hp=3` makes reeling, exactly as play would.
    synced = engine.sync_derived(ruleset, game, engine.NO_DICE)
    game = synced.state
    steps.extend(synced.explanation)
    new = replace(table, game=game, sheets={**table.sheets, actor: new_sheet})
    return Applied(new, None, _record({"character": actor, "changed": changed}, steps), (actor,))


def _update_character(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    """A character re-read from a changed sheet file: the new sheet, each value play has moved
    (damage, spent FP) kept; conditions and timers stay; what changed on the sheet is explained."""
    from rulekeeper.campaign.sheet_changes import sheet_changes

    actor = _actor(command)
    sheet = _mapping(command, "sheet")
    assert sheet is not None
    source = _mapping(command, "source")
    assert source is not None
    _known(table, actor)
    old_sheet = dict(table.sheets.get(actor, {}))
    new_sheet = dict(sheet)
    lines = sheet_changes(old_sheet, new_sheet) or ["the sheet file changes nothing"]
    what = source.get("format", "sheet")
    steps = [Step(f"{actor} re-read from the {what} file: {line}", ROLES_RULE, actor=actor) for line in lines]
    return _rebuild(ruleset, table, actor, new_sheet, set(), steps, say_follows=False)


def _remove_character(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    actor = _actor(command)
    game = table.game
    if actor not in game.characters:
        known = ", ".join(sorted(game.characters)) or "none yet"
        raise UnknownNameError(f"unknown character {actor!r}", expected=f"one of: {known}")
    dropped = (
        sum(c.actor == actor for c in game.conditions),
        sum(t.actor == actor for t in game.timers),
        sum(p.actor == actor for p in game.pending),
    )
    game = replace(
        game,
        characters={k: v for k, v in game.characters.items() if k != actor},
        conditions=tuple(c for c in game.conditions if c.actor != actor),
        timers=tuple(t for t in game.timers if t.actor != actor),
        pending=tuple(p for p in game.pending if p.actor != actor),
    )
    new = replace(
        table,
        game=game,
        sheets={k: v for k, v in table.sheets.items() if k != actor},
        players={k: v for k, v in table.players.items() if k != actor},
        npcs=table.npcs - {actor},
    )
    text = (
        f"{actor} leaves the campaign, with {dropped[0]} condition(s), {dropped[1]} timer(s) "
        f"and {dropped[2]} pending check(s)"
    )
    return Applied(new, None, _record({"character": actor}, [Step(text, ROLES_RULE, actor=actor)]), (actor,))


def _act(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    raw = _mapping(command, "action")
    assert raw is not None
    name = _text(raw, "name")
    assert name is not None
    actor = _text(raw, "actor", optional=True)
    params = _mapping(raw, "params", optional=True) or {}
    action = Action(name=name, actor=actor, params=params)
    counted = engine.CountingSource(dice)
    typed = _dice_values(command) is not None
    outcome = engine.apply_action(ruleset, table.game, action, counted, table_dice=typed)
    outcome = _typed_through(ruleset, command, outcome, table.game.next_id, counted)
    actors = _outcome_actors(outcome)
    if actor:
        actors.add(actor)
    spec = ruleset.actions().get(name)
    if spec is not None:
        for param in spec.params:
            value = params.get(param.name)
            if param.kind == "character" and isinstance(value, str) and value:
                actors.add(value)
    return Applied(table.with_game(outcome.state), outcome, _record({}, (), outcome), tuple(sorted(actors)))


def _typed_through(
    ruleset: Ruleset[Any], command: Mapping[str, Any], outcome: Outcome[Any], first_id: int, dice: engine.CountingSource
) -> Outcome[Any]:
    """Dice typed with the command feed the checks it left pending, in the order they were asked
    for (replays read the same count from the command, so they follow the same path)."""
    typed = _dice_values(command)
    if typed is None:
        return outcome
    return engine.resolve_typed_in_order(ruleset, outcome, first_id, dice, len(typed))


def _resolve(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    pending_id = _int(command, "pending")
    typed = _dice_values(command)
    pending = table.game.find_pending(pending_id)
    # A total typed alone for a check decided by its total is judged as it is (no dice recorded).
    total = None if typed is None or pending is None else engine.typed_total(table.game, pending, typed)
    counted = engine.CountingSource(dice)
    outcome = engine.resolve_check(ruleset, table.game, pending_id, counted, total=total, table_dice=typed is not None)
    if typed is not None and pending is not None and total is None:
        # by roll_rules 2 a total typed alone stood for even dice (typed_values)
        command = {**command, "dice": list(engine.typed_values(pending, typed, table.game.settings))}
    if total is None:
        outcome = _typed_through(ruleset, command, outcome, table.game.next_id, counted)
    actors = _outcome_actors(outcome)
    if pending is not None and pending.actor:
        actors.add(pending.actor)
    return Applied(table.with_game(outcome.state), outcome, _record({}, (), outcome), tuple(sorted(actors)))


def _advance(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    seconds = _int(command, "seconds", minimum=0)
    counted = engine.CountingSource(dice)
    outcome = engine.advance(ruleset, table.game, seconds, counted, table_dice=_dice_values(command) is not None)
    outcome = _typed_through(ruleset, command, outcome, table.game.next_id, counted)
    return Applied(
        table.with_game(outcome.state), outcome, _record({}, (), outcome), tuple(sorted(_outcome_actors(outcome)))
    )


def _next_round(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    rounds = _int(command, "count", minimum=1) if "count" in command else 1
    counted = engine.CountingSource(dice)
    outcome = engine.next_round(ruleset, table.game, counted, rounds, table_dice=_dice_values(command) is not None)
    outcome = _typed_through(ruleset, command, outcome, table.game.next_id, counted)
    return Applied(
        table.with_game(outcome.state), outcome, _record({}, (), outcome), tuple(sorted(_outcome_actors(outcome)))
    )


def _set_settings(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    automation = _mapping(command, "automation", optional=True)
    options = _mapping(command, "options", optional=True)
    if not automation and not options:
        raise InputError("no settings given", expected="automation levels or rule options to change")
    settings = merge_settings(ruleset, table.game.settings, automation, options)
    steps = [
        Step(f"automation {key}: {value if value is not None else 'back to the default'}", SETTINGS_RULE)
        for key, value in (automation or {}).items()
    ]
    steps += [
        Step(f"rule option {key}: {value if value is not None else 'back to the default'}", SETTINGS_RULE)
        for key, value in (options or {}).items()
    ]
    # Set just now, NPC levels need to know who plays whom too (core.who_rolls).
    settings = with_players(without_players(settings), table.players)
    new = table.with_game(table.game.with_settings(settings))
    if settings.every_check_holds_time and any(
        who_level_for(settings, p.check.kind, p.actor) is AutomationLevel.AUTO
        for p in new.game.pending
        if p.after is None
    ):
        # A kind switched to auto: the engine rolls what waits of it, and this command records those
        # dice, so the history replays (roll_rules 5; before, such checks kept waiting).
        outcome = engine.roll_what_waits(ruleset, new.game, dice)
        outcome = replace(
            outcome,
            explanation=(*steps, *outcome.explanation),
            result={**outcome.result, "settings": settings_json(settings)},
        )
        actors = tuple(sorted(_outcome_actors(outcome)))
        return Applied(new.with_game(outcome.state), outcome, _record({}, (), outcome), actors)
    return Applied(new, None, _record({"settings": settings_json(settings)}, steps), ())


def _mentions(value: Any, name: str, path: str = "") -> str | None:
    """Where in ``value`` (plain JSON) the text ``name`` appears as a value or a key, if anywhere."""
    if isinstance(value, str):
        return path if value == name else None
    if isinstance(value, Mapping):
        for k, v in value.items():
            here = f"{path}.{k}" if path else str(k)
            if k == name:
                return here
            found = _mentions(v, name, here)
            if found is not None:
                return found
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _mentions(v, name, f"{path}[{i}]")
            if found is not None:
                return found
    return None


def _rename_character(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    from rulekeeper.core.serial import state_to_json

    old = _actor(command)
    new_id = _text(command, "to")
    assert new_id is not None
    game = table.game
    if old not in game.characters:
        known = ", ".join(sorted(game.characters)) or "none yet"
        raise UnknownNameError(f"unknown character {old!r}", expected=f"one of: {known}")
    if new_id != new_id.strip() or any(ch.isspace() for ch in new_id):
        raise InputError(f"{new_id!r} cannot be a character id", expected="an id without spaces", where="command")
    if new_id in game.characters:
        raise InputError(f"{new_id!r} is already a character here", expected="a new id", where="command")

    def moved(name: str) -> str:
        return new_id if name == old else name

    character = game.characters[old]
    if getattr(character, "name", None) == old:  # a sheet named by its id follows the id
        character = replace(character, name=new_id)
    game = replace(
        game,
        characters={moved(k): (character if k == old else v) for k, v in game.characters.items()},
        conditions=tuple(replace(c, actor=moved(c.actor)) for c in game.conditions),
        timers=tuple(replace(t, actor=moved(t.actor)) if t.actor else t for t in game.timers),
        pending=tuple(replace(p, actor=moved(p.actor)) if p.actor else p for p in game.pending),
    )
    # Rules data may name the character too (a turn order, an attack's target). Renaming inside
    # it would need every system to say where ids live; refusing is honest and rarely in the way.
    place = _mentions(state_to_json(ruleset, game), old)
    if place is not None:
        raise RuleRefusal(f"{old} is still named in the game state ({place}); rename outside the fight")
    new = replace(
        table,
        game=game,
        sheets={moved(k): v for k, v in table.sheets.items()},
        players={moved(k): v for k, v in table.players.items()},
        npcs=frozenset(moved(a) for a in table.npcs),
    )
    steps = [Step(f"{old} is now called {new_id}", ROLES_RULE, actor=new_id)]
    return Applied(new, None, _record({"character": new_id, "was": old}, steps), (old, new_id))


def _action_of(command: Mapping[str, Any]) -> Action:
    raw = _mapping(command, "action")
    assert raw is not None
    name = _text(raw, "name")
    assert name is not None
    return Action(
        name=name, actor=_text(raw, "actor", optional=True), params=_mapping(raw, "params", optional=True) or {}
    )


def _request(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    """A player's action on characters they do not play, kept for the GM. It is tried now on a
    copy with throwaway dice, so a request the rules would refuse is refused at once, not later."""
    action = _action_of(command)
    by = _text(command, "by")
    assert by is not None
    others = [str(o) for o in command.get("others") or ()]
    spec = ruleset.actions().get(action.name)
    missing = [p.name for p in (spec.params if spec else ()) if p.required and p.name not in action.params]
    if missing:  # the GM's to give (seat.judge_action): the rest is still checked now
        specs = tuple(p for p in spec.params if p.name not in missing) if spec else ()
        validate_params(specs, action.params, action.name)
    else:
        engine.apply_action(ruleset, table.game, action, SeededSource("request: tried, never kept"))
    new, request = add_request(table, by, action.to_json(), others)
    what = summarize({"kind": "act", "action": action.to_json()})
    touches = f"; it touches {', '.join(others)}" if others else ""
    needs = f"; the GM gives {', '.join(missing)}" if missing else ""
    text = f"{by} asks the GM (request #{request['id']}): {what}{touches}{needs}"
    step = Step(text, REQUESTS_RULE, actor=action.actor)
    return Applied(new, None, _record({"request": request}, [step]), tuple(a for a in (action.actor,) if a))


def _approve(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    """The GM applies a waiting request as their own action, amended by ``set`` (None removes a
    parameter), with the dice of this moment."""
    number = _int(command, "request", minimum=1)
    request = waiting_request(table, number)
    changes = _mapping(command, "set", optional=True) or {}
    action = _action_of(request)
    params = {k: v for k, v in {**action.params, **changes}.items() if v is not None}
    amended = Action(action.name, action.actor, params)
    applied = _act(ruleset, table, {"kind": "act", "action": amended.to_json(), "dice": None}, dice)
    after = answer_request(applied.table, number, "approved", params=params)
    amend = f", amended: {_pairs(changes)}" if changes else ""
    step = Step(f"the GM approves {request['by']}'s request #{number}{amend}", REQUESTS_RULE, actor=action.actor)
    record = dict(applied.record)
    record["explanation"] = [jsonable(step), *record["explanation"]]
    record["result"] = {**record["result"], "request": number}
    return Applied(after, applied.outcome, record, applied.actors)


def _decline(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    number = _int(command, "request", minimum=1)
    request = waiting_request(table, number)
    note = _text(command, "note", optional=True)
    actor = _action_of(request).actor
    why = f": {note}" if note else ""
    step = Step(f"the GM declines {request['by']}'s request #{number}{why}", REQUESTS_RULE, actor=actor)
    new = answer_request(table, number, "declined", note=note)
    return Applied(new, None, _record({"request": number}, [step]), tuple(a for a in (actor,) if a))


def _settle_aside(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    """The GM's answer to a consequence set aside when it fell due (``engine.SET_ASIDE``): ``retry``
    it at the next advance, with ``changes`` to its data if given (a skill that is on the sheet),
    or ``drop`` it."""
    timer_id = _int(command, "timer", minimum=1)
    do = command.get("do")
    if do not in ("retry", "drop"):
        raise InputError(f"do={do!r} is not valid", expected="retry or drop", where="command")
    changes = _mapping(command, "changes", optional=True) or {}
    aside = engine.set_aside(table.game)
    timer = next((t for t in aside if t.id == timer_id), None)
    if timer is None:
        shown = ", ".join(f"#{t.id}" for t in aside) or "none"
        raise UnknownNameError(f"no consequence #{timer_id} is set aside", expected=f"one of: {shown}")
    others = tuple(t for t in table.game.timers if t.id != timer_id)
    if do == "drop":
        text = f"the GM drops {timer.label} (#{timer_id}), set aside when it failed"
        game = replace(table.game, timers=others)
    else:
        data = {k: v for k, v in {**timer.data, **changes}.items() if k != engine.SET_ASIDE and v is not None}
        fixed = f" with {_pairs(changes)}" if changes else ""
        text = f"the GM retries {timer.label} (#{timer_id}){fixed}: it plays at the next advance"
        game = replace(table.game, timers=(*others, replace(timer, data=data)))
    step = Step(text, ROLES_RULE, actor=timer.actor)
    actors = (timer.actor,) if timer.actor else ()
    return Applied(table.with_game(game), None, _record({"timer": timer_id, "do": do}, [step]), actors)


_Handler = Callable[[Ruleset[Any], Table, Mapping[str, Any], DiceSource], Applied]
_HANDLERS: dict[str, _Handler] = {
    "add_character": _add_character,
    "edit_character": _edit_character,
    "update_character": _update_character,
    "remove_character": _remove_character,
    "rename_character": _rename_character,
    "act": _act,
    "resolve": _resolve,
    "advance": _advance,
    "next_round": _next_round,
    "set_settings": _set_settings,
    "settle_aside": _settle_aside,
    "request": _request,
    "approve": _approve,
    "decline": _decline,
}
COMMAND_KINDS: tuple[str, ...] = tuple(_HANDLERS)


def apply_command(ruleset: Ruleset[Any], table: Table, command: Mapping[str, Any], dice: DiceSource) -> Applied:
    """Apply one command to ``table`` with dice from ``dice``. Pure: no I/O, no clock, no randomness
    except through ``dice``. Bad input raises ``InputError``; a rule's refusal ``RuleRefusal``."""
    kind = command.get("kind")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise InputError(f"unknown command kind {kind!r}", expected="one of " + ", ".join(COMMAND_KINDS))
    # Who plays whom is the campaign's: the engine learns it for this command only (core.who_rolls).
    knowing = table.game.with_settings(with_players(table.game.settings, table.players))
    if knowing is table.game:  # nothing depends on who plays whom (core.who_rolls.with_players)
        return handler(ruleset, table, command, dice)
    return _forget_players(handler(ruleset, table.with_game(knowing), command, dice))


def _forget_players(applied: Applied) -> Applied:
    game = applied.table.game
    table = applied.table.with_game(game.with_settings(without_players(game.settings)))
    outcome = applied.outcome
    if outcome is not None:
        outcome = evolve(outcome, state=outcome.state.with_settings(without_players(outcome.state.settings)))
    return evolve(applied, table=table, outcome=outcome)


# -- live dice ------------------------------------------------------------------------------
@dataclass
class LiveDice:
    """The dice of a command being issued now, recorded so a replay can use the same ones."""

    source: RecordingSource
    typed: ScriptedSource | None = None

    def check_used(self) -> None:
        """Every die typed at the table must have been used by the rules."""
        if self.typed is not None and self.typed.remaining:
            given = self.typed.used + len(self.typed.remaining)
            raise InputError(
                f"{given} dice were typed but the rules used only {self.typed.used}",
                expected=f"exactly {self.typed.used} dice values",
            )

    @property
    def recorded(self) -> tuple[tuple[int, int], ...]:
        return tuple(self.source.record)


def live_dice(
    command: Mapping[str, Any],
    table: Table,
    seed: int,
    seq: int,
    ruleset: Ruleset[Any] | None = None,
    seat: Seat | None = None,
) -> LiveDice:
    """Dice typed with the command if any, else the campaign's seeded source for this seq.

    Dice typed by a player (``seat``) feed only their own characters' checks (``SeatDice``)."""
    seeded = SeededSource(f"{seed}:{seq}")
    typed = _dice_values(command)
    if typed is None:
        return LiveDice(RecordingSource(seeded))
    if command.get("kind") == "resolve":
        pending = table.game.find_pending(_int(command, "pending"))
        if pending is not None and engine.typed_total(table.game, pending, typed) is not None:
            return LiveDice(RecordingSource(seeded))  # a total, not dice: what follows is the campaign's
        if pending is not None:
            # Dice beyond the check's own feed its consequences; any further rolls are the campaign's.
            feeds = True if ruleset is None else ruleset.typed_dice_feed_consequences
            source = engine.typed_dice_source(
                pending, typed, seeded, table.game.settings, surplus_feeds_consequences=feeds
            )
            if seat is not None and not seat.is_gm:
                source.scripted = SeatDice(source.scripted.remaining, seat, label=source.scripted.label)
            return LiveDice(RecordingSource(source), source.scripted)
    label = "dice typed for this command"
    scripted = (
        ScriptedSource(typed, label=label) if seat is None or seat.is_gm else SeatDice(typed, seat, label=label)
    )
    return LiveDice(RecordingSource(scripted), scripted)


def recorded_dice_problem(
    command: Mapping[str, Any], dice: Sequence[tuple[int, int]], seed: int, seq: int, table: Table
) -> str | None:
    """Why ``dice`` are not what issuing ``command`` as #``seq`` on ``table`` would have rolled, or None.

    The same split as :func:`live_dice`: dice typed with the command come first and must be the
    typed values (a total typed alone read as its dice); every other die came from the
    campaign's seeded source, which must give exactly those values again. A die typed at the table
    relabelled as seeded, or a changed seed, fails.
    """
    typed = list(_dice_values(command) or [])
    if typed and command.get("kind") == "resolve" and isinstance(command.get("pending"), int):
        pending = table.game.find_pending(command["pending"])
        if pending is not None and engine.typed_total(table.game, pending, typed) is not None:
            typed = []  # a total judged as it is records no dice: every die recorded is the seed's
        elif pending is not None:
            typed = list(engine.typed_values(pending, typed, table.game.settings))
    if [value for _, value in dice[: len(typed)]] != typed:
        return f"its recorded dice {[v for _, v in dice]} do not start with the dice typed {typed}"
    rest = dice[len(typed) :]
    if typed and command.get("kind") != "resolve" and rest:
        return f"{len(rest)} dice beyond the {len(typed)} typed are recorded, and none could be rolled"
    seeded = SeededSource(f"{seed}:{seq}")
    for index, (sides, value) in enumerate(rest, start=len(typed) + 1):
        rolled = seeded.roll(sides)
        if rolled != value:
            return f"die #{index} is recorded as {value} on a d{sides}, but the campaign's seed rolls {rolled}"
    return None


# -- summaries ------------------------------------------------------------------------------
def _value(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_value(v) for v in value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _pairs(values: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={_value(v)}" for k, v in values.items() if v is not None)


def summarize(command: Mapping[str, Any], refs: Sequence[int] = ()) -> str:
    """One line saying what a command was, for logs and conflict messages."""
    kind = command.get("kind")
    typed = command.get("dice")
    dice = f" (dice {_value(typed)})" if isinstance(typed, list) else ""
    if kind == "add_character":
        who = " (NPC)" if command.get("npc") else f" (player {command['player']})" if command.get("player") else ""
        return f"add {command.get('actor')}{who}"
    if kind == "edit_character":
        return f"edit {command.get('actor')}: {_pairs(command.get('changes') or {})}"
    if kind == "update_character":
        source = command.get("source") or {}
        return f"update {command.get('actor')} from a {source.get('format', 'sheet')} file"
    if kind == "remove_character":
        return f"remove {command.get('actor')}"
    if kind == "rename_character":
        return f"rename {command.get('actor')} to {command.get('to')}"
    if kind == "act":
        action = command.get("action") or {}
        params = _pairs(action.get("params") or {})
        head = f"{action.get('actor')}: {action.get('name')}" if action.get("actor") else str(action.get("name"))
        return f"{head} {params}".rstrip() + dice
    if kind == "resolve":
        return f"resolve check #{command.get('pending')}{dice}"
    if kind == "advance":
        seconds = command.get("seconds")
        return f"advance {format_duration(seconds) if isinstance(seconds, int) else seconds}{dice}"
    if kind == "next_round":
        count = command.get("count", 1)
        return (f"{count} rounds" if count != 1 else "next round") + dice
    if kind == "set_settings":
        parts = [
            f"automation {_pairs(command.get('automation') or {})}",
            f"options {_pairs(command.get('options') or {})}",
        ]
        return "settings: " + "; ".join(p for p in parts if not p.endswith(" "))
    if kind == "request":
        inner = summarize({"kind": "act", "action": command.get("action") or {}})
        return f"{command.get('by')} asks: {inner}"
    if kind in ("approve", "decline"):
        amend = f" with {_pairs(command.get('set') or {})}" if command.get("set") else ""
        return f"{kind} request #{command.get('request')}{amend}"
    if kind == "settle_aside":
        return f"{command.get('do')} set-aside consequence #{command.get('timer')}"
    if kind in ("undo", "redo"):
        return f"{kind} " + (", ".join(f"#{r}" for r in refs) or "nothing")
    return str(kind)
