"""``campaign`` and ``char`` commands: create, choose, inspect, export and import."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.context import forget_selection, remember_selection
from rulekeeper.cli.output import console, emit_json
from rulekeeper.cli.render import print_view
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = [
    "campaign_delete",
    "campaign_export",
    "campaign_import",
    "campaign_list",
    "campaign_new",
    "campaign_show",
    "campaign_use",
    "char_add",
    "char_edit",
    "char_list",
    "char_show",
    "parse_assignments",
    "read_document",
]


def read_document(path: str, *, limit: int | None = None) -> Any:
    """A YAML or JSON file (``-`` for standard input), with a clear error when unreadable or
    over the limits of docs/limits.md (size, nesting, expanded YAML aliases)."""
    from rulekeeper.documents import load_json, load_yaml, read_text
    from rulekeeper.limits import MAX_DOCUMENT_BYTES

    text = read_text(path, MAX_DOCUMENT_BYTES if limit is None else limit, "YAML or JSON file")
    if path.endswith(".json") or text.lstrip().startswith(("{", "[")):
        return load_json(text, where=path)
    return load_yaml(text, where=path)


def parse_assignments(pairs: Sequence[str]) -> dict[str, Any]:
    """``["st=12", "name=Ana"]`` -> ``{"st": 12, "name": "Ana"}`` (values read as YAML scalars)."""
    from rulekeeper.documents import load_yaml
    from rulekeeper.limits import MAX_SET_VALUE_CHARS

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"cannot read {pair!r}", expected="FIELD=VALUE, e.g. --set st=12")
        field = key.strip().replace("-", "_")
        if len(value) > MAX_SET_VALUE_CHARS:
            raise InputError(
                f"the value of {field} is {len(value):,} characters, over the limit of {MAX_SET_VALUE_CHARS:,}",
                expected="a shorter value, or a --sheet file (docs/limits.md)",
            )
        if not value.strip():
            out[field] = ""
            continue
        try:
            out[field] = load_yaml(value, where=f"the value of {field}")
        except InputError as exc:
            if "not valid YAML" not in exc.message:
                raise  # over a limit: never fall back to the raw text of a bomb
            out[field] = value
    return out


def campaign_new(context: Context, name: str, system: str, *, seed: int | None, use: bool, as_json: bool) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.cli.member_commands import gm_secret, join_link

    campaign = Campaign.create(context.store(), name, system, seed=seed)
    secret = gm_secret(campaign)
    link = join_link(None, campaign.name, secret.token)
    if use:
        remember_selection(context.db_key(), campaign.name, campaign.system)
    if as_json:
        emit_json(
            {
                "campaign": campaign.name,
                "system": campaign.system,
                "seed": campaign.seed,
                "selected": use,
                "gm_token": secret.token,
                "gm_link": link,
            }
        )
        return
    out = console()
    out.print(f"Created campaign {campaign.name!r} ({campaign.system})" + (", now in use." if use else "."))
    out.print("The GM's secret for 'rulekeeper serve' (shown once; keep it to yourself):", highlight=False)
    out.print(link, highlight=False, soft_wrap=True)


def campaign_list(context: Context, *, as_json: bool) -> None:
    from rulekeeper.cli.context import current_selection

    infos = context.store().list_campaigns()
    selected = current_selection(context.db_key())
    current = selected[0] if selected else None
    if as_json:
        emit_json(
            {
                "campaigns": [
                    {
                        "name": info.name,
                        "system": info.system,
                        "version": info.version,
                        "gm": info.gm,
                        "created": info.created.isoformat(),
                        "current": info.name == current,
                        "problem": info.problem,
                    }
                    for info in infos
                ]
            }
        )
        return
    if not infos:
        console().print("No campaigns yet: try 'rulekeeper demo' or 'rulekeeper campaign new NAME --system gm'.")
        return
    for info in infos:
        mark = "*" if info.name == current else " "
        line = f"{mark} {info.name:<24} {info.system:<18} {info.version} commands"
        if info.problem:
            line += f"  (damaged: {info.problem})"
        console().print(line, highlight=False, markup=False)


def campaign_use(context: Context, name: str, *, as_json: bool) -> None:
    from rulekeeper.campaign import Campaign

    campaign = Campaign.open(context.store(), name)
    remember_selection(context.db_key(), campaign.name, campaign.system)
    if as_json:
        emit_json({"campaign": campaign.name, "system": campaign.system})
        return
    console().print(f"Using {campaign.name!r} ({campaign.system}).")


def campaign_show(context: Context, name: str | None, *, as_json: bool) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.cli.render import pending_json, print_pending
    from rulekeeper.core import format_duration

    campaign = Campaign.open(context.store(), name) if name else context.open()
    state = campaign.state
    data = {
        "campaign": campaign.name,
        "system": campaign.system,
        "version": campaign.version,
        "clock": state.clock,
        "characters": {actor: campaign.view(actor) for actor in state.characters},
        "roles": campaign.roles,
        "pending": [pending_json(p) for p in state.pending],
        "timers": [{"due": t.due, "label": t.label, "actor": t.actor} for t in state.timers],
    }
    if as_json:
        emit_json(data)
        return
    out = console()
    out.print(
        f"[bold]{campaign.name}[/bold] — {campaign.system}, game time {format_duration(state.clock)}, "
        f"{campaign.version} commands"
    )
    for actor in state.characters:
        print_view(actor, campaign.view(actor))
    for t in sorted(state.timers, key=lambda t: t.due):
        out.print(f"  timer in {format_duration(t.due - state.clock)}: {t.actor or ''} {t.label}")
    print_pending(state.pending)


def _canonical_kind(kind: str) -> str:
    """``6810.arc`` -> ``vi-viii-x.arc``: a system alias may stand for the prefix of check kinds."""
    from rulekeeper.core import canonical_system_name
    from rulekeeper.errors import UnknownNameError

    head, dot, rest = kind.partition(".")
    if head == "*":
        return kind
    try:
        system = canonical_system_name(head)
    except UnknownNameError:
        return kind
    prefix = {"gods-and-monsters": "gm", "wrath-and-glory": "wg"}.get(system, system)
    return prefix + dot + rest


def campaign_settings(context: Context, automation: Sequence[str], options: Sequence[str], *, as_json: bool) -> None:
    campaign = context.open()
    if automation or options:
        levels: dict[str, str] = {}
        for pair in automation:
            # Check kinds such as "vi-viii-x.arc" keep their dashes, unlike sheet fields.
            kind, sep, level = pair.partition("=")
            if not sep or not kind.strip():
                raise InputError(f"cannot read {pair!r}", expected="KIND=auto|prompt|note, e.g. gurps=prompt")
            levels[_canonical_kind(kind.strip())] = level.strip()
        result = campaign.set_settings(automation=levels or None, options=parse_assignments(options) or None)
        if not as_json:
            console().print(f"#{result.seq} settings changed.")
    settings = campaign.state.settings
    data = {
        "automation": {k: v.value for k, v in settings.automation.items()},
        "options": dict(settings.options),
        "check_kinds": dict(campaign.ruleset.check_kinds),
        "rule_options": {o.name: o.default for o in campaign.ruleset.rule_options},
    }
    if as_json:
        emit_json(data)
        return
    out = console()
    out.print("[bold]Who rolls[/bold] (default auto):")
    for kind, text in sorted(campaign.ruleset.check_kinds.items()):
        out.print(f"  {kind:<28} {settings.level_for(kind).value:<7} {text}", highlight=False)
    out.print("[bold]Rule options[/bold]:")
    for opt in campaign.ruleset.rule_options:
        out.print(f"  {opt.name:<28} {settings.option(opt.name, opt.default)!s:<7} {opt.help}", highlight=False)


def campaign_export(context: Context, name: str | None, output: str | None) -> None:
    from rulekeeper.campaign import Campaign

    campaign = Campaign.open(context.store(), name) if name else context.open()
    text = json.dumps(campaign.export(), indent=2)
    if output is None or output == "-":
        sys.stdout.write(text + "\n")
        return
    target = Path(output)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text + "\n", encoding="utf-8")
    tmp.replace(target)
    console().print(f"Exported {campaign.name!r} to {target}.", highlight=False)


def campaign_import(context: Context, path: str, *, name: str | None, use: bool, as_json: bool) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.limits import MAX_IMPORT_BYTES

    document = read_document(path, limit=MAX_IMPORT_BYTES)
    campaign = Campaign.import_(context.store(), document, name=name)
    if use:
        remember_selection(context.db_key(), campaign.name, campaign.system)
    if as_json:
        emit_json({"campaign": campaign.name, "system": campaign.system, "version": campaign.version})
        return
    console().print(f"Imported {campaign.name!r} ({campaign.system}, {campaign.version} commands).")


def campaign_delete(context: Context, name: str, *, yes: bool) -> None:
    from rulekeeper.campaign import Campaign

    Campaign.open(context.store(), name)  # refuse an unknown name before asking anything
    if not yes:
        if not sys.stdin.isatty():
            raise InputError(f"deleting {name!r} needs confirmation", expected="--yes when not at a terminal")
        import typer

        typer.confirm(f"Delete campaign {name!r} and its whole history?", abort=True)
    context.store().delete_campaign(name)
    from rulekeeper.cli.context import current_selection

    selected = current_selection(context.db_key())
    if selected is not None and selected[0] == name:
        forget_selection(context.db_key())
    console().print(f"Deleted {name!r}.")


def _sheet_from(
    system: str, sheet_file: str | None, gcs_file: str | None, pairs: Sequence[str]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The sheet to add, and for a GCS file the import report (unused fields, GCS disagreements)."""
    sheet: dict[str, Any] = {}
    report: dict[str, Any] | None = None
    if gcs_file is not None:
        if system != "gurps":
            raise InputError("--gcs reads GURPS Character Sheet files", expected="a GURPS campaign")
        from rulekeeper.systems.gurps.gcs import import_gcs

        document = read_document(gcs_file)
        imported = import_gcs(document)
        sheet.update(imported.sheet)
        report = {"file": gcs_file, "unused": imported.unused, "disagreements": imported.disagreements}
    if sheet_file is not None:
        document = read_document(sheet_file)
        if not isinstance(document, Mapping):
            raise InputError(f"{sheet_file} holds no sheet", expected="a mapping of sheet fields")
        sheet.update(document)
    sheet.update(parse_assignments(pairs))
    return sheet, report


def _print_gcs_report(report: Mapping[str, Any]) -> None:
    for line in report["disagreements"]:
        print(f"rulekeeper: note: {report['file']}: {line}", file=sys.stderr)
    if report["unused"]:
        unused = ", ".join(report["unused"])
        print(f"rulekeeper: note: fields not used from {report['file']}: {unused}", file=sys.stderr)


def char_add(
    context: Context,
    actor: str,
    *,
    sheet_file: str | None,
    gcs_file: str | None,
    pairs: Sequence[str],
    player: str | None,
    npc: bool,
    as_json: bool,
) -> None:
    campaign = context.open()
    sheet, report = _sheet_from(campaign.system, sheet_file, gcs_file, pairs)
    result = campaign.add_character(actor, sheet, player=player, npc=npc)
    if as_json:
        view = campaign.view(actor)
        out: dict[str, Any] = {"campaign": campaign.name, "seq": result.seq, "actor": actor, "view": view}
        if report is not None:
            out["gcs"] = report
        emit_json(out)
        return
    if report is not None:
        _print_gcs_report(report)
    console().print(f"#{result.seq} added {actor} to {campaign.name}.")
    print_view(actor, campaign.view(actor))


def char_edit(context: Context, actor: str, pairs: Sequence[str], *, as_json: bool) -> None:
    if not pairs:
        raise InputError("nothing to change", expected="--set FIELD=VALUE")
    campaign = context.open()
    result = campaign.edit_character(actor, parse_assignments(pairs))
    if as_json:
        emit_json({"campaign": campaign.name, "seq": result.seq, "actor": actor, "view": campaign.view(actor)})
        return
    console().print(f"#{result.seq} edited {actor}.")
    print_view(actor, campaign.view(actor))


def char_list(context: Context, *, as_json: bool, as_player: str | None = None) -> None:
    campaign = context.open()
    if as_player is not None:
        views = campaign.player_views(as_player)
        if as_json:
            emit_json({"campaign": campaign.name, "as_player": as_player, "characters": views})
            return
        for actor, view in views.items():
            console().print(f"{actor:<20} {', '.join(view.get('conditions') or [])}")
        return
    roles = campaign.roles
    if as_json:
        emit_json({"campaign": campaign.name, "characters": list(campaign.state.characters), "roles": roles})
        return
    for actor in campaign.state.characters:
        conditions = ", ".join(c.name for c in campaign.state.conditions_of(actor))
        console().print(f"{actor:<20} {conditions}")


def char_show(context: Context, actor: str, *, as_player: str | None, as_json: bool) -> None:
    campaign = context.open()
    view = campaign.view(actor, as_player=as_player)
    if as_json:
        emit_json({"campaign": campaign.name, "actor": actor, "view": view})
        return
    print_view(actor, view)
