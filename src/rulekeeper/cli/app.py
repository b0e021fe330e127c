"""The Typer application: every command except the fast ``roll`` path lands here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer

from rulekeeper.cli import table_commands
from rulekeeper.cli.context import Context
from rulekeeper.cli.errors import report_error
from rulekeeper.cli.grammar import BUILTIN_COMMANDS
from rulekeeper.core.citation import SYSTEM_TITLES
from rulekeeper.core.ruleset import SYSTEMS

__all__ = ["app", "run_app"]

#: Help for an argument naming a game system, from the registry (house systems included).
SYSTEM_HELP = "A game system: " + ", ".join(SYSTEMS) + ", a plug-in's (docs/plugins.md), or an alias."

app = typer.Typer(
    name="rulekeeper",
    help=(
        "Rules engine and game-master companion for tabletop RPGs: "
        + ", ".join(SYSTEM_TITLES[name][0] for name in SYSTEMS if name in SYSTEM_TITLES)
        + ". New here? Run 'rulekeeper demo'."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)
scenario_app = typer.Typer(help="Run replayable scenario files.", no_args_is_help=True)
campaign_app = typer.Typer(help="Create, choose, inspect, export and import campaigns.", no_args_is_help=True)
char_app = typer.Typer(help="Add, list, show and edit characters.", no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")
app.add_typer(campaign_app, name="campaign")
app.add_typer(char_app, name="char")

CONTEXT = Context()
_ACTION_NAMES: set[str] = set()


@app.callback()
def _global_options(
    db: Annotated[
        str | None, typer.Option("--db", envvar="RULEKEEPER_DB", help="Database: a SQLite file or a database URL.")
    ] = None,
    campaign: Annotated[
        str | None,
        typer.Option("--campaign", "-c", envvar="RULEKEEPER_CAMPAIGN", help="Campaign to use for this command."),
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Full rule citations (source, section, page, reading), not short tags.")
    ] = False,
) -> None:
    # Inside 'rulekeeper play' the shell's choices stand unless a line names others.
    if db is not None:
        CONTEXT.db = db
    if campaign is not None:
        CONTEXT.campaign = campaign
    CONTEXT.explain = explain


JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
AsPlayerOpt = Annotated[
    str | None,
    typer.Option(
        "--as-player", help="Show only what this character's player may see (a character id or a player's name)."
    ),
]
ExplainOpt = Annotated[bool, typer.Option("--explain", help="Full rule citations instead of short tags.")]
URL_HELP = (
    "The server's address for the link, e.g. http://192.168.1.20:8000 (default: RULEKEEPER_BASE_URL,"
    " else where a running 'rulekeeper serve' on this database listens)."
)


@app.command()
def roll(
    expr: Annotated[str, typer.Argument(help="Dice notation, e.g. 3d6, 2d+1, 4d6kh3, 6d6[icons].")],
    seed: Annotated[int | None, typer.Option(help="Seed for reproducible dice.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Roll dice and show every die."""
    from rulekeeper.cli.dice_commands import roll_command

    roll_command(expr, seed=seed, as_json=as_json)


@app.command()
def odds(
    expr: Annotated[str, typer.Argument(help="Dice notation, e.g. 3d6 or 6d6[icons].")],
    at_least: Annotated[int | None, typer.Option("--at-least", help="Probability of at least this total.")] = None,
    at_most: Annotated[int | None, typer.Option("--at-most", help="Probability of at most this total.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact distribution of a dice expression, with a bar chart."""
    from rulekeeper.cli.dice_commands import odds_command

    if at_least is not None and at_most is not None:
        from rulekeeper.errors import InputError

        raise InputError("give --at-least or --at-most, not both", expected="one of the two options")
    odds_command(expr, at_least=at_least, at_most=at_most, as_json=as_json)


@scenario_app.command("run")
def scenario_run(
    files: Annotated[list[str], typer.Argument(help="Scenario files (YAML or JSON).")],
    as_json: JsonOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print every explained step.")] = False,
    automation: Annotated[
        str | None,
        typer.Option(
            "--automation",
            help="auto, prompt or note for every check kind, instead of the file's settings "
            "(under auto, the dice of resolve steps go to the step that asked for them).",
        ),
    ] = None,
) -> None:
    """Run scenario files: exit 0 if every expectation held, 1 if one failed, 2 if a file is invalid."""
    from rulekeeper.cli.scenario_commands import run_scenarios

    code = run_scenarios(files, as_json=as_json, verbose=verbose, automation=automation)
    if code:
        raise typer.Exit(code)


@app.command()
def simulate(
    file: Annotated[str, typer.Argument(help="Encounter file (YAML or JSON), or a bundled one's name.")],
    runs: Annotated[int, typer.Option("--runs", "-n", help="Fights to simulate (per sweep cell).")] = 1000,
    seed: Annotated[int | None, typer.Option(help="Seed (default: the file's seed, else 0).")] = None,
    as_json: JsonOpt = False,
    plot: Annotated[str | None, typer.Option("--plot", help="Write a plot to OUT.svg or OUT.png.")] = None,
    campaign: Annotated[
        str | None, typer.Option("--campaign", help="Take characters as they are now in this campaign.")
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option("--vary", help="Sweep PATH=LO..HI or PATH=A,B (repeatable), e.g. enemies.ogre.count=1..4."),
    ] = None,
    scheduler: Annotated[
        str | None, typer.Option("--scheduler", help="An existing Dask cluster, e.g. tcp://HOST:8786.")
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Local Dask workers (default one per core; 0: this process).")
    ] = None,
) -> None:
    """Fight an encounter many times through the rules: odds with 95% intervals, table, JSON, plot."""
    from rulekeeper.cli.simulate_command import simulate_command

    code = simulate_command(
        CONTEXT,
        file,
        runs=runs,
        seed=seed,
        as_json=as_json,
        plot=plot,
        campaign=campaign,
        vary=vary or [],
        scheduler=scheduler,
        workers=workers,
    )
    if code:
        raise typer.Exit(code)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def check(
    ctx: typer.Context,
    system: Annotated[str, typer.Argument(help=SYSTEM_HELP)],
    target: Annotated[str | None, typer.Argument(help="Skill, score or stat total.")] = None,
    modifier: Annotated[int, typer.Option("--modifier", "-m", help="Total modifier to the target.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Exact odds of a check, e.g. 'check SYSTEM 12'; a system's own options follow as --name value
    (the error for a wrong one lists them)."""
    from rulekeeper.cli.calc_commands import check_command

    extra = list(ctx.args)
    if target is not None and target.startswith("--"):
        # No target, and the system's first own option was read in its place.
        extra, target = [target, *extra], None
    check_command(system, target, modifier=modifier, extra=extra, as_json=as_json)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def feat(
    ctx: typer.Context,
    system: Annotated[str, typer.Argument(help=SYSTEM_HELP)],
    name: Annotated[str | None, typer.Argument(help="Calculator name; leave out to list them.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Rule calculators that need no campaign, e.g. 'feat SYSTEM jump --basic-move 6'; leave out NAME to list them."""
    from rulekeeper.cli.calc_commands import feat_command

    feat_command(system, name, list(ctx.args), as_json=as_json)


@app.command()
def demo(
    db: Annotated[str | None, typer.Option("--db", help="SQLite file for the demo campaigns.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a demo campaign for each system on SQLite and play a short scene in each."""
    from rulekeeper.cli.demo import run_demo

    if db is not None:
        CONTEXT.db = db
    run_demo(CONTEXT, as_json=as_json)


@app.command()
def pending(as_player: AsPlayerOpt = None, as_json: JsonOpt = False) -> None:
    """List pending checks with their exact odds (the GM's view; --as-player for a player's)."""
    table_commands.pending(CONTEXT, as_player=as_player, as_json=as_json)


@app.command()
def play(
    campaign: Annotated[str | None, typer.Argument(help="Campaign to play; default the current one.")] = None,
) -> None:
    """An interactive shell for the evening: the same commands, completion, history, no start-up wait."""
    from rulekeeper.cli.shell import run_shell

    run_shell(CONTEXT, campaign)


@app.command()
def status(as_json: JsonOpt = False) -> None:
    """The table on one screen: vitals, conditions, turn order, pending checks, the clock."""
    table_commands.status(CONTEXT, as_json=as_json)


@app.command()
def resolve(
    pending_id: Annotated[int, typer.Argument(help="Pending check id (see 'pending').")],
    dice: Annotated[str | None, typer.Option("--dice", help="Dice rolled: 4,6,2 or 4 6 2 or 4+6+2.")] = None,
    auto: Annotated[bool, typer.Option("--auto", help="Let the engine roll.")] = False,
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Resolve a pending check with dice rolled at the table, or let the engine roll."""
    table_commands.resolve(CONTEXT, pending_id=pending_id, dice=dice, auto=auto, as_json=as_json, explain=explain)


@app.command("round")
def round_(
    count: Annotated[int, typer.Argument(help="How many rounds.")] = 1,
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """End the round: advance one round of game time and fire what falls due."""
    table_commands.round_(CONTEXT, count=count, as_json=as_json, explain=explain)


@app.command()
def advance(
    duration: Annotated[str, typer.Argument(help="30s, 10m, 8h, 3d, 1h30m or 5 rounds.")],
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Let game time pass; every timer that falls due fires, in order."""
    table_commands.advance(CONTEXT, duration=duration, as_json=as_json, explain=explain)


@app.command()
def log(
    character: Annotated[str | None, typer.Option("--character", "--char", help="Only this character.")] = None,
    since: Annotated[str | None, typer.Option(help="From this game time, e.g. 1h.")] = None,
    until: Annotated[str | None, typer.Option(help="Up to this game time.")] = None,
    explain: ExplainOpt = False,
    brief: Annotated[bool, typer.Option("--brief", help="One line per command, no consequences.")] = False,
    show_all: Annotated[
        bool, typer.Option("--all", help="Every matching entry, not only the latest screenful.")
    ] = False,
    as_player: AsPlayerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The latest history, undone commands struck through (the GM's view; --as-player for a player's)."""
    table_commands.log(
        CONTEXT,
        character=character,
        since=since,
        until=until,
        explain=explain,
        brief=brief,
        show_all=show_all,
        as_player=as_player,
        as_json=as_json,
    )


@app.command()
def undo(
    seq: Annotated[int | None, typer.Argument(help="Command number; default the latest.")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask when later commands go with it.")] = False,
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Undo the latest command, or a chosen one with everything that depended on it (asks first)."""
    table_commands.undo(CONTEXT, seq=seq, yes=yes, as_json=as_json, explain=explain)


@app.command()
def redo(as_json: JsonOpt = False, explain: ExplainOpt = False) -> None:
    """Redo what was last undone, with the same dice."""
    table_commands.redo(CONTEXT, as_json=as_json, explain=explain)


_SetOpt = Annotated[list[str] | None, typer.Option("--set", help="PARAM=VALUE to amend, repeatable.")]


@app.command()
def requests(
    waiting: Annotated[bool, typer.Option("--waiting", help="Only those waiting for an answer.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Players' actions on characters they do not play, waiting for the GM or answered."""
    from rulekeeper.cli.seat_commands import requests_command

    requests_command(CONTEXT, waiting=waiting, as_json=as_json)


@app.command()
def approve(
    number: Annotated[int, typer.Argument(help="Request number (see 'requests').", min=1)],
    set_: _SetOpt = None,
    as_json: JsonOpt = False,
    explain: ExplainOpt = False,
) -> None:
    """Apply a player's request as your own action (amended by --set), with the dice of now."""
    from rulekeeper.cli.seat_commands import approve_command

    CONTEXT.explain = CONTEXT.explain or explain
    approve_command(CONTEXT, number, set_=set_, as_json=as_json)


@app.command()
def decline(
    number: Annotated[int, typer.Argument(help="Request number (see 'requests').", min=1)],
    note: Annotated[str | None, typer.Option("--note", help="Why, for the player.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Decline a player's request: nothing of it applies."""
    from rulekeeper.cli.seat_commands import decline_command

    decline_command(CONTEXT, number, note=note, as_json=as_json)


@app.command("set-aside")
def set_aside(as_json: JsonOpt = False) -> None:
    """Consequences that failed when they fell due, set aside so the clock went on: why, and what to do."""
    from rulekeeper.cli.seat_commands import set_aside_command

    set_aside_command(CONTEXT, as_json=as_json)


@app.command()
def retry(
    timer: Annotated[int, typer.Argument(help="Set-aside consequence id (see 'set-aside').", min=1)],
    set_: Annotated[list[str] | None, typer.Option("--set", help="KEY=VALUE fixing its data, repeatable.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a set-aside consequence again at the next advance, fixed by --set."""
    from rulekeeper.cli.seat_commands import settle_command

    settle_command(CONTEXT, timer, "retry", set_=set_, as_json=as_json)


@app.command()
def drop(
    timer: Annotated[int, typer.Argument(help="Set-aside consequence id (see 'set-aside').", min=1)],
    as_json: JsonOpt = False,
) -> None:
    """Forget a set-aside consequence."""
    from rulekeeper.cli.seat_commands import settle_command

    settle_command(CONTEXT, timer, "drop", set_=None, as_json=as_json)


@campaign_app.command("new")
def campaign_new(
    name: Annotated[str, typer.Argument(help="Campaign name.")],
    system: Annotated[str, typer.Option("--system", "-s", help=SYSTEM_HELP)],
    seed: Annotated[int | None, typer.Option(help="Seed for the campaign's dice.")] = None,
    use: Annotated[bool, typer.Option("--use/--no-use", help="Make it the current campaign.")] = True,
    url: Annotated[str | None, typer.Option("--url", help=URL_HELP)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a campaign; prints the GM's join link."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_new(CONTEXT, name, system, seed=seed, use=use, as_json=as_json, base_url=url)


@campaign_app.command("list")
def campaign_list(as_json: JsonOpt = False) -> None:
    """List campaigns; * marks the current one."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_list(CONTEXT, as_json=as_json)


@campaign_app.command("use")
def campaign_use(name: Annotated[str, typer.Argument(help="Campaign name.")], as_json: JsonOpt = False) -> None:
    """Make a campaign the current one."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_use(CONTEXT, name, as_json=as_json)


@campaign_app.command("show")
def campaign_show(
    name: Annotated[str | None, typer.Argument(help="Campaign name; default the current one.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Characters, timers and pending checks of a campaign."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_show(CONTEXT, name, as_json=as_json)


@campaign_app.command("settings")
def campaign_settings(
    automation: Annotated[
        list[str] | None, typer.Option("--automation", "-a", help="KIND=auto|prompt|note, e.g. *=prompt.")
    ] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="NAME=VALUE rule option.")] = None,
    roll_mode: Annotated[
        list[str] | None,
        typer.Option(
            "--roll-mode", "-r", help="KIND=public|private|blind (who sees it), or KIND=default for the rules' own."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Who rolls and who sees each kind of check, and rule options; without flags, show them."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_settings(
        CONTEXT, automation or [], option or [], as_json=as_json, roll_modes=roll_mode or []
    )


@campaign_app.command("export")
def campaign_export(
    name: Annotated[str | None, typer.Argument(help="Campaign name; default the current one.")] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help="File to write; default stdout.")] = None,
) -> None:
    """Export a whole campaign, history and dice included, as one JSON document."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_export(CONTEXT, name, output)


@campaign_app.command("import")
def campaign_import(
    path: Annotated[str, typer.Argument(help="Exported JSON file ('-' for stdin).")],
    name: Annotated[str | None, typer.Option(help="Import under another name.")] = None,
    use: Annotated[bool, typer.Option("--use/--no-use", help="Make it the current campaign.")] = True,
    as_json: JsonOpt = False,
) -> None:
    """Import a campaign exported by 'campaign export'."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_import(CONTEXT, path, name=name, use=use, as_json=as_json)


@campaign_app.command("delete")
def campaign_delete(
    name: Annotated[str, typer.Argument(help="Campaign name.")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
) -> None:
    """Delete a campaign and its history (asks first unless --yes)."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.campaign_delete(CONTEXT, name, yes=yes)


@campaign_app.command("invite")
def campaign_invite(
    name: Annotated[str | None, typer.Argument(help="Campaign name; default the current one.")] = None,
    player: Annotated[str | None, typer.Option("--player", help="Invite a player by name.")] = None,
    character: Annotated[
        list[str] | None, typer.Option("--character", help="A character the player plays (repeatable).")
    ] = None,
    observer: Annotated[str | None, typer.Option("--observer", help="Invite an observer by name.")] = None,
    gm: Annotated[str | None, typer.Option("--gm", help="A new GM token (for a lost one).")] = None,
    expires: Annotated[str | None, typer.Option("--expires", help="The token ends after e.g. 8h or 30d.")] = None,
    url: Annotated[str | None, typer.Option("--url", help=URL_HELP)] = None,
    as_json: JsonOpt = False,
) -> None:
    """Make a join link with a token for 'rulekeeper serve': a player, an observer or a GM."""
    from rulekeeper.cli.member_commands import campaign_invite as invite_command

    invite_command(
        CONTEXT,
        name,
        player=player,
        observer=observer,
        gm=gm,
        characters=character or [],
        expires=expires,
        base_url=url,
        as_json=as_json,
    )


@campaign_app.command("revoke")
def campaign_revoke(
    name: Annotated[str | None, typer.Argument(help="Campaign name; default the current one.")] = None,
    member: Annotated[str, typer.Option("--member", "-m", help="Member name (all their tokens) or a token id.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """End a member's tokens at once."""
    from rulekeeper.cli.member_commands import campaign_revoke as revoke_command

    revoke_command(CONTEXT, name, member, as_json=as_json)


@campaign_app.command("members")
def campaign_members(
    name: Annotated[str | None, typer.Argument(help="Campaign name; default the current one.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Who holds a live token, in which role, playing which characters."""
    from rulekeeper.cli.member_commands import campaign_members as members_command

    members_command(CONTEXT, name, as_json=as_json)


@app.command()
def actions(
    system: Annotated[
        str | None, typer.Argument(help=SYSTEM_HELP + " Default: the current campaign's system.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """List a game system's actions (damage, rest ...), which are commands in its campaigns."""
    from rulekeeper.cli.action_list import list_actions

    list_actions(CONTEXT, system, as_json=as_json)


@app.command()
def serve(
    db: Annotated[
        str | None, typer.Option("--db", help="Database: a SQLite file or a URL (default: the CLI's).")
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[int, typer.Option(help="Worker processes (several need a real database).")] = 1,
    open_creation: Annotated[
        bool,
        typer.Option("--open-creation", help="Let other machines create and import campaigns."),
    ] = False,
    access_log: Annotated[bool, typer.Option("--access-log", help="Log a line per request (tokens masked).")] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="Where players reach this server (a proxy's address, say); links and QR codes use it."
            " Default: RULEKEEPER_BASE_URL, else the address and port bound.",
        ),
    ] = None,
) -> None:
    """Serve the HTTP API, identities and live events (FastAPI on uvicorn) on the same database."""
    from rulekeeper.web.serve import serve as run_server

    run_server(
        db or CONTEXT.db,
        host,
        port,
        workers,
        open_creation=open_creation,
        access_log=access_log,
        public_url=public_url,
    )


@char_app.command("add")
def char_add(
    actor: Annotated[str, typer.Argument(help="Character id, e.g. toromeen.")],
    sheet: Annotated[str | None, typer.Option("--sheet", help="YAML or JSON sheet file.")] = None,
    gcs: Annotated[str | None, typer.Option("--gcs", help=_GCS_HELP)] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="FIELD=VALUE, repeatable.")] = None,
    player: Annotated[str | None, typer.Option(help="The player who owns this PC.")] = None,
    npc: Annotated[bool, typer.Option("--npc", help="A non-player character.")] = False,
    like: Annotated[str | None, typer.Option("--like", help="Copy this character's sheet (--set changes it).")] = None,
    count: Annotated[int, typer.Option("--count", help="Add a group: orc --count 3 is orc1, orc2, orc3.")] = 1,
    as_json: JsonOpt = False,
) -> None:
    """Add a character from flags, a sheet file, a GCS file (systems that read them), or --like another."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_add(
        CONTEXT,
        actor,
        sheet_file=sheet,
        gcs_file=gcs,
        pairs=set_ or [],
        player=player,
        npc=npc,
        like=like,
        count=count,
        as_json=as_json,
    )


_GCS_HELP = "A GCS (.gcs) sheet file, for a system that reads them."


@char_app.command("update")
def char_update(
    actor: Annotated[str, typer.Argument(help="Character id.")],
    gcs: Annotated[str, typer.Option("--gcs", help=_GCS_HELP)],
    set_: Annotated[list[str] | None, typer.Option("--set", help="FIELD=VALUE laid over the file, repeatable.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Re-read a character from its changed sheet file; damage, conditions and timers stay. Undoable."""
    from rulekeeper.cli import sheet_file_commands

    sheet_file_commands.char_update(CONTEXT, actor, format_name="gcs", path=gcs, pairs=set_ or [], as_json=as_json)


@char_app.command("export")
def char_export(
    actor: Annotated[str, typer.Argument(help="Character id.")],
    gcs: Annotated[str, typer.Option("--gcs", help="Write the character's GCS file here (- for standard output).")],
    as_json: JsonOpt = False,
) -> None:
    """Write a character back into the sheet file it came from, with the table's current HP and FP."""
    from rulekeeper.cli import sheet_file_commands

    sheet_file_commands.char_export(CONTEXT, actor, format_name="gcs", path=gcs, as_json=as_json)


@char_app.command("rename")
def char_rename(
    actor: Annotated[str, typer.Argument(help="Character id.")],
    to: Annotated[str, typer.Argument(help="The new id.")],
    as_json: JsonOpt = False,
) -> None:
    """Give a character a new id (its conditions, timers, checks and role follow)."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_rename(CONTEXT, actor, to, as_json=as_json)


@char_app.command("remove")
def char_remove(actor: Annotated[str, typer.Argument(help="Character id.")], as_json: JsonOpt = False) -> None:
    """Take a character out of the campaign, with its conditions, timers and pending checks."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_remove(CONTEXT, actor, as_json=as_json)


@char_app.command("list")
def char_list(as_player: AsPlayerOpt = None, as_json: JsonOpt = False) -> None:
    """List characters and their conditions (the GM's view; --as-player for a player's)."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_list(CONTEXT, as_json=as_json, as_player=as_player)


@char_app.command("show")
def char_show(
    actor: Annotated[str, typer.Argument(help="Character id.")],
    as_player: Annotated[str | None, typer.Option("--as-player", help="Show only what this player may see.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """The system's own view of a character."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_show(CONTEXT, actor, as_player=as_player, as_json=as_json)


@char_app.command("edit")
def char_edit(
    actor: Annotated[str, typer.Argument(help="Character id.")],
    set_: Annotated[list[str] | None, typer.Option("--set", help="FIELD=VALUE, repeatable.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Change sheet fields of a character."""
    from rulekeeper.cli import campaign_commands

    campaign_commands.char_edit(CONTEXT, actor, set_ or [], as_json=as_json)


def _first_command(args: Sequence[str]) -> str | None:
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("--db", "--campaign", "-c"):
            skip = True
            continue
        if arg.startswith("-"):
            continue
        return arg
    return None


def _option_value(args: Sequence[str], *names: str) -> str | None:
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
            if len(name) == 2 and arg.startswith(name) and len(arg) > 2:
                return arg[2:]  # a short option written together with its value: -cNAME
    return None


def _register_actions(args: Sequence[str]) -> None:
    """Add the current campaign's actions as commands (before Typer builds its command tree)."""
    import os

    from rulekeeper.cli.context import campaign_system

    first = _first_command(args)
    if first is not None and first in BUILTIN_COMMANDS:
        return
    db = _option_value(args, "--db") or os.environ.get("RULEKEEPER_DB")
    campaign = _option_value(args, "--campaign", "-c") or os.environ.get("RULEKEEPER_CAMPAIGN")
    # Without a command (--help) the remembered campaign's actions are listed, not a named one's.
    selected = campaign_system(db, campaign if first is not None else None)
    if selected is None:
        if first is not None and first != "help":
            _register_unselected(first)
        else:
            # --help (or no command) with no campaign: say where the actions are.
            from rulekeeper.cli.action_list import no_campaign_note

            app.info.epilog = no_campaign_note()
        return
    system = selected[1]
    register_system_actions(system)
    if first is not None and first not in _ACTION_NAMES and first not in BUILTIN_COMMANDS and first != "help":
        from rulekeeper.cli.names import unknown_command

        raise unknown_command(first, system, selected[0], [*BUILTIN_COMMANDS, *_ACTION_NAMES])


def register_system_actions(system: str) -> None:
    """Make ``system``'s actions the app's action commands (replacing another system's)."""
    from rulekeeper.cli.action_commands import build_action_command
    from rulekeeper.core import get_ruleset

    app.registered_commands[:] = [c for c in app.registered_commands if c.name not in _ACTION_NAMES]
    _ACTION_NAMES.clear()
    for spec in get_ruleset(system).actions().values():
        if spec.name in BUILTIN_COMMANDS:
            continue
        _ACTION_NAMES.add(spec.name)
        app.command(name=spec.name, help=f"[{system}] {spec.help}", rich_help_panel="Actions")(
            build_action_command(spec, CONTEXT)
        )


def _register_unselected(name: str) -> None:
    """An action name typed with no campaign selected gets an error that says what to do."""
    from rulekeeper.core import get_ruleset, system_names
    from rulekeeper.errors import InputError

    for system in system_names():
        if name in get_ruleset(system).actions():

            def needs_campaign() -> None:
                raise InputError(
                    f"'{name}' acts on a campaign, and none is selected",
                    expected="'rulekeeper campaign use NAME', --campaign NAME, or 'rulekeeper demo'",
                )

            app.command(name=name, context_settings={"ignore_unknown_options": True, "allow_extra_args": True})(
                needs_campaign
            )
            return


def _usage_error(exc: Exception) -> int | None:
    """Click's usage errors as one line (its own form is a usage block); None for anything else."""
    import sys

    kind = type(exc).__name__
    if kind == "Abort":
        print("rulekeeper: aborted", file=sys.stderr)
        return 1
    if not (hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int)):
        return None
    if kind == "NoArgsIsHelpError":
        exc.show()  # type: ignore[attr-defined]
    else:
        message = " ".join(str(exc.format_message()).split())
        print(f"rulekeeper: error: {message} (see --help)", file=sys.stderr)
    code: int = exc.exit_code  # type: ignore[attr-defined]
    return code


def run_app(args: Sequence[str]) -> int:
    """Run the Typer app and turn every outcome into an exit code (usage errors are 2)."""
    try:
        _register_actions(args)
        result = app(args=list(args), prog_name="rulekeeper", standalone_mode=False)
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 1
    except Exception as exc:
        code = _usage_error(exc)
        return report_error(exc, as_json="--json" in args) if code is None else code
    return result if isinstance(result, int) and not isinstance(result, bool) else 0
