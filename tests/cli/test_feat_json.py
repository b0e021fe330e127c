"""``feat ... --json`` echoes the parameters it used as JSON values, typed and defaulted."""

from __future__ import annotations

import json

import pytest

from rulekeeper.cli.calc_commands import feat_command


def test_feat_json_echoes_typed_defaulted_params(capsys: pytest.CaptureFixture[str]) -> None:
    feat_command("gurps", "jump", ["--basic-move", "6"], as_json=True)
    out = json.loads(capsys.readouterr().out)
    # Text from the command line comes back as a number, and the omitted ones as their defaults.
    assert out["params"] == {"basic_move": 6, "kind": "high", "running_yards": 0}
