from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core import ParamSpec, format_duration, parse_duration, validate_params
from rulekeeper.errors import InputError


@pytest.mark.parametrize(
    ("text", "seconds"), [("30s", 30), ("10m", 600), ("8h", 28800), ("3d", 259200), ("1h30m", 5400), ("2 w", 1209600)]
)
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "10", "m10", "10x", "1h30", "-5m"])
def test_malformed_durations_name_the_form(text: str) -> None:
    with pytest.raises(InputError, match="expected a duration"):
        parse_duration(text)


def test_rounds_need_a_round_length() -> None:
    assert parse_duration("3 rounds", round_seconds=10) == 30
    with pytest.raises(InputError):
        parse_duration("3 rounds")


@given(st.integers(0, 10**8))
def test_format_round_trips(seconds: int) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


def test_params_coerce_and_refuse() -> None:
    specs = (
        ParamSpec("amount", "int", required=True, minimum=0),
        ParamSpec("kind", "choice", choices=("cr", "cut")),
        ParamSpec("archetypal", "bool", default=False),
    )
    assert validate_params(specs, {"amount": "5", "kind": "CUT"}, "t") == {
        "amount": 5,
        "kind": "cut",
        "archetypal": False,
    }
    with pytest.raises(InputError, match="out of range"):
        validate_params(specs, {"amount": -3}, "t")
    with pytest.raises(InputError, match="unknown parameter"):
        validate_params(specs, {"amount": 1, "colour": "red"}, "t")
    with pytest.raises(InputError, match="missing parameter"):
        validate_params(specs, {}, "t")
    with pytest.raises(InputError, match="one of cr, cut"):
        validate_params(specs, {"amount": 1, "kind": "imp"}, "t")


def test_unknown_unit_is_named_at_its_position() -> None:
    with pytest.raises(InputError, match=r"unknown time unit 'x' in '10x' at position 3"):
        parse_duration("10x")


def test_absurd_durations_are_refused() -> None:
    with pytest.raises(InputError, match="over 100 years"):
        parse_duration("99999999999d")
