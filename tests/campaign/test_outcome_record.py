"""A command's outcome record, as history keeps it (``commands._record``): built piece by piece
for speed, it must be exactly ``jsonable`` of the whole outcome, as it was when it was made in
one call -- records already stored are compared with new ones on every verified replay."""

from __future__ import annotations

from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.campaign import Campaign
from rulekeeper.campaign import commands as campaign_commands
from rulekeeper.campaign.jsonable import jsonable
from rulekeeper.cli.demo import play_scenario_into
from rulekeeper.core.citation import Rule
from rulekeeper.core.explain import Step
from rulekeeper.core.play import Event, Outcome
from rulekeeper.demo import demo_files
from rulekeeper.scenario import load_scenario
from rulekeeper.store import open_store
from support.same_data import same


def _whole(result: Any, steps: Any, outcome: Outcome[Any] | None) -> Any:
    """The record as one ``jsonable`` call made it."""
    if outcome is None:
        return jsonable({"result": result, "explanation": tuple(steps), "events": (), "pending": (), "checks": ()})
    fields = ("result", "explanation", "events", "pending", "checks")
    return jsonable({name: getattr(outcome, name) for name in fields})


_text = st.text(max_size=12)
_plain = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | _text,
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=12,
)
_rules = st.builds(Rule, _text, _text, st.none() | _text, st.none() | _text, st.none() | _text)
_steps = st.builds(
    Step,
    _text,
    _rules,
    st.none() | _text,
    st.none() | _text,
    st.lists(st.integers(1, 20), max_size=4).map(tuple),
    st.dictionaries(_text, _plain, max_size=3),
)
_events = st.builds(Event, _text, st.none() | _text, st.dictionaries(_text, _plain, max_size=3))


@given(st.lists(_steps, max_size=4), st.dictionaries(_text, _plain, max_size=4), st.lists(_events, max_size=3))
def test_a_record_is_jsonable_of_the_whole_outcome(
    steps: list[Step], result: dict[str, Any], events: list[Event]
) -> None:
    outcome: Outcome[Any] = Outcome(
        state=cast(Any, None), events=tuple(events), pending=(), explanation=tuple(steps), result=result
    )
    assert same(campaign_commands._record({}, (), outcome), _whole({}, (), outcome))
    assert same(campaign_commands._record(result, steps), _whole(result, steps, None))


@pytest.mark.parametrize("path", demo_files(), ids=[p.stem for p in demo_files()])
def test_every_record_of_an_evening_is_as_one_jsonable_call_made_it(path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each system's demo evening (pending checks, timers, conditions, settings), every record
    compared as it is made."""
    made = campaign_commands._record
    seen: list[int] = []

    def compared(result: Any, steps: Any, outcome: Outcome[Any] | None = None) -> dict[str, Any]:
        steps = tuple(steps)
        record = made(result, steps, outcome)
        assert same(record, _whole(result, steps, outcome)), record
        seen.append(len(record["explanation"]))
        return record

    monkeypatch.setattr(campaign_commands, "_record", compared)
    scenario = load_scenario(path)
    store = open_store("memory://")
    try:
        play_scenario_into(Campaign.create(store, "evening", scenario.system, seed=7), scenario)
    finally:
        store.close()
    assert len(seen) >= 3 and sum(seen) > 0
