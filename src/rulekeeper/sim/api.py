"""``simulate`` and ``sweep``: the Python API behind ``rulekeeper simulate``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulekeeper.errors import InputError
from rulekeeper.sim.chunks import Progress, plan, run_chunks
from rulekeeper.sim.encounter import Encounter, build_encounter, read_encounter
from rulekeeper.sim.result import SimResult, SweepResult
from rulekeeper.sim.stats import Tally
from rulekeeper.sim.vary import Axis, cells, parse_vary, with_values

__all__ = ["simulate", "sweep"]

MAX_RUNS = 10_000_000
EncounterLike = Encounter | Mapping[str, Any] | str | Path


def _document(encounter: EncounterLike) -> Mapping[str, Any]:
    if isinstance(encounter, Encounter):
        return encounter.document
    if isinstance(encounter, Mapping):
        return encounter
    return read_encounter(encounter)


def _encounter(encounter: EncounterLike, characters: Mapping[str, Any] | None) -> Encounter:
    if isinstance(encounter, Encounter):
        return encounter
    return build_encounter(_document(encounter), characters=characters)


def _check(runs: int, seed: int | None, doc: Mapping[str, Any]) -> int:
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise InputError(
            f"bad number of runs {runs!r}", expected=f"a whole number from 1 to {MAX_RUNS}", where="--runs"
        )
    if seed is None:
        seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"bad seed {seed!r}", expected="a whole number of at least 0", where="--seed")
    return seed


def simulate(
    encounter: EncounterLike,
    runs: int = 1000,
    *,
    seed: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    processes: bool = True,
    client: Any = None,
    characters: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """Fight ``encounter`` ``runs`` times through the engine and estimate the odds.

    ``encounter`` is a file path, a raw document or a loaded :class:`Encounter`. ``seed``
    defaults to the file's ``seed`` (else 0); the same seed gives the same result for any
    ``workers``. ``workers=0`` runs here without Dask; otherwise the chunks run on ``client``,
    on the cluster at ``scheduler``, or on a new local cluster of ``workers`` (default one per
    core). ``characters`` are ready-made characters (a campaign's) that members may name.
    Ctrl-C returns what is done, with ``result.partial`` true.
    """
    import numpy as np

    enc = _encounter(encounter, characters)
    seed = _check(runs, seed, enc.document)
    chunks = plan(0, runs, np.random.SeedSequence(seed))
    done, _ = run_chunks(
        [enc], chunks, workers=workers, scheduler=scheduler, processes=processes, client=client, progress=progress
    )
    return _result(enc, seed, runs, len(chunks), [done[k] for k in sorted(done)])


def _result(enc: Encounter, seed: int, runs: int, chunks: int, tallies: Sequence[Tally]) -> SimResult:
    return SimResult(
        title=enc.title,
        system=enc.system,
        sides=enc.sides,
        fighters=tuple((f.id, f.side) for f in enc.fighters),
        seed=seed,
        runs_asked=runs,
        chunks=chunks,
        chunks_done=len(tallies),
        tally=Tally.total(len(enc.fighters), tallies),
    )


def sweep(
    encounter: EncounterLike,
    vary: Sequence[str | Axis],
    runs: int = 1000,
    *,
    seed: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    processes: bool = True,
    client: Any = None,
    characters: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> SweepResult:
    """``runs`` fights in every cell of the grid the ``vary`` axes span (``PATH=LO..HI`` or ``PATH=A,B``).

    Cell *k* takes child *k* of ``SeedSequence(seed)``, and all cells' chunks share the workers.
    """
    import numpy as np

    doc = _document(encounter)
    axes = [a if isinstance(a, Axis) else parse_vary(a) for a in vary]
    if not axes:
        raise InputError("a sweep needs at least one --vary", expected="PATH=LO..HI", where="--vary")
    grid = cells(axes)
    seed = _check(runs, seed, doc)
    jobs = [build_encounter(with_values(doc, axes, values), characters=characters) for values in grid]
    seeds = np.random.SeedSequence(seed).spawn(len(grid))
    chunks = [c for job, s in enumerate(seeds) for c in plan(job, runs, s)]
    done, _ = run_chunks(
        jobs, chunks, workers=workers, scheduler=scheduler, processes=processes, client=client, progress=progress
    )
    results = []
    for job, (enc, values) in enumerate(zip(jobs, grid, strict=True)):
        per_job = [c for c in chunks if c.job == job]
        tallies = [done[(job, c.index)] for c in per_job if (job, c.index) in done]
        results.append((tuple(values), _result(enc, seed, runs, len(per_job), tallies)))
    first = jobs[0]
    return SweepResult(
        title=first.title,
        system=first.system,
        sides=first.sides,
        axes=tuple((a.path, a.values) for a in axes),
        cells=tuple(results),
    )
