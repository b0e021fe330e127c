"""``evolve`` gives exactly what ``dataclasses.replace`` gives, and defers to it where a copy could differ."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field

import pytest

from rulekeeper.core import get_ruleset
from rulekeeper.core.engine import add_character
from rulekeeper.core.frozen import evolve
from rulekeeper.core.state import Condition


@dataclass(frozen=True)
class _Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclass(frozen=True, slots=True)
class _Slotted:
    a: int
    b: int = 0


@dataclass(frozen=True)
class _Counted:
    a: int
    n: int = field(default=0, init=False)


@dataclass(frozen=True)
class _Cached:
    a: int

    @functools.cached_property
    def double(self) -> int:
        return 2 * self.a


def test_a_copy_equals_replace_and_leaves_the_original_alone() -> None:
    old = _Plain(1, (2,), {"x": 3})
    new = evolve(old, a=5)
    assert new == dataclasses.replace(old, a=5) == _Plain(5, (2,), {"x": 3})
    assert old == _Plain(1, (2,), {"x": 3}) and type(new) is _Plain
    assert new.c is old.c  # unchanged fields are shared, as replace shares them
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.a = 1  # type: ignore[misc]


def test_game_state_and_a_gurps_character() -> None:
    ruleset = get_ruleset("gurps")
    state = add_character(ruleset, ruleset.new_state(), "x", {"hp": 10})
    cond = Condition(id=1, name="stunned", actor="x", since=0)
    assert evolve(state, next_id=9, conditions=(cond,)) == dataclasses.replace(state, next_id=9, conditions=(cond,))
    char = state.characters["x"]
    assert evolve(char, current_hp=-3) == dataclasses.replace(char, current_hp=-3)
    assert evolve(char, current_hp=-3).reeling


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(TypeError):
        evolve(_Plain(1), z=2)


def test_post_init_still_runs() -> None:
    with pytest.raises(ValueError, match="negative"):
        evolve(_Checked(1), a=-1)


def test_slots_init_false_fields_and_cached_properties_go_through_replace() -> None:
    assert evolve(_Slotted(1, 2), b=3) == _Slotted(1, 3)
    counted = _Counted(1)
    object.__setattr__(counted, "n", 7)
    assert evolve(counted, a=2).n == 0  # replace resets a field __init__ does not take
    cached = _Cached(2)
    assert cached.double == 4
    assert evolve(cached, a=5).double == 10  # not the old object's cached 4
