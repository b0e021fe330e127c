"""GCS as the GURPS ruleset's sheet format: every vendored file written back with the table's HP
and FP damage reads back with the same current HP and FP, and is otherwise the player's file."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tests.systems.gurps.gcs_library import FILES, file_id, load

from rulekeeper.core import get_ruleset
from rulekeeper.core.sheet_format import sheet_format
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps import new_character

GCS = sheet_format(get_ruleset("gurps"), "gcs", writing=True)


def _without_pool_damage(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    for entry in out["attributes"]:
        if entry["attr_id"] in ("hp", "fp"):
            entry.pop("damage", None)
            if isinstance(entry.get("calc"), dict):
                entry["calc"].pop("current", None)
    return out


@pytest.mark.parametrize("path", FILES, ids=file_id)
def test_written_back_and_read_again(path: Path) -> None:
    original = load(file_id(path))
    char = new_character(GCS.read(original, {}, "").sheet)
    # the night's damage: a third of each pool lost (none where the pool is 0)
    played = replace(char, current_hp=char.hp - char.hp // 3, current_fp=char.fp - char.fp // 3)
    assert GCS.write is not None
    written = GCS.write(original, played)
    assert _without_pool_damage(written) == _without_pool_damage(original)
    again = new_character(GCS.read(written, {}, "").sheet)
    assert (again.current_hp, again.current_fp) == (played.current_hp, played.current_fp)
    healed = GCS.write(written, char)  # back to full: GCS leaves the damage out
    assert all("damage" not in a for a in healed["attributes"] if a["attr_id"] in ("hp", "fp"))


def test_a_system_without_the_format_is_refused_by_name() -> None:
    with pytest.raises(InputError, match="reads no gcs files"):
        sheet_format(get_ruleset("wg"), "gcs")
