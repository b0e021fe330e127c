"""The table commands served without Typer read and do exactly what their Typer commands do.

The grammars in ``cli/table_commands.py`` and ``cli/grammar.py`` are held against the Typer
definitions, the quick path's answers against Typer's for the same command lines, and what
it loads against what it must not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main

from rulekeeper.cli.action_grammar import action_params
from rulekeeper.cli.app import app, register_system_actions
from rulekeeper.cli.grammar import BUILTIN_COMMANDS, ROOT_ENVVARS, ROOT_OPTIONS, Param, read_args, split_root
from rulekeeper.cli.table_commands import GRAMMAR
from rulekeeper.core import get_ruleset, system_names
from support.cli_table import Table

_TYPES = {"str": "str", "int": "int", "float": "float", "flag": "boolean", "switch": "boolean"}


def _described(param: Any) -> dict[str, Any]:
    """What a Click parameter (Typer's own copy of Click) takes, in the terms of :class:`Param`."""
    if param.param_type_name == "argument":
        return {"dest": param.name, "flags": (), "type": param.type.name, "required": param.required}
    assert not param.multiple and param.nargs == 1, param.name
    return {
        "dest": param.name,
        "flags": tuple(param.opts),
        "off": tuple(param.secondary_opts),
        "type": param.type.name,
        "default": param.default,
    }


def _declared(p: Param) -> dict[str, Any]:
    if not p.flags:
        return {"dest": p.dest, "flags": (), "type": _TYPES[p.kind], "required": p.required}
    return {"dest": p.dest, "flags": p.flags, "off": p.off_flags, "type": _TYPES[p.kind], "default": p.default}


def _commands() -> dict[str, Any]:
    commands: dict[str, Any] = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    return commands


def _typer_params(command: Any) -> list[dict[str, Any]]:
    return [_described(p) for p in command.params]


def test_each_quick_grammar_is_its_typer_command() -> None:
    commands = _commands()
    for name, (_, params) in GRAMMAR.items():
        assert _typer_params(commands[name]) == [_declared(p) for p in params], name
        for p, typer_param in zip(params, commands[name].params, strict=True):
            if not p.flags:  # what the handler gets when an optional argument is left out
                assert p.default == typer_param.default, name


def test_the_global_options_are_the_root_callbacks() -> None:
    group = typer.main.get_command(app)
    root = [p for p in group.params if p.name not in ("install_completion", "show_completion")]
    assert [_described(p) for p in root] == [_declared(p) for p in ROOT_OPTIONS]
    assert {p.name: p.envvar for p in root if p.envvar} == ROOT_ENVVARS


def test_the_builtin_commands_are_the_typer_apps_own() -> None:
    from rulekeeper.cli.app import _ACTION_NAMES

    assert set(_commands()) - _ACTION_NAMES == BUILTIN_COMMANDS


@pytest.mark.parametrize("system", system_names())
def test_action_grammars_are_the_typer_action_commands(system: str) -> None:
    register_system_actions(system)
    commands = _commands()
    specs = [s for s in get_ruleset(system).actions().values() if s.name not in BUILTIN_COMMANDS]
    for spec in specs:
        assert _typer_params(commands[spec.name]) == [_declared(p) for p in action_params(spec)], spec.name


LOG = GRAMMAR["log"][1]


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--"],
        ["--characterx", "a"],
        ["--char"],  # no value
        ["--since", "--json"],  # Click would take "--json" as the value: left to it
        ["--json=yes"],
        ["extra"],
        ["-x"],
    ],
)
def test_anything_unusual_is_left_to_typer(args: list[str]) -> None:
    assert read_args(LOG, args) is None


def test_plain_forms_read_as_click_reads_them() -> None:
    values = read_args(LOG, ["--char", "wolf", "--since=1h", "--json", "--brief", "--as-player", "ana"])
    assert values == {
        "character": "wolf",
        "since": "1h",
        "until": None,
        "explain": False,
        "brief": True,
        "show_all": False,
        "as_player": "ana",
        "as_json": True,
    }
    undo = GRAMMAR["undo"][1]
    assert read_args(undo, ["3", "-y"]) == {"seq": 3, "yes": True, "as_json": False, "explain": False}
    assert read_args(undo, ["-3"]) is None  # Click reads an option there
    assert read_args(undo, ["３"]) is None  # Click's int() takes other digits; Click it is
    assert read_args(GRAMMAR["resolve"][1], ["--auto"]) is None  # the required id is missing
    switch = Param("in_combat", "--in-combat", kind="switch", off_flags=("--no-in-combat",))
    amount = Param("amount", "--amount", kind="int")
    assert read_args((switch, amount), ["--amount", "-2", "--in-combat", "--no-in-combat"]) == {
        "in_combat": False,
        "amount": -2,
    }


def test_the_root_splits_off_global_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULEKEEPER_DB", raising=False)
    monkeypatch.setenv("RULEKEEPER_CAMPAIGN", "")  # empty counts as unset, as in Click
    assert split_root(["--db", "x.db", "-c", "friday", "--explain", "log", "--all"]) == (
        {"db": "x.db", "campaign": "friday", "explain": True},
        "log",
        ["--all"],
    )
    monkeypatch.setenv("RULEKEEPER_DB", "env.db")
    assert split_root(["pending"]) == ({"db": "env.db", "campaign": None, "explain": False}, "pending", [])
    assert split_root(["-cfriday", "pending"]) is None  # a short option with its value attached
    assert split_root(["--json", "pending"]) is None
    assert split_root(["--explain"]) is None


_BOTH = """
import sys
from rulekeeper.cli.{module} import {function}
code = {function}({args!r})
sys.stdout.flush()
print("\\nEXIT=" + str(code))
print("TYPER=" + str("typer" in sys.modules))
"""


def _through(table: Table, module: str, function: str, args: list[str]) -> tuple[str, str, bool]:
    proc = subprocess.run(
        [sys.executable, "-c", _BOTH.format(module=module, function=function, args=args)],
        capture_output=True,
        text=True,
        env=table.env,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    body, _, typer_line = proc.stdout.rpartition("TYPER=")
    return body, proc.stderr, typer_line.strip() == "True"


@pytest.fixture(scope="module")
def gurps_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    table = Table(tmp_path_factory.mktemp("quick"))
    table.run("campaign", "new", "quick", "--system", "gurps", "--seed", "3")
    table.run("char", "add", "ingrid", "--set", "st=11", "--set", "ht=12")
    table.run("char", "add", "orc", "--npc")
    table.run("campaign", "settings", "-a", "gurps=prompt")
    for _ in range(4):
        table.run("damage", "ingrid", "--amount", "6")
    table.run("undo")
    return table


@pytest.mark.parametrize(
    "args",
    [
        ["pending"],
        ["pending", "--json"],
        ["status"],
        ["status", "--json"],
        ["log"],
        ["log", "--all", "--explain"],
        ["--explain", "log", "--char", "INGRID"],
        ["log", "--brief", "--since=0s", "--until", "1s"],
        ["log", "--json"],
        ["damage", "ingrid", "--amount", "0"],
        ["damage", "Ingrid", "--amount", "0", "--json"],
        ["damage", "nobody", "--amount", "1"],
        ["round", "0"],
        ["advance", "soon"],
        ["resolve", "99", "--auto"],
        ["-c", "nowhere", "pending"],
        ["undo", "1", "--json"],
    ],
)
def test_the_quick_path_answers_as_typer_does(gurps_table: Table, args: list[str]) -> None:
    quick = _through(gurps_table, "main", "main", args)
    typer_answer = _through(gurps_table, "app", "run_app", args)
    assert quick[:2] == typer_answer[:2]
    assert not quick[2], "the quick path loaded Typer"


def test_help_and_unknown_words_still_go_through_typer(gurps_table: Table) -> None:
    for args in (
        ["pending", "--help"],
        ["damage", "--help"],
        ["dammage", "ingrid"],
        ["log", "--nope"],
        ["damage", "ingrid", "--amount", "many"],
        ["-c", "nowhere", "damage", "ingrid"],
    ):
        quick = _through(gurps_table, "main", "main", args)
        assert quick[2], args
        assert quick[:2] == _through(gurps_table, "app", "run_app", args)[:2]


_LOADED = """
import sys
from rulekeeper.cli.main import main
main({args!r})
sys.stdout.flush()
print("\\nMODULES=" + ",".join(sorted(sys.modules)))
"""

# Nothing a GURPS table command needs: the Typer and Rich front end, the web, migrations, the
# SQL toolkit, pydantic, the other systems, GURPS's feats and its GCS importer.
NOT_FOR_A_GURPS_COMMAND = (
    "typer",
    "click",
    "rich",
    "prompt_toolkit",
    "pydantic",
    "sqlalchemy",
    "alembic",
    "fastapi",
    "numpy",
    "icepool",
    "lark",
    "rulekeeper.systems.gods_monsters",
    "rulekeeper.systems.wrath_glory",
    "rulekeeper.systems.vi_viii_x",
    "rulekeeper.systems.gurps.feats",
    "rulekeeper.systems.gurps.gcs",
    "rulekeeper.store.sql",
    "rulekeeper.store.migrate",
)


@pytest.mark.parametrize(
    "args", [["pending"], ["status"], ["log"], ["damage", "ingrid", "--amount", "0"], ["round", "--json"]]
)
def test_a_gurps_table_command_loads_only_what_it_needs(gurps_table: Table, args: list[str]) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _LOADED.format(args=args)], capture_output=True, text=True, env=gurps_table.env
    )
    assert "Traceback" not in out.stderr, out.stderr
    modules = out.stdout.rpartition("MODULES=")[2].strip().split(",")
    loaded = [m for m in modules if any(m == n or m.startswith(n + ".") for n in NOT_FOR_A_GURPS_COMMAND)]
    assert loaded == [], (args, loaded)


def test_a_closed_pipe_ends_quietly(gurps_table: Table, tmp_path: Path) -> None:
    for command in (["log", "--all"], ["status"]):
        proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "rulekeeper"), *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=gurps_table.env,
        )
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader has gone before anything was written
        err = proc.stderr.read().decode()
        proc.wait(timeout=60)
        assert "Traceback" not in err and "Exception ignored" not in err, err
