"""Sweeps: --vary axes, the grid they span, and win probabilities per cell."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.sim import bundled, sweep
from rulekeeper.sim.encounter import read_encounter
from rulekeeper.sim.vary import parse_vary, with_values


def test_parse_ranges_and_lists() -> None:
    assert parse_vary("enemies.ogre.count=1..4").values == (1, 2, 3, 4)
    assert parse_vary("tactics.heroes.defense=dodge,parry").values == ("dodge", "parry")
    for bad in ("count", "a.b=", "a.b=4..1", "a..b=1..2", "a.b=x..3"):
        with pytest.raises(InputError):
            parse_vary(bad)


def test_values_land_on_member_count_sheet_override_and_top_level_keys() -> None:
    doc = read_encounter(bundled("gurps-skirmish"))
    axes = [
        parse_vary("orcs.orc.count=2..3"),
        parse_vary("party.brakka.skills.broadsword=10..11"),
        parse_vary("stop.rounds=5,6"),
    ]
    out = with_values(doc, axes, (2, 11, 6))
    assert out["sides"]["orcs"]["orc"]["count"] == 2
    assert out["sides"]["party"]["brakka"]["skills"]["broadsword"] == 11
    assert out["stop"]["rounds"] == 6
    assert doc["sides"]["orcs"]["orc"]["count"] == 3  # the original is untouched
    with pytest.raises(InputError, match="no member"):
        with_values(doc, [parse_vary("orcs.troll.count=1..2")], (1,))
    with pytest.raises(InputError, match="starts with no side"):
        with_values(doc, [parse_vary("wizards.x.count=1..2")], (1,))


def test_two_axis_sweep_reports_every_cell_and_skill_raises_the_odds() -> None:
    result = sweep(
        bundled("gurps-duel"), ["heroes.brakka.skills.broadsword=9,18", "stop.rounds=30,40"], 150, seed=3, workers=0
    )
    data = result.to_json()
    assert [c["values"] for c in data["cells"]] == [
        {"heroes.brakka.skills.broadsword": 9, "stop.rounds": 30},
        {"heroes.brakka.skills.broadsword": 9, "stop.rounds": 40},
        {"heroes.brakka.skills.broadsword": 18, "stop.rounds": 30},
        {"heroes.brakka.skills.broadsword": 18, "stop.rounds": 40},
    ]
    wins = [c["sides"]["heroes"]["value"] for c in data["cells"]]
    assert min(wins[2:]) > max(wins[:2])
    assert all(c["runs"] == 150 for c in data["cells"])


def test_more_orcs_is_worse_for_the_party() -> None:
    result = sweep(bundled("gurps-skirmish"), ["orcs.orc.count=1,5"], 60, seed=1, workers=0)
    (one, r1), (five, r5) = result.cells
    assert one == (1,) and five == (5,)
    assert r1.tally.win("party").low > r5.tally.win("party").high


def test_results_plot_themselves_for_notebooks() -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    one = sweep(bundled("gurps-ogres"), ["enemies.ogre.count=1..3"], 30, seed=1, workers=0)
    fig = one.plot()
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert len(ax.get_lines()) == len(one.sides)  # one win curve per side, over the counts
    two = sweep(
        bundled("gurps-ogres"),
        ["enemies.ogre.count=1..2", "heroes.brakka.skills.broadsword=10,16"],
        30,
        seed=1,
        workers=0,
    )
    heat = two.plot()
    assert len(heat.axes) == 2  # the heatmap and its colour bar
    assert heat.axes[0].images[0].get_array().shape == (2, 2)
