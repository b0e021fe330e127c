"""Every bundled encounter fights end to end, in all four systems, and reads like the fight it is."""

from __future__ import annotations

import pytest

from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import InputError
from rulekeeper.sim import build_encounter, bundled, bundled_names, fight, load_document, simulate
from rulekeeper.sim.encounter import read_encounter
from rulekeeper.sim.status import STATUSES

SYSTEMS = {
    "gurps-duel": "gurps",
    "gurps-skirmish": "gurps",
    "wg-ambush": "wrath-and-glory",
    "gm-bandits": "gods-and-monsters",
    "kup-wolves": "vi-viii-x",
}


def test_one_bundled_encounter_per_system_at_least() -> None:
    assert set(SYSTEMS) <= set(bundled_names())
    assert {load_document(bundled(n)).system for n in SYSTEMS} == set(SYSTEMS.values())


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_bundled_encounter_runs_end_to_end(name: str) -> None:
    result = simulate(bundled(name), 120, seed=2, workers=0)
    data = result.to_json()
    assert data["runs"] == 120 and data["system"] == SYSTEMS[name] and not data["partial"]
    assert sum(s["value"] for s in data["sides"].values()) == pytest.approx(1.0, abs=1e-4)
    for fid, char in data["characters"].items():
        assert sum(char[st]["value"] for st in STATUSES) == pytest.approx(1.0, abs=1e-4), fid
        assert all(char[st]["low"] <= char[st]["value"] <= char[st]["high"] for st in STATUSES)
        assert sum(e["value"] for e in char["health"]["distribution"].values()) == pytest.approx(1.0, abs=1e-4)
    assert sum(data["rounds"]["histogram"].values()) == 120
    # Someone gets hurt in every one of these fights, and both sides can win.
    assert all(data["sides"][side]["value"] > 0 for side in result.sides), data["sides"]


def test_the_skirmish_is_four_against_three() -> None:
    enc = load_document(bundled("gurps-skirmish"))
    sides = [f.side for f in enc.fighters]
    assert sides.count("party") == 4 and sides.count("orcs") == 3
    assert [f.id for f in enc.fighters if f.side == "orcs"] == ["orc-1", "orc-2", "orc-3"]


@pytest.mark.parametrize("name", sorted(SYSTEMS))
def test_the_quiet_engine_path_fights_exactly_like_the_explained_one(name: str) -> None:
    enc = load_document(bundled(name))
    quiet, loud = SeededSource(17), SeededSource(17)
    for _ in range(25):
        assert fight(enc, quiet) == fight(enc, loud, explain=True)


def test_a_stronger_swordsman_wins_more_often() -> None:
    doc = read_encounter(bundled("gurps-duel"))
    doc["sides"]["heroes"]["brakka"]["skills"] = {"broadsword": 18}
    strong = simulate(doc, 300, seed=1, workers=0).tally.win("heroes")
    doc["sides"]["heroes"]["brakka"]["skills"] = {"broadsword": 9}
    weak = simulate(doc, 300, seed=1, workers=0).tally.win("heroes")
    assert strong.low > weak.high


def test_fight_to_n_rounds_stops_there() -> None:
    doc = read_encounter(bundled("gurps-duel"))
    doc["stop"] = {"until": "rounds", "rounds": 2}
    result = simulate(doc, 60, seed=1, workers=0)
    assert set(result.tally.rounds) == {2}


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"format": 2}, "format: 1"),
        ({"system": "chess"}, "system"),
        ({"sides": {"only": {"a": {}}}}, "at least two sides"),
        ({"stop": {"rounds": 0}}, "stop.rounds"),
        ({"tactics": {"heroes": {"defense": "duck"}}}, "tactics.heroes.defense"),
        ({"tactics": {"heroes": {"target": "nobody"}}}, "not a foe"),
        ({"tactics": {"ghosts": {}}}, "unknown side or member"),
        ({"tactics": {"heroes": {"all_out_attack": "sometimes"}}}, "outnumbering"),
    ],
)
def test_bad_encounters_say_what_is_wrong(change: dict[str, object], fragment: str) -> None:
    doc = {**read_encounter(bundled("gurps-duel")), **change}
    with pytest.raises(InputError, match=None) as err:
        build_encounter(doc)
    assert fragment in str(err.value)


def test_damage_is_required_outside_gurps() -> None:
    doc = read_encounter(bundled("wg-ambush"))
    del doc["tactics"]["cultists"]["damage"]
    with pytest.raises(InputError, match="no damage"):
        build_encounter(doc)


def test_the_example_in_the_docs_is_a_valid_encounter() -> None:
    from pathlib import Path

    import yaml

    text = (Path(__file__).resolve().parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    section = text.split("## Encounters", 1)[1]
    example = yaml.safe_load(section.split("```yaml\n", 1)[1].split("```", 1)[0])
    result = simulate(example, 30, seed=1, workers=0)
    assert [fid for fid, _ in result.fighters] == ["brakka", "ogre-1", "ogre-2"]
    assert result.runs == 30
