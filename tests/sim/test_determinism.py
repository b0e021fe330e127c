"""The same seed gives the same JSON whatever runs the chunks: this process, one worker or two.

One test starts a real Dask LocalCluster (threads, so it is quick and light on a shared machine);
chunking never depends on the workers, so the result must match the in-process run exactly.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from rulekeeper.sim import bundled, load_document, simulate
from rulekeeper.sim.chunks import plan, run_chunks
from rulekeeper.sim.stats import Tally


def _json(**kwargs: object) -> str:
    return json.dumps(simulate(bundled("gurps-duel"), 450, seed=9, **kwargs).to_json(), sort_keys=True)  # type: ignore[arg-type]


def test_same_seed_same_json_in_process_and_on_a_local_dask_cluster_of_one_and_two_workers() -> None:
    pytest.importorskip("dask.distributed")
    inline = _json(workers=0)
    assert json.loads(inline)["runs"] == 450 and json.loads(inline)["chunks"] == 5
    assert _json(workers=1, processes=False) == inline
    assert _json(workers=2, processes=False) == inline


def test_chunk_order_does_not_matter_and_another_seed_differs() -> None:
    enc = load_document(bundled("gurps-duel"))
    chunks = plan(0, 350, np.random.SeedSequence(4))
    done, stopped = run_chunks([enc], chunks, workers=0)
    assert not stopped and len(done) == 4
    shuffled = list(chunks)
    random.Random(1).shuffle(shuffled)
    again, _ = run_chunks([enc], shuffled, workers=0)
    forward = Tally.total(2, [done[k] for k in sorted(done)])
    backward = Tally.total(2, [again[(c.job, c.index)] for c in shuffled])
    assert forward == backward
    other = simulate(enc, 350, seed=5, workers=0)
    assert other.tally != forward


def test_the_last_chunk_is_short_and_runs_add_up() -> None:
    chunks = plan(0, 250, np.random.SeedSequence(0))
    assert [c.runs for c in chunks] == [100, 100, 50]


def test_ctrl_c_keeps_the_chunks_done_and_marks_the_result_partial() -> None:
    calls = {"n": 0}

    def interrupt_after_two(done: int, total: int) -> None:
        calls["n"] += 1
        if done == 2:
            raise KeyboardInterrupt

    result = simulate(bundled("gurps-duel"), 500, seed=1, workers=0, progress=interrupt_after_two)
    assert calls["n"] == 3  # told of 0 chunks done (the bar's length), then 1, then 2
    assert result.partial and result.chunks_done == 2 and result.runs == 200
    assert result.to_json()["partial"] is True and result.to_json()["runs_asked"] == 500


def test_an_existing_cluster_by_scheduler_address_gives_the_same_result() -> None:
    dd = pytest.importorskip("dask.distributed")
    with dd.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=":0"
    ) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://")
        on_cluster = simulate(bundled("gurps-duel"), 450, seed=9, scheduler=address).to_json()
    assert json.dumps(on_cluster, sort_keys=True) == _json(workers=0)


def test_an_unreachable_scheduler_is_bad_input() -> None:
    pytest.importorskip("dask.distributed")
    from rulekeeper.errors import InputError

    with pytest.raises(InputError, match="--scheduler"):
        simulate(bundled("gurps-duel"), 200, seed=1, scheduler="tcp://127.0.0.1:9")


def test_one_client_serves_several_simulations_in_a_row() -> None:
    dd = pytest.importorskip("dask.distributed")
    with (
        dd.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        dd.Client(cluster) as client,
    ):
        first = [simulate(bundled("gurps-duel"), 250, seed=9, client=client).to_json() for _ in range(3)]
    assert first[0] == first[1] == first[2]
