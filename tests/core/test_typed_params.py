"""Parameters reach the rules typed: coerced and defaulted once from their specs, read without conversion.

A tiny ruleset's handler reports what it was handed, so these tests see exactly what rule code
sees; the last tests hold every real system to the same contract.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from rulekeeper.core import (
    Action,
    ActionSpec,
    Call,
    GameState,
    Params,
    ParamSpec,
    Play,
    Ruleset,
    add_character,
    apply_action,
    get_ruleset,
    system_names,
    validate_params,
)
from rulekeeper.dice import ScriptedSource
from rulekeeper.errors import InputError

SYSTEMS = Path(__file__).resolve().parents[2] / "src" / "rulekeeper" / "systems"

PROBE_PARAMS = (
    ParamSpec("count", "int", required=True, minimum=0),
    ParamSpec("bonus", "int", default=2),
    ParamSpec("reach", "float", default=1.5),
    ParamSpec("note", "str"),
    ParamSpec("loud", "bool", default=False),
    ParamSpec("wait", "duration"),
    ParamSpec("mood", "choice", default="calm", choices=("calm", "angry")),
    ParamSpec("faces", "ints"),
)


@dataclass(frozen=True)
class Dummy:
    name: str = ""


def _probe(play: Play[Dummy], action: Call) -> None:
    p = action.params
    play.result.update(
        {
            "count": p.int("count"),
            "bonus": p.int("bonus"),
            "reach": p.float("reach"),
            "note": p.opt_str("note"),
            "loud": p.bool("loud"),
            "wait": p.opt_int("wait"),
            "mood": p.str("mood"),
            "faces": p.opt_ints("faces"),
        }
    )


class ProbeRuleset(Ruleset[Dummy]):
    name = "probe"
    title = "Probe"
    character_type = Dummy
    check_kinds: ClassVar[Mapping[str, str]] = {}

    def actions(self) -> Mapping[str, ActionSpec]:
        return {"probe": ActionSpec("probe", "report what the handler is handed", _probe, PROBE_PARAMS)}

    def new_character(self, sheet: Mapping[str, Any]) -> Dummy:
        return Dummy(name=str(sheet.get("name", "")))

    def view(self, state: GameState[Dummy], actor: str) -> dict[str, Any]:
        return {}


def _act(raw: Mapping[str, Any]) -> dict[str, Any]:
    ruleset = ProbeRuleset()
    state = add_character(ruleset, ruleset.new_state(), "kira", {"name": "Kira"})
    outcome = apply_action(ruleset, state, Action("probe", "kira", raw), ScriptedSource([]))
    return dict(outcome.result)


def test_text_from_a_front_end_reaches_the_handler_typed() -> None:
    # What the CLI and a query string send: every value is text.
    seen = _act({"count": "3", "bonus": "-1", "reach": "2.5", "loud": "yes", "wait": "10m", "faces": "4, 6"})
    assert seen["count"] == 3 and type(seen["count"]) is int
    assert seen["bonus"] == -1 and type(seen["bonus"]) is int
    assert seen["reach"] == 2.5 and type(seen["reach"]) is float
    assert seen["loud"] is True
    assert seen["wait"] == 600
    assert seen["faces"] == (4, 6)


def test_an_omitted_parameter_reaches_the_handler_as_its_default() -> None:
    seen = _act({"count": 0})
    assert seen == {
        "count": 0,
        "bonus": 2,
        "reach": 1.5,
        "note": None,
        "loud": False,
        "wait": None,
        "mood": "calm",
        "faces": None,
    }


def test_bad_text_is_refused_before_the_handler_runs() -> None:
    with pytest.raises(InputError, match="count='three' is not valid"):
        _act({"count": "three"})
    with pytest.raises(InputError, match="missing parameter 'count'"):
        _act({"bonus": 1})


def test_a_reader_that_does_not_fit_the_declaration_is_a_bug_not_a_player_error() -> None:
    params = validate_params(PROBE_PARAMS, {"count": 1}, "probe")
    with pytest.raises(TypeError, match="declared 'str'"):
        params.int("note")
    with pytest.raises(TypeError, match="may be None"):
        params.int("wait")  # optional without a default: opt_int
    with pytest.raises(TypeError, match="cannot be None"):
        params.opt_int("count")  # always present: int
    with pytest.raises(TypeError, match="no parameter 'colour'"):
        params.str("colour")


def test_params_are_a_read_only_mapping_equal_to_their_values() -> None:
    params = validate_params(PROBE_PARAMS, {"count": "4", "note": "hello"}, "probe")
    assert isinstance(params, Params)
    assert params["count"] == 4 and params["note"] == "hello" and len(params) == len(PROBE_PARAMS)
    assert dict(params)["bonus"] == 2
    assert params.replace(note="bye").opt_str("note") == "bye"
    assert params.opt_str("note") == "hello"  # replace made a new set
    with pytest.raises(TypeError):
        params["count"] = 5  # type: ignore[index]


def test_the_acting_character_is_read_as_checked() -> None:
    params = validate_params(PROBE_PARAMS, {"count": 1}, "probe")
    assert Call("probe", "kira", params).character == "kira"
    with pytest.raises(TypeError, match="no acting character"):
        _ = Call("probe", None, params).character


def _all_specs() -> list[tuple[str, ParamSpec]]:
    found = []
    for system in system_names():
        ruleset = get_ruleset(system)
        for action in ruleset.actions().values():
            found += [(f"{system} action {action.name}", spec) for spec in action.params]
        for calculator in ruleset.calculators().values():
            found += [(f"{system} calculator {calculator.name}", spec) for spec in calculator.params]
    return found


_PYTHON = {"int": int, "duration": int, "float": float, "bool": bool, "ints": tuple}


def test_every_declared_default_already_has_its_kinds_type() -> None:
    # Defaults are not coerced, so a default of the wrong type would reach a handler as it is.
    wrong = [
        f"{where} {spec.name}={spec.default!r}"
        for where, spec in _all_specs()
        if spec.default is not None
        and (
            not isinstance(spec.default, _PYTHON.get(spec.kind, str))
            or (isinstance(spec.default, bool) and spec.kind != "bool")
        )
    ]
    assert wrong == []


# A conversion around a parameter read, a raw read by key, a copy to a dict to read from, or the
# acting character's id re-converted (``action.character`` is the checked one).
_RECONVERSION = re.compile(
    r"\b(?:int|str|bool|float|tuple|list)\(\s*(?:action\.)?(?:params|p)"
    r"(?:\[|\.get\(|\.(?:opt_)?(?:int|str|bool|float|ints)\()"
    r"|\b(?:action\.params|params)(?:\[|\.get\()"
    r"|\bp\.get\("
    r"|\bdict\(\s*(?:action\.)?params\s*\)"
    r"|\bstr\(\s*action\.actor\s*\)"
)


def test_no_rule_code_re_converts_or_re_reads_its_parameters() -> None:
    hits = [
        f"{path.relative_to(SYSTEMS)}:{number}: {line.strip()}"
        for path in sorted(SYSTEMS.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _RECONVERSION.search(line)
    ]
    assert hits == []


def test_the_scan_would_see_a_re_conversion() -> None:
    for line in (
        'n = int(params["amount"])',
        "x = p.get('dr')",
        "d = dict(action.params)",
        'b = bool(p.bool("x"))',
        "actor = str(action.actor)",
    ):
        assert _RECONVERSION.search(line), line
    assert not _RECONVERSION.search('n = params.int("amount")')
