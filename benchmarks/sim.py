"""Simulation benchmark: GURPS duels per second, side by side, from one run.

    .venv/bin/python benchmarks/sim.py [--duels 2000] [--big 10000] [--encounter gurps-duel]

The duel is the bundled ``gurps-duel``: two broadsword fighters (ST 12, DX 12, HT 12, Broadsword
14, sw+1 cut) parrying, fought to unconsciousness or death. It prints:

* a plain per-fight Python loop over the engine, on the ordinary (fully explained) path and on
  the simulation path (``explain=False``: the same rules, no step text, roll rendering or odds),
  and the speed-up of the second over the first -- wall clock and CPU time, since the machine
  may be shared;
* ``simulate`` with 1 and with 2 local Dask workers (processes): wall time including cluster
  start-up, and duels per second on a cluster already running, with the 1 -> 2 scaling;
* ``--big`` duels on 2 workers, start-up included, against the 15 s goal.

Goals (issue 17): >= 500 duels/s per core on the simulation path; 10,000 duels in < 15 s on 2
cores; near-linear scaling from 1 to 2 workers.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from rulekeeper.dice.source import SeededSource
from rulekeeper.sim import bundled, fight, load_document, simulate


def _loop(n: int, explain: bool, encounter: str) -> tuple[float, float]:
    enc = load_document(bundled(encounter))
    dice = SeededSource(1)
    fight(enc, dice, explain=explain)  # warm the ruleset and the dice grammar
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(n):
        fight(enc, dice, explain=explain)
    return n / (time.perf_counter() - wall), n / (time.process_time() - cpu)


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _cluster_rate(workers: int, n: int, encounter: str) -> tuple[float, float, float]:
    """(seconds including start-up, duels/s once the cluster is up, duels per worker CPU-second)."""
    import dask.distributed as dd

    path = bundled(encounter)
    with_start = _timed(lambda: simulate(path, n, seed=1, workers=workers))
    with (
        dd.LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0") as cluster,
        dd.Client(cluster) as client,
    ):
        simulate(path, 200, seed=2, client=client)  # workers import the rules once
        before = client.run(time.process_time)
        running = _timed(lambda: simulate(path, n, seed=1, client=client))
        after = client.run(time.process_time)
    cpu = sum(after[w] - before[w] for w in after)
    return with_start, n / running, n / cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duels", type=int, default=2000)
    parser.add_argument("--big", type=int, default=10_000)
    parser.add_argument("--encounter", default="gurps-duel")
    args = parser.parse_args()
    n = args.duels
    print(f"{os.cpu_count()} CPU(s); load average {os.getloadavg()[0]:.1f}; encounter {args.encounter}")
    loud_wall, loud_cpu = _loop(n, True, args.encounter)
    quiet_wall, quiet_cpu = _loop(n, False, args.encounter)
    print(f"plain loop, ordinary engine path:   {loud_wall:8.0f} duels/s wall  {loud_cpu:8.0f} duels/s CPU")
    print(f"plain loop, simulation engine path: {quiet_wall:8.0f} duels/s wall  {quiet_cpu:8.0f} duels/s CPU")
    up_wall, up_cpu = quiet_wall / loud_wall, quiet_cpu / loud_cpu
    print(f"speed-up of the simulation path:    {up_wall:8.2f} x wall    {up_cpu:8.2f} x CPU")
    one_start, one_rate, one_cpu = _cluster_rate(1, n, args.encounter)
    two_start, two_rate, two_cpu = _cluster_rate(2, n, args.encounter)
    for w, start, rate, cpu in ((1, one_start, one_rate, one_cpu), (2, two_start, two_rate, two_cpu)):
        print(
            f"simulate, {w} worker(s): {n} duels in {start:6.2f} s with start-up; {rate:8.0f} duels/s running; "
            f"{cpu:6.0f} duels per worker CPU-second"
        )
    print(f"scaling 1 -> 2 workers: {two_rate / one_rate:.2f} x wall (2.00 would be linear; needs an idle machine)")
    big = _timed(lambda: simulate(bundled(args.encounter), args.big, seed=3, workers=2))
    verdict = "meets" if big < 15 else "misses"
    print(f"simulate, 2 workers: {args.big} duels in {big:.2f} s with start-up ({verdict} the < 15 s goal)")


if __name__ == "__main__":
    main()
