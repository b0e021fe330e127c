"""``rulekeeper actions [SYSTEM]``: a system's actions, listed without a campaign.

The actions (``damage``, ``heal``, ``rest`` ...) are commands only once a campaign is chosen,
because they are its system's: with none, ``rulekeeper --help`` could list none, and a newcomer
could not tell they exist. This lists any system's from the ruleset registry, and
:func:`no_campaign_note` is what ``--help`` says instead. Nothing here names a system: every
name and example comes from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekeeper.cli.output import console, emit_json
from rulekeeper.errors import InputError

if TYPE_CHECKING:
    from rulekeeper.cli.context import Context

__all__ = ["list_actions", "no_campaign_note"]


def _shared_actions(systems: tuple[str, ...]) -> list[str]:
    """The actions every system has (the examples a newcomer recognises), by name."""
    from rulekeeper.core import get_ruleset

    common: set[str] | None = None
    for system in systems:
        names = set(get_ruleset(system).actions())
        common = names if common is None else common & names
    return sorted(common or ())


def no_campaign_note() -> str:
    """What ``rulekeeper --help`` says in place of the actions when no campaign is chosen."""
    from rulekeeper.core import system_names

    systems = system_names()
    shared = _shared_actions(systems)
    examples = f" ({', '.join(shared)} and more)" if shared else ""
    first = systems[0] if systems else "SYSTEM"
    return (
        f"No campaign is chosen, so no actions are listed. Actions{examples} come with a campaign's"
        f" game system: each becomes a command once a campaign is in use ('rulekeeper campaign use"
        f" NAME', or --campaign NAME). To see a system's actions first: 'rulekeeper actions SYSTEM',"
        f" e.g. 'rulekeeper actions {first}' (systems: {', '.join(systems)})."
    )


def list_actions(context: Context, system: str | None, *, as_json: bool) -> None:
    """Print ``system``'s actions (default: the chosen campaign's system)."""
    from rulekeeper.core import get_ruleset, system_names

    if system is None or not system.strip():
        from rulekeeper.cli.context import campaign_system

        selected = campaign_system(context.db, context.campaign)
        if selected is None:
            raise InputError(
                "no campaign is chosen, so say which system's actions to list",
                expected="rulekeeper actions SYSTEM, SYSTEM one of: " + ", ".join(system_names()),
            )
        system = selected[1]
    ruleset = get_ruleset(system)
    specs = sorted(ruleset.actions().values(), key=lambda s: s.name)
    if as_json:
        out: dict[str, Any] = {
            "system": ruleset.name,
            "title": ruleset.title,
            "actions": [{"name": s.name, "help": s.help, "params": [p.name for p in s.params]} for s in specs],
        }
        emit_json(out)
        return
    con = console()
    con.print(f"{ruleset.title} ({ruleset.name}): {len(specs)} actions.", highlight=False)
    width = max((len(s.name) for s in specs), default=0)
    for spec in specs:
        con.print(f"  {spec.name:<{width}}  {spec.help}", highlight=False, soft_wrap=True)
    con.print(
        f"In a campaign of this system each is a command ('rulekeeper ACTION --help' for its options);"
        f" start one with 'rulekeeper campaign new NAME --system {ruleset.name}'.",
        highlight=False,
    )
