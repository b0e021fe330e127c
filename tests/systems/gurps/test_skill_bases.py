"""Each skill's controlling attribute (issue #25: shock on every DX- and IQ-based skill roll): a GCS
import carries it from the file, a hand-made sheet sets it with ``skill_bases``, and a bad one is
refused naming the attributes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from tests.systems.gurps.gcs_library import FILES, file_id, load

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.gcs import sheet_from_gcs
from rulekeeper.systems.gurps.sheet import new_character


def _skill_attributes(data: Mapping[str, Any]) -> dict[str, str]:
    """Every skill in the file with its attribute, as GCS writes it ("dx/a"), by lowercase name."""
    found: dict[str, str] = {}

    def walk(items: Any) -> None:
        for item in items or ():
            if "difficulty" in item and "/" in str(item["difficulty"]):
                found.setdefault(str(item.get("name", "")).strip().lower(), str(item["difficulty"]).split("/")[0])
            walk(item.get("children"))

    walk(data.get("skills"))
    return found


def test_a_gcs_import_gives_each_skill_its_attribute() -> None:
    checked = 0
    for path in FILES:
        data = load(file_id(path))
        sheet = sheet_from_gcs(data).sheet
        bases = sheet.get("skill_bases", {})
        wanted = _skill_attributes(data)
        for key, base in bases.items():
            assert key in sheet["skills"], f"{file_id(path)}: {key} has a base but no level"
            plain = key.split(" (")[0]
            if plain in wanted:
                assert base == wanted[plain].lower(), f"{file_id(path)}: {key}"
                checked += 1
        assert new_character(sheet).skill_bases == bases
    assert checked > 0, "no GCS file in the library had a skill to check"


def test_a_hand_made_sheet_sets_a_skill_base_and_the_seed_default_fills_in() -> None:
    char = new_character({"skills": {"stealth": 12, "climbing": 11}, "skill_bases": {"Stealth": "DX"}})
    assert char.skill_base("stealth") == "dx"
    assert char.skill_base("climbing") == "dx"  # seed 004's own default for Climbing
    assert char.skill_base("hiking") == "ht"
    assert char.skill_base("first aid") is None


@pytest.mark.parametrize(
    ("bases", "fragment"), [({"stealth": "luck"}, "one of st, dx, iq, ht, will, per"), ("dx", "mapping")]
)
def test_a_bad_skill_base_is_refused(bases: Any, fragment: str) -> None:
    with pytest.raises(InputError) as refused:
        new_character({"skills": {"stealth": 12}, "skill_bases": bases})
    assert fragment in str(refused.value)
