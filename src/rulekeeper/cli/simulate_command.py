"""``simulate``: fight an encounter many times (or a grid of them) and report the odds."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulekeeper.cli.context import Context
from rulekeeper.errors import InputError

__all__ = ["INTERRUPTED", "simulate_command"]

INTERRUPTED = 130  # the shell's code for Ctrl-C; the partial result is still printed


def _encounter_path(file: str) -> Path:
    path = Path(file)
    if path.exists():
        return path
    from rulekeeper.sim import bundled, bundled_names

    if file in bundled_names():
        return bundled(file)
    raise InputError(
        f"no encounter file {file!r}",
        expected="a YAML or JSON file, or a bundled encounter: " + ", ".join(bundled_names()),
    )


def _campaign_characters(ctx: Context, name: str, system: Any) -> Mapping[str, Any]:
    from rulekeeper.campaign import Campaign
    from rulekeeper.core import canonical_system_name

    campaign = Campaign.open(ctx.store(), name)
    wanted = canonical_system_name(str(system))
    if campaign.system != wanted:
        raise InputError(
            f"campaign {name!r} plays {campaign.system}, the encounter {wanted}",
            expected="a campaign of the encounter's system",
            where="--campaign",
        )
    return dict(campaign.state.characters)


def simulate_command(
    ctx: Context,
    file: str,
    *,
    runs: int,
    seed: int | None,
    as_json: bool,
    plot: str | None,
    campaign: str | None,
    vary: Sequence[str],
    scheduler: str | None,
    workers: int | None,
) -> int:
    from rulekeeper.sim.chunks import CHUNK_RUNS
    from rulekeeper.sim.encounter import read_encounter

    if plot is not None and not plot.lower().endswith((".svg", ".png")):
        raise InputError(
            f"cannot write a plot to {plot!r}", expected="a file name ending in .svg or .png", where="--plot"
        )
    from rulekeeper.limits import MAX_SIM_WORKERS

    if workers is not None and not 0 <= workers <= MAX_SIM_WORKERS:
        raise InputError(
            f"bad --workers {workers}",
            expected=f"0 (this process) to {MAX_SIM_WORKERS} processes",
            where="--workers",
        )
    doc = read_encounter(_encounter_path(file))
    characters = _campaign_characters(ctx, campaign, doc.get("system")) if campaign else None
    if workers is None and scheduler is None and runs <= CHUNK_RUNS and not vary:
        workers = 0  # one chunk: starting a cluster would cost more than the fights
    from rulekeeper.sim import simulate, sweep

    try:
        with _progress(enabled=not as_json) as progress:
            kwargs: dict[str, Any] = {
                "seed": seed,
                "workers": workers,
                "scheduler": scheduler,
                "characters": characters,
                "progress": progress,
            }
            result = sweep(doc, vary, runs, **kwargs) if vary else simulate(doc, runs, **kwargs)
    except KeyboardInterrupt:
        # Stopped while the cluster was starting or closing: there is no result to show.
        print("rulekeeper: interrupted before any fight finished", file=sys.stderr)
        return INTERRUPTED
    if plot is not None:
        from rulekeeper.sim.plot import save

        save(result.plot(), plot)
    if as_json:
        from rulekeeper.cli.output import emit_json

        emit_json(result.to_json())
    else:
        from rulekeeper.cli.output import console
        from rulekeeper.sim.report import result_table, sweep_table
        from rulekeeper.sim.result import SimResult

        out = console()
        if not out.is_terminal:
            # Five outcomes with intervals need about 120 columns; a pipe's default 80 would cut them off.
            out.width = max(out.width, 120)
        out.print(result_table(result) if isinstance(result, SimResult) else sweep_table(result))
        if plot is not None:
            console().print(f"plot written to {plot}")
    return INTERRUPTED if result.partial else 0


class _progress:
    """A Rich progress bar of chunks on stderr (none for --json, so stdout stays pure JSON)."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Any:
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn("fights"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("chunks"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self.bar.start()
        self.task = self.bar.add_task("chunks", total=None)

        def update(done: int, total: int) -> None:
            self.bar.update(self.task, completed=done, total=total)

        return update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
