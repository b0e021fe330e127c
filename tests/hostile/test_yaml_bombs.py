"""YAML alias bombs through every entry that reads YAML: refused with exit 2, in bounded memory,
with nothing written. Before the bounded loader, the 369-character ``--set`` value alone grew past
2.6 GB."""

from __future__ import annotations

from pathlib import Path

from hostile_run import Db, alias_bomb, assert_refused, flow_bomb

from rulekeeper.limits import MAX_NESTING


def test_the_bomb_is_small_and_would_be_huge() -> None:
    assert len(flow_bomb()) < 600
    assert 9**9 > 300_000_000  # nodes once expanded


def test_set_value(db: Db) -> None:
    before = db.rows()
    run = db.run("char", "add", "ana", "--set", "archetype=warrior", "--set", f"notes={flow_bomb()}")
    assert_refused(run, fragment="expands to more than")
    assert db.rows() == before


def test_char_edit_set_value(db: Db) -> None:
    before = db.versions()
    assert_refused(db.run("char", "edit", "toromeen", "--set", f"notes={flow_bomb()}"), fragment="expands to more")
    assert db.versions() == before


def test_sheet_file(db: Db, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.yaml"
    sheet.write_text("archetype: warrior\nlevel: 2\n" + alias_bomb())
    before = db.rows()
    assert_refused(db.run("char", "add", "ana", "--sheet", str(sheet)), fragment="expands to more than")
    assert db.rows() == before


def test_campaign_import(db: Db, tmp_path: Path) -> None:
    document = tmp_path / "campaign.yaml"
    document.write_text("format: rulekeeper-campaign\nversion: 1\n" + alias_bomb())
    before = db.rows()
    assert_refused(db.run("campaign", "import", str(document), "--name", "bomb"), fragment="expands to more")
    assert db.rows() == before


def test_campaign_import_from_stdin(db: Db) -> None:
    before = db.rows()
    assert_refused(db.run("campaign", "import", "-", "--name", "bomb", stdin=alias_bomb()), fragment="expands to")
    assert db.rows() == before


def test_campaign_settings_option(db: Db) -> None:
    before = db.versions()
    assert_refused(db.run("campaign", "settings", "-o", f"round_seconds={flow_bomb()}"), fragment="expands to more")
    assert db.versions() == before


def test_scenario_file(db: Db, tmp_path: Path) -> None:
    scenario = tmp_path / "bomb.yaml"
    scenario.write_text("format: 1\nsystem: gm\ntitle: bomb\ndescription: &d x\n" + alias_bomb().replace("a0:", "x0:"))
    run = db.run("scenario", "run", str(scenario))
    assert run.code == 2 and "Traceback" not in run.stderr, run.stderr
    assert "expands to more than" in run.stderr


def test_deep_nesting_in_json_and_yaml(db: Db, tmp_path: Path) -> None:
    deep_json = tmp_path / "deep.json"
    deep_json.write_text('{"a": ' + "[" * 50_000 + "]" * 50_000 + "}")
    deep_yaml = tmp_path / "deep.yaml"
    deep_yaml.write_text("a: " + "[" * 50_000 + "]" * 50_000 + "\n")
    before = db.rows()
    # 50,000 levels may be refused by our walk or first by the YAML library's own limit (PyYAML
    # 6.0.4's libyaml stops at 1,000): either way the person reads one line naming the nesting.
    assert_refused(db.run("campaign", "import", str(deep_json)), fragment="nest")
    assert_refused(db.run("char", "add", "ana", "--sheet", str(deep_yaml)), fragment="nest")
    assert db.rows() == before


def test_nesting_past_our_limit_is_refused_in_our_words(db: Db, tmp_path: Path) -> None:
    # Deeper than MAX_NESTING (64) yet far inside any YAML library's own limit, so the refusal is ours.
    deep_yaml = tmp_path / "deep.yaml"
    deep_yaml.write_text("a: " + "[" * (MAX_NESTING + 10) + "]" * (MAX_NESTING + 10) + "\n")
    before = db.rows()
    assert_refused(db.run("char", "add", "ana", "--sheet", str(deep_yaml)), fragment=f"{MAX_NESTING} levels deep")
    assert db.rows() == before


def test_oversized_documents_are_refused_before_reading(db: Db, tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("notes: " + "x" * (2 << 20) + "\n")
    before = db.rows()
    assert_refused(db.run("char", "add", "ana", "--sheet", str(big)), fragment="over the limit")
    assert_refused(db.run("char", "add", "ana", "--set", "notes=" + "x" * 20_000), fragment="over the limit")
    assert db.rows() == before


def test_huge_scenario_is_refused_fast(db: Db, tmp_path: Path) -> None:
    # The review's 11 MB file with 200,000 steps took 97 s and 1.4 GB.
    steps = "".join("  - advance: 1s\n" for _ in range(200_000))
    big = tmp_path / "huge.yaml"
    big.write_text("format: 1\nsystem: gm\nsteps:\n" + steps)
    run = db.run("scenario", "run", str(big))
    assert run.code == 2 and "over the limit" in run.stderr, run.stderr
    many = tmp_path / "many.yaml"
    many.write_text("format: 1\nsystem: gm\nsteps:\n" + "".join("  - round: 1\n" for _ in range(6_000)))
    run = db.run("scenario", "run", str(many))
    assert run.code == 2 and "6,000 steps, over the limit of 5,000" in run.stderr, run.stderr
