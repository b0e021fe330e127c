"""``rulekeeper demo``: one real campaign per system, each playing a short scene from a scenario file."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import console, emit_json

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, CommandResult
    from rulekeeper.cli.context import Context
    from rulekeeper.scenario import Scenario, ScenarioStep

__all__ = ["play_scenario_into", "run_demo"]


def play_scenario_into(
    campaign: Campaign, scenario: Scenario, on_result: Callable[[str, CommandResult], None] | None = None
) -> list[tuple[str, CommandResult]]:
    """Apply a scenario's steps as campaign commands (expectations are for tests, not for play).

    ``on_result`` sees each command as soon as it is applied, while the campaign's clock is
    still the clock of that command.
    """
    played: list[tuple[str, CommandResult]] = []

    def keep(title: str, result: CommandResult) -> None:
        played.append((title, result))
        if on_result is not None:
            on_result(title, result)

    for actor, sheet in scenario.characters.items():
        keep(f"add {actor}", campaign.add_character(actor, sheet))
    for step in scenario.steps:
        if "expect_error" in step.data or step.kind == "expect":
            continue
        keep(*_play_step(campaign, step))
    return played


def _play_step(campaign: Campaign, step: ScenarioStep) -> tuple[str, CommandResult]:
    from rulekeeper.core import Action, parse_duration

    data = step.data
    dice = data.get("dice")
    if step.kind == "action":
        action = Action(name=data["action"], actor=data.get("actor"), params=data.get("params") or {})
        args = " ".join(f"{k}={v}" for k, v in (data.get("params") or {}).items())
        return f"{action.name} {action.actor or ''} {args}".strip(), campaign.act(action, dice=dice)
    if step.kind == "resolve":
        target = data["resolve"]
        if target == "last":
            target = campaign.pending()[-1].id
        return f"resolve check #{target}", campaign.resolve(int(target), dice)
    if step.kind == "round":
        result = campaign.next_round()
        for _ in range((data.get("round") or 1) - 1):
            result = campaign.next_round()
        return "next round", result
    seconds = parse_duration(str(data["advance"]), round_seconds=campaign.ruleset.round_seconds)
    return f"advance {data['advance']}", campaign.advance(seconds)


def run_demo(context: Context, *, as_json: bool) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.cli.context import remember_selection
    from rulekeeper.cli.play_commands import result_json, show_result
    from rulekeeper.cli.render import wrap
    from rulekeeper.demo import ALSO_TRY, IN_USE, demo_files
    from rulekeeper.scenario import load_scenario

    store = context.store()
    existing = {info.name for info in store.list_campaigns()}
    report: list[dict[str, Any]] = []
    out = console()
    last: Campaign | None = None
    for path in demo_files():
        scenario = load_scenario(path)
        name = f"demo-{scenario.system}"
        if name in existing:
            store.delete_campaign(name)
        campaign = Campaign.create(store, name, scenario.system, seed=7, settings=scenario.settings)
        if not as_json:
            out.rule(f"[bold]{name}[/bold]")
            for line in wrap(scenario.title, indent="", hanging=""):
                out.print(line, style="italic", highlight=False)

        def show(title: str, result: CommandResult, campaign: Campaign = campaign) -> None:
            if not as_json:
                show_result(campaign, result, title, as_json=False, explain=context.explain)

        played = play_scenario_into(campaign, scenario, show)
        report.append(
            {
                "campaign": name,
                "system": campaign.system,
                "title": scenario.title,
                "commands": [result_json(campaign, r) for _, r in played],
            }
        )
        last = campaign
    if last is not None:
        chosen = next((c for c in report if c["system"] == IN_USE), report[-1])
        remember_selection(context.db_key(), chosen["campaign"], chosen["system"])
    if as_json:
        emit_json({"campaigns": report})
        return
    out.rule()
    command = _installed_command()
    # The path stays on one line, however long, so it can be copied.
    out.print(f"Demo campaigns are saved in:\n  {_where(store.url)}", highlight=False, soft_wrap=True)
    out.print(
        f"Run rulekeeper as {command}"
        + ("" if command == "rulekeeper" else "\n  (or activate the venv first: source .venv/bin/activate)")
        + "\nNow try:\n"
        f"  rulekeeper play                       (demo-{IN_USE} is in use)\n"
        "  rulekeeper status\n"
        "  rulekeeper log --brief\n"
        "  rulekeeper undo    then    rulekeeper redo\n"
        f"  rulekeeper campaign use demo-{ALSO_TRY} && rulekeeper advance 1h\n"
        "  rulekeeper --help",
        highlight=False,
        soft_wrap=False,
    )


def _installed_command() -> str:
    """How this shell reaches the rulekeeper that is running: bare if it is on PATH, else its path."""
    import os
    import shutil
    import sys
    from pathlib import Path

    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    found = shutil.which("rulekeeper")
    if script is not None and found is not None and Path(found).resolve() == script:
        return "rulekeeper"
    if script is not None and script.name == "rulekeeper":
        try:
            return os.path.relpath(script)
        except ValueError:
            return str(script)
    return "rulekeeper"


def _where(url: str) -> str:
    return url.removeprefix("sqlite:///")
