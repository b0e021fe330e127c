"""How players count check ids (``campaign.reading.PlayerTimeline``): a number they were shown
turns back into the table's own, and a hidden one is never the answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.campaign.reading import PlayerTimeline


@given(hidden=st.sets(st.integers(1, 300), max_size=250), counted=st.integers(0, 120))
def test_a_counted_id_turns_back_into_the_one_it_counts(hidden: set[int], counted: int) -> None:
    timeline = PlayerTimeline(hidden_checks=tuple(sorted(hidden)))
    shown = [i for i in range(1, 700) if i not in hidden]
    actual = timeline.actual_check(counted)
    if counted == 0:
        assert actual == 0
        return
    assert actual == shown[counted - 1]  # the counted-th id players were shown
    assert timeline.shows_check(actual)
    assert timeline.check_id(actual) == counted
