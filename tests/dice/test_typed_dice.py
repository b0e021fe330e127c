"""Dice as a person types them (issue #27 item 4): one reader for the CLI, the API and the pages."""

from __future__ import annotations

import pytest

from rulekeeper.dice.typed import expected_dice_form, parse_typed_dice, typed_dice
from rulekeeper.errors import InputError


@pytest.mark.parametrize("text", ["4 4 4", "4,4,4", "4+4+4", " 4, 4 ,4 ", "4 + 4 + 4", "4\t4  4"])
def test_three_fours_however_they_are_written(text: str) -> None:
    assert parse_typed_dice(text) == [4, 4, 4]


def test_a_lone_number_is_one_value_for_the_check_to_judge() -> None:
    assert parse_typed_dice("12") == [12]  # a die, or a total where the check takes one


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("5-3-2", "'-' could mean more than one thing"),
        ("6.5.4", "'.' could mean more than one thing"),
        ("abc", "'a' is not a die value"),
        ("4,4,x", "'x' is not a die value"),
        ("4,,4", "',' is not a die value"),
        ("4,4,", "ends with a separator"),
        ("+4", "'+' is not a die value"),
        ("-4", "'-' could mean"),
        ("", "no dice were typed"),
        ("   ", "no dice were typed"),
    ],
)
def test_anything_ambiguous_is_refused_never_read_as_one_die(text: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_typed_dice(text, count=3)
    assert problem in caught.value.message
    assert caught.value.expected == expected_dice_form(3)
    assert caught.value.expected.startswith("3 die values separated by spaces, commas or +, such as 4 6 2")


def test_the_expected_form_names_how_many_dice() -> None:
    assert expected_dice_form(1).startswith("1 die value separated")
    assert "such as 4 6 2 5 3 1 4" in expected_dice_form(7)
    assert "4,6,2 or 4+6+2" in expected_dice_form()


def test_numbers_pass_through_and_nothing_stays_nothing() -> None:
    assert typed_dice([1, 2, 3]) == [1, 2, 3]
    assert typed_dice((6,)) == [6]
    assert typed_dice(None) is None
    assert typed_dice("1+2") == [1, 2]
