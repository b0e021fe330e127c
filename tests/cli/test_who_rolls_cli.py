"""Who rolls, by whose character, at the terminal (issue #27 item 2): set with `campaign settings -o`,
said plainly by the settings display and by `status`."""

from __future__ import annotations

from pathlib import Path

from support.cli_table import Table


def test_pcs_prompt_npcs_auto_from_the_terminal(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.run("campaign", "new", "who-night", "--system", "wg", "--seed", "3")
    t.run("char", "add", "ari", "--set", "tier=1", "--set", "toughness=3", "--set", "willpower=3", "--player", "ana")
    t.run("char", "add", "brute", "--set", "tier=1", "--set", "toughness=4", "--set", "willpower=2")
    t.run("campaign", "settings", "-a", "*=prompt", "-o", "npc_automation=*=auto")
    shown = t.run("campaign", "settings").stdout
    assert "wg.determination             prompt [auto]" in shown
    assert "who rolls: PCs *=prompt; NPCs *=auto" in shown
    assert t.json("campaign", "settings")["options"]["npc_automation"] == "*=auto"
    t.run("damage", "ari", "--amount", "14")
    t.run("damage", "brute", "--amount", "14")
    assert [p["actor"] for p in t.json("pending")["pending"]] == ["ari"]
    t.env["COLUMNS"] = "200"
    status = t.run("status").stdout
    assert "who rolls: PCs *=prompt; NPCs *=auto" in status
    assert t.json("status")["who_rolls"].startswith("who rolls: PCs *=prompt; NPCs *=auto")
    t.refused("campaign", "settings", "-o", "npc_automation=*=later", code=2, fragment="is not an automation level")
