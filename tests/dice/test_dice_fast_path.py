"""The lark-free reading of simple notation agrees with the grammar on every input it accepts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.dice.notation import DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES, _parse_simple, _parse_with_grammar

simple_notation = st.builds(
    lambda count, d, sides, tail: f"{count}{d}{sides}{tail}",
    st.sampled_from(["", "1", "3", "10", "999", "1000", "1001"]),
    st.sampled_from(["d", "D"]),
    st.sampled_from(["", "6", "20", "%", "100", "1000000", "1000001", "0"]),
    st.sampled_from(["", "+1", "-3", "+0", "-12"]),
)


@given(simple_notation)
def test_fast_path_matches_grammar(text: str) -> None:
    fast = _parse_simple(text, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES)
    if fast is None:
        return  # left to the grammar, which gives the error or the general reading
    assert fast == _parse_with_grammar(text, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES)
    assert str(fast) == str(_parse_with_grammar(text, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES))


def test_fast_path_covers_the_common_forms() -> None:
    for text in ("3d6", "d20", "2d+1", "1d-3", "3d", "d%"):
        assert _parse_simple(text, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES) is not None
    for text in ("3d6+", "4d6kh3", "2d6+1d4", "3 d6", "99999d6"):
        assert _parse_simple(text, DEFAULT_MAX_DICE, DEFAULT_MAX_SIDES) is None
