"""``campaign`` and ``char`` commands: create, choose, inspect, export and import."""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekeeper.cli.context import forget_selection, remember_selection
from rulekeeper.cli.names import resolve_actor
from rulekeeper.cli.output import console, emit_json
from rulekeeper.cli.render import print_view
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.campaign import Campaign, SheetSource
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


def parse_assignments(pairs: Sequence[str], base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``["st=12", "skills.axe=12"]`` -> ``{"st": 12, "skills": {"axe": 12}}`` (values read as YAML).

    A dotted field sets one entry of a nested table; the rest of that table comes from ``base``
    (the stored sheet when editing), so ``--set skills.axe=12`` keeps the other skills. Values are
    read under the document limits (docs/limits.md).
    """
    from rulekeeper.documents import load_yaml
    from rulekeeper.limits import MAX_SET_VALUE_CHARS

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"cannot read {pair!r}", expected="FIELD=VALUE, e.g. --set st=12 or --set skills.axe=12")
        field = key.strip()
        if len(value) > MAX_SET_VALUE_CHARS:
            raise InputError(
                f"the value of {field} is {len(value):,} characters, over the limit of {MAX_SET_VALUE_CHARS:,}",
                expected="a shorter value, or a --sheet file (docs/limits.md)",
            )
        parsed: Any = ""
        if value.strip():
            try:
                parsed = load_yaml(value, where=f"the value of {field}")
            except InputError as exc:
                if "not valid YAML" not in exc.message:
                    raise  # over a limit: never fall back to the raw text of a bomb
                parsed = value
        path = [part.strip() for part in field.split(".")]
        if any(not part for part in path):
            raise InputError(f"cannot read field {key!r}", expected="FIELD or TABLE.ENTRY, e.g. skills.axe")
        path[0] = path[0].replace("-", "_")
        target = out
        stored: Any = base or {}
        for part in path[:-1]:
            stored = stored.get(part) if isinstance(stored, Mapping) else None
            existing = target.get(part)
            if not isinstance(existing, dict):
                existing = dict(stored) if isinstance(stored, Mapping) else {}
                target[part] = existing
            target = existing
        target[path[-1]] = parsed
    return out


def campaign_new(
    context: Context,
    name: str,
    system: str,
    *,
    seed: int | None,
    use: bool,
    as_json: bool,
    base_url: str | None = None,
) -> None:
    from rulekeeper.campaign import Campaign
    from rulekeeper.cli.member_commands import gm_secret, link_base, print_link
    from rulekeeper.links import join_link

    base, source = link_base(context, base_url)  # a bad --url is refused before the campaign exists
    campaign = Campaign.create(context.store(), name, system, seed=seed)
    secret = gm_secret(campaign)
    link = join_link(base, campaign.name, secret.token)
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
    print_link(link, source)


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
    from rulekeeper.cli.render import print_pending
    from rulekeeper.core import format_duration
    from rulekeeper.core.stakes import pending_entry

    campaign = Campaign.open(context.store(), name) if name else context.open()
    state = campaign.state
    data = {
        "campaign": campaign.name,
        "system": campaign.system,
        "version": campaign.version,
        "clock": state.clock,
        "characters": {actor: campaign.view(actor) for actor in state.characters},
        "roles": campaign.roles,
        "pending": [pending_entry(p) for p in state.pending],
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
    """A system's name or alias stands for the prefix its check kinds share (an alias before
    ``.arc`` gives the system's own prefix), as its ruleset declares them."""
    from rulekeeper.core import get_ruleset
    from rulekeeper.errors import UnknownNameError

    head, dot, rest = kind.partition(".")
    if head == "*":
        return kind
    try:
        ruleset = get_ruleset(head)
    except UnknownNameError:
        return kind
    prefixes = {k.partition(".")[0] for k in ruleset.check_kinds}
    prefix = prefixes.pop() if len(prefixes) == 1 else head
    return prefix + dot + rest


def campaign_settings(
    context: Context,
    automation: Sequence[str],
    options: Sequence[str],
    *,
    as_json: bool,
    roll_modes: Sequence[str] = (),
) -> None:
    campaign = context.open()
    if automation or options or roll_modes:
        levels = _kind_pairs(automation, "KIND=auto|prompt|note, e.g. *=prompt")
        modes: dict[str, str | None] = {
            kind: None if mode == "default" else mode
            for kind, mode in _kind_pairs(roll_modes, "KIND=public|private|blind|default").items()
        }
        changes: dict[str, Any] = parse_assignments(options)
        if modes:
            changes["roll_modes"] = modes
        result = campaign.set_settings(automation=levels or None, options=changes or None)
        if not as_json:
            console().print(f"#{result.seq} settings changed.")
    settings = campaign.state.settings
    data = {
        "automation": {k: v.value for k, v in settings.automation.items()},
        "options": dict(settings.options),
        "roll_modes": {kind: campaign.ruleset.roll_mode(settings, kind) for kind in campaign.ruleset.check_kinds},
        "check_kinds": dict(campaign.ruleset.check_kinds),
        "rule_options": {o.name: o.default for o in campaign.ruleset.rule_options},
    }
    if as_json:
        emit_json(data)
        return
    out = console()
    from rulekeeper.core.who_rolls import NPC_AUTOMATION_OPTION, npc_level, npc_levels, summary

    who = summary(settings)
    npc_text = settings.options.get(NPC_AUTOMATION_OPTION)
    npc = npc_levels(npc_text) if isinstance(npc_text, str) and npc_text else None
    out.print("[bold]Who rolls[/bold] (default auto" + ("; NPCs in brackets" if npc else "") + "):")
    for kind, text in sorted(campaign.ruleset.check_kinds.items()):
        level = settings.level_for(kind).value
        if npc is not None:
            level += f" [{(npc_level(npc, kind) or settings.level_for(kind)).value}]"
        out.print(f"  {kind:<28} {level:<7} {text}", highlight=False, markup=False)
    if who is not None:
        out.print(f"  {who}", highlight=False, markup=False)
    out.print("[bold]Who sees[/bold] (public, private: its player and the GM, blind: the GM only):")
    for kind, mode in sorted(data["roll_modes"].items()):
        out.print(f"  {kind:<28} {mode}", highlight=False)
    out.print("[bold]Rule options[/bold]:")
    for opt in campaign.ruleset.rule_options:
        out.print(f"  {opt.name:<28} {settings.option(opt.name, opt.default)!s:<7} {opt.help}", highlight=False)


def _kind_pairs(pairs: Sequence[str], expected: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        # Check kinds keep their dashes (a system's name may have them), unlike sheet fields.
        kind, sep, value = pair.partition("=")
        if not sep or not kind.strip():
            raise InputError(f"cannot read {pair!r}", expected=expected)
        out[_canonical_kind(kind.strip())] = value.strip().lower()
    return out


def campaign_export(context: Context, name: str | None, output: str | None) -> None:
    from rulekeeper.campaign import Campaign

    campaign = Campaign.open(context.store(), name) if name else context.open()
    text = json.dumps(campaign.export(), indent=2)
    if output is None or output == "-":
        sys.stdout.write(text + "\n")
        return
    _write_whole(Path(output), text + "\n")
    console().print(f"Exported {campaign.name!r} to {output}.", highlight=False)


_EXPORT_TO = "a path to a new file or to a file to replace, or - for standard output"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` all at once: a copy beside it, flushed to disk, then renamed
    over it, so a crash leaves the old file or the new one, never half of one. Only a regular
    file is replaced (through a link, its target): a folder, a device or a pipe is refused."""
    target = path.resolve()
    if target.exists() and not target.is_file():
        raise InputError(f"cannot export to {str(path)!r}: it is not a regular file", expected=_EXPORT_TO)
    if not target.parent.is_dir():
        raise InputError(f"cannot export to {str(path)!r}: its folder does not exist", expected=_EXPORT_TO)
    tmp: Path | None = None
    try:
        # A new name of its own (never an existing file or a link someone left there), given
        # the replaced file's permissions, else the usual ones for a new file.
        handle, made = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".rulekeeper-export")
        tmp = Path(made)
        os.fchmod(handle, stat.S_IMODE(target.stat().st_mode) if target.exists() else 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        tmp.replace(target)
    except OSError:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
        raise InputError(
            f"cannot export to {str(path)!r}: the system refused to write it (permissions, a full or read-only disk)",
            expected=_EXPORT_TO,
        ) from None


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
    campaign: Campaign, sheet_file: str | None, gcs_file: str | None, pairs: Sequence[str]
) -> tuple[dict[str, Any], dict[str, Any] | None, SheetSource | None]:
    """The sheet to add, and for a sheet file in the system's own format (``--gcs``) the import
    report (unused fields, disagreements) and the document, kept so it can be written back."""
    sheet: dict[str, Any] = {}
    if sheet_file is not None:
        document = read_document(sheet_file)
        if not isinstance(document, Mapping):
            raise InputError(f"{sheet_file} holds no sheet", expected="a mapping of sheet fields")
        sheet.update(document)
    sheet.update(parse_assignments(pairs))
    if gcs_file is None:
        return sheet, None, None
    from rulekeeper.campaign.sheet_files import read_sheet_file

    document = read_document(gcs_file)
    imported = read_sheet_file(campaign, "gcs", document, sheet, gcs_file)
    from rulekeeper.campaign import SheetSource

    return dict(imported.sheet), imported.report(gcs_file), SheetSource("gcs", document)


def _print_gcs_report(report: Mapping[str, Any]) -> None:
    for line in report["notes"]:
        print(f"rulekeeper: note: {line}", file=sys.stderr)


def char_add(
    context: Context,
    actor: str,
    *,
    sheet_file: str | None,
    gcs_file: str | None,
    pairs: Sequence[str],
    player: str | None,
    npc: bool,
    like: str | None = None,
    count: int = 1,
    as_json: bool,
) -> None:
    campaign = context.open()
    if count < 1 or count > 100:
        raise InputError(f"cannot add {count} characters at once", expected="--count from 1 to 100")
    if like is not None:
        if sheet_file or gcs_file:
            raise InputError("--like copies a sheet; do not give a sheet file too", expected="--like or --sheet/--gcs")
        like = resolve_actor(campaign, like)
        base = {k: v for k, v in campaign.table.sheets[like].items() if k != "name"}  # the copy is named by its id
        sheet = {**base, **parse_assignments(pairs, base)}
        npc = npc or like in campaign.table.npcs
        report, source = None, None
    else:
        sheet, report, source = _sheet_from(campaign, sheet_file, gcs_file, pairs)
    actors = group_ids(actor, count)
    known = {a.casefold() for a in campaign.state.characters}
    taken = [a for a in actors if a.casefold() in known]
    if taken:
        raise InputError(f"{', '.join(taken)} already in {campaign.name}", expected="new character ids")
    results = [campaign.add_character(a, sheet, player=player, npc=npc, source=source) for a in actors]
    if as_json:
        emit_json(
            {
                "campaign": campaign.name,
                "seq": results[-1].seq,
                "actors": actors,
                "actor": actors[0],
                "view": campaign.view(actors[0]),
            }
            | ({"gcs": report} if report is not None else {})
        )
        return
    if report is not None:
        _print_gcs_report(report)
    if count == 1:
        console().print(f"#{results[0].seq} added {actor} to {campaign.name}.")
        print_view(actor, campaign.view(actor))
        return
    from rulekeeper.cli.status import vitals

    for a, result in zip(actors, results, strict=True):
        console().print(f"#{result.seq} added {a}  {vitals(campaign.system, campaign.view(a))}", highlight=False)


def group_ids(actor: str, count: int) -> list[str]:
    """``orc2`` x3 -> orc2, orc3, orc4; ``orc`` x3 -> orc1, orc2, orc3; one id is itself."""
    if count == 1:
        return [actor]
    stem = actor.rstrip("0123456789")
    start = int(actor[len(stem) :]) if len(stem) < len(actor) else 1
    return [f"{stem}{n}" for n in range(start, start + count)]


def char_rename(context: Context, actor: str, to: str, *, as_json: bool) -> None:
    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    result = campaign.rename_character(actor, to)
    if as_json:
        emit_json({"campaign": campaign.name, "seq": result.seq, "renamed": actor, "to": to})
        return
    console().print(f"#{result.seq} {actor} is now {to} in {campaign.name}.", highlight=False)


def char_remove(context: Context, actor: str, *, as_json: bool) -> None:
    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    result = campaign.remove_character(actor)
    if as_json:
        emit_json({"campaign": campaign.name, "seq": result.seq, "removed": actor})
        return
    console().print(f"#{result.seq} removed {actor} from {campaign.name} ('undo' brings them back).", highlight=False)


def char_edit(context: Context, actor: str, pairs: Sequence[str], *, as_json: bool) -> None:
    if not pairs:
        raise InputError("nothing to change", expected="--set FIELD=VALUE")
    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    result = campaign.edit_character(actor, parse_assignments(pairs, campaign.table.sheets.get(actor)))
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
    from rulekeeper.cli.render import wrap
    from rulekeeper.cli.status import vitals

    for actor in campaign.state.characters:
        conditions = ", ".join(c.name for c in campaign.state.conditions_of(actor))
        line = f"{actor:<16} {vitals(campaign.system, campaign.view(actor))}  {conditions}".rstrip()
        for part in wrap(line, indent="", hanging=" " * 17):
            console().print(part, highlight=False)


def char_show(context: Context, actor: str, *, as_player: str | None, as_json: bool) -> None:
    campaign = context.open()
    actor = resolve_actor(campaign, actor)
    view = campaign.view(actor, as_player=as_player)
    if as_json:
        emit_json({"campaign": campaign.name, "actor": actor, "view": view})
        return
    from rulekeeper.cli.status import vitals

    print_view(actor, view, headline=vitals(campaign.system, view))
