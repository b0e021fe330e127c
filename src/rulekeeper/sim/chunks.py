"""Splitting runs into seeded chunks and running them here or on a Dask cluster.

The chunking depends only on the number of runs and the seed, never on the workers: chunk *i*
of a job always fights ``CHUNK_RUNS`` fights (fewer for the last) with dice seeded from child
*i* of ``numpy.random.SeedSequence(seed).spawn``. Tallies are integer counts added up by
chunk, so one worker, two workers or a cluster, in any completion order, give the same result.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekeeper.dice.source import SeededSource
from rulekeeper.errors import InputError
from rulekeeper.sim.encounter import Encounter
from rulekeeper.sim.fight import fight
from rulekeeper.sim.stats import Tally

if TYPE_CHECKING:
    from numpy.random import SeedSequence

__all__ = ["CHUNK_RUNS", "Chunk", "Progress", "plan", "run_chunk", "run_chunks"]

CHUNK_RUNS = 100
SIM_EXTRA = "pip install 'rulekeeper[sim]'"

Progress = Callable[[int, int], None]  # (chunks done, chunks in all)


@dataclass(frozen=True)
class Chunk:
    job: int  # which encounter (a sweep's cell; 0 for a single simulation)
    index: int
    runs: int
    seed: SeedSequence


def plan(job: int, runs: int, seed: SeedSequence) -> list[Chunk]:
    count = max(1, math.ceil(runs / CHUNK_RUNS))
    children = seed.spawn(count)
    return [Chunk(job, i, min(CHUNK_RUNS, runs - i * CHUNK_RUNS), child) for i, child in enumerate(children)]


def run_chunk(encounter: Encounter, runs: int, seed: SeedSequence) -> Tally:
    """Fight ``runs`` fights with dice from ``seed``; runs on a worker, so it takes only picklable data."""
    import numpy as np

    dice = SeededSource(int.from_bytes(seed.generate_state(4, np.uint32).tobytes(), "little"))
    tally = Tally(len(encounter.fighters))
    for _ in range(runs):
        tally.add(fight(encounter, dice))
    return tally


def _dask() -> Any:
    try:
        import dask.distributed as dd
    except ImportError:
        raise InputError("simulate needs dask.distributed", expected=f"the sim extra: {SIM_EXTRA}") from None
    return dd


def run_chunks(
    jobs: Sequence[Encounter],
    chunks: Sequence[Chunk],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    processes: bool = True,
    client: Any = None,
    progress: Progress | None = None,
) -> tuple[dict[tuple[int, int], Tally], bool]:
    """Run every chunk; returns the tallies done by (job, index) and whether Ctrl-C stopped it early.

    ``workers=0`` runs in this process (no Dask); otherwise a Dask ``client`` given, or one on
    ``scheduler`` (an existing cluster), or a ``LocalCluster`` of ``workers`` (default: one per core).
    """
    done: dict[tuple[int, int], Tally] = {}
    total = len(chunks)
    if progress:
        progress(0, total)  # the bar knows its length before the first chunk is back
    if workers == 0 and client is None and scheduler is None:
        try:
            for c in chunks:
                done[(c.job, c.index)] = run_chunk(jobs[c.job], c.runs, c.seed)
                if progress:
                    progress(len(done), total)
        except KeyboardInterrupt:
            return done, True
        return done, False
    dd = _dask()
    cluster = None
    own_client = client is None
    try:
        if client is None:
            if scheduler is not None:
                try:
                    client = dd.Client(scheduler, timeout="10s")
                except (OSError, TimeoutError, ValueError) as exc:
                    raise InputError(
                        f"cannot reach the Dask scheduler {scheduler} ({exc})",
                        expected="a running scheduler, e.g. tcp://HOST:8786",
                        where="--scheduler",
                    ) from None
            else:
                with _workers_ignore_ctrl_c(processes):
                    cluster = dd.LocalCluster(
                        n_workers=workers or os.cpu_count() or 1,
                        threads_per_worker=1,
                        processes=processes,
                        dashboard_address=":0",  # any free port: never clash with another cluster
                        silence_logs=logging.ERROR,
                    )
                client = dd.Client(cluster)
        return _on_cluster(dd, client, jobs, chunks, done, progress)
    finally:
        if own_client and client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


@contextlib.contextmanager
def _workers_ignore_ctrl_c(processes: bool) -> Iterator[None]:
    """Start worker processes with Ctrl-C ignored (an ignored signal survives exec), so that only
    this process sees it: it cancels the chunks and closes the cluster, rather than the workers
    dying under it mid-chunk."""
    if not processes or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _on_cluster(
    dd: Any,
    client: Any,
    jobs: Sequence[Encounter],
    chunks: Sequence[Chunk],
    done: dict[tuple[int, int], Tally],
    progress: Progress | None,
) -> tuple[dict[tuple[int, int], Tally], bool]:
    # Each encounter goes to the workers once, not once per chunk. A fresh key each time (hash=False):
    # with content-hashed keys, a second run on the same client could ask for data the first run's
    # clean-up was just releasing ("lost dependencies").
    shipped = [client.scatter(job, broadcast=True, hash=False) for job in jobs]
    futures = {client.submit(run_chunk, shipped[c.job], c.runs, c.seed, pure=False): (c.job, c.index) for c in chunks}
    try:
        for future in dd.as_completed(list(futures)):
            done[futures[future]] = future.result()
            if progress:
                progress(len(done), len(chunks))
    except KeyboardInterrupt:
        # Ctrl-C reaches the local workers too; their closing connections are expected now, not news.
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        client.cancel(list(futures))
        return done, True
    return done, False
