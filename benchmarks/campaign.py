"""Campaign store benchmark: commands per second, and loading 100,000 events with and without snapshots.

    .venv/bin/python benchmarks/campaign.py [--commands 2000] [--events 100000] [--system gurps]
                                            [--backends sqlite,postgresql]

For each backend it prints:

* commands per second, each applied by the rules and appended in its own transaction
  (goal on SQLite: at least 1,000/s);
* the time to load (``Campaign.open``) a campaign of ``--events`` events from its newest
  snapshot -- which sits up to 100 events back, so up to 100 commands are replayed -- and by
  replaying every event from the start, and the ratio (goal: under 0.2 s with snapshots).

PostgreSQL is started by the same helper the test suite uses
(:mod:`rulekeeper.store.local_postgres`: ``RULEKEEPER_TEST_PG_URL``, else ``pgserver``, else the
system's PostgreSQL). The large campaign is built once in memory through the ordinary command
path and copied into each store in one transaction.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core import Action
from rulekeeper.store import EventRecord, NewCampaign, SnapshotRecord, Store
from rulekeeper.store.local_postgres import LocalPostgres, start_local_postgres
from rulekeeper.store.memory import MemoryStore

SHEETS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "gurps": ({"st": 10, "ht": 12}, {"st": 12, "ht": 11}),
    "wrath-and-glory": ({"tier": 1, "toughness": 3, "willpower": 3}, {"tier": 2, "toughness": 4, "willpower": 3}),
    "gods-and-monsters": ({"archetype": "warrior", "level": 2}, {"archetype": "warrior", "level": 3}),
    "vi-viii-x": ({"name": "A", "BU": 6, "CO": 5, "IN": 4, "EM": 5}, {"name": "B", "BU": 7, "CO": 5, "IN": 4, "EM": 5}),
}
HEAL = {"gurps": "amount", "wrath-and-glory": "shock", "gods-and-monsters": "survival", "vi-viii-x": "amount"}


def command_mix(campaign: Campaign) -> Callable[[int], None]:
    """A table's everyday traffic: small hits, healing them, rounds going by."""
    system = campaign.ruleset.name
    heal_param = HEAL[system]

    def issue(i: int) -> None:
        step = i % 6
        actor = "hero" if step < 2 else "foe"
        if step in (0, 2):
            campaign.act(Action("damage", actor, {"amount": 1}))
        elif step in (1, 3):
            campaign.act(Action("heal", actor, {heal_param: 1}))
        else:
            campaign.next_round()

    return issue


def new_campaign(store: Store, name: str, system: str) -> Campaign:
    campaign = Campaign.create(store, name, system, seed=2024)
    hero, foe = SHEETS[system]
    campaign.add_character("hero", hero, player="ana")
    campaign.add_character("foe", foe, npc=True)
    return campaign


@contextmanager
def backends(names: list[str], workdir: Path) -> Iterator[list[tuple[str, str]]]:
    server: LocalPostgres | None = None
    urls = []
    try:
        for name in names:
            if name == "sqlite":
                urls.append(("sqlite", str(workdir / "bench.db")))
            elif name == "postgresql":
                server = start_local_postgres(workdir / "pg")
                urls.append((f"postgresql ({server.how})", server.create_database("rk_bench")))
            else:
                raise SystemExit(f"unknown backend {name}")
        yield urls
    finally:
        if server is not None:
            server.stop()


def commands_per_second(store: Store, system: str, count: int) -> float:
    campaign = new_campaign(store, "throughput", system)
    issue = command_mix(campaign)
    for i in range(50):  # warm up imports and caches
        issue(i)
    start = time.perf_counter()
    for i in range(count):
        issue(i)
    elapsed = time.perf_counter() - start
    assert campaign.version == 2 + 50 + count
    return count / elapsed


def build_history(system: str, events: int) -> tuple[NewCampaign, list[EventRecord], list[SnapshotRecord]]:
    memory = MemoryStore()
    campaign = new_campaign(memory, "large", system)
    issue = command_mix(campaign)
    i = 0
    while campaign.version < events:
        issue(i)
        i += 1
    record = campaign.record
    with memory.reading(record.id) as history:
        all_events = history.events()
    # Drop the snapshot at the very end, so a load replays the longest tail it ever would.
    snapshots = [s for s in memory.snapshots_of(record.id) if s.version <= events - campaign.snapshot_every]
    header = NewCampaign(record.name, record.system, record.seed, record.gm, record.settings, record.created)
    return header, all_events, snapshots


def timed_open(store: Store, name: str, *, use_snapshots: bool, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        campaign = Campaign.open(store, name, use_snapshots=use_snapshots)
        times.append(time.perf_counter() - start)
        assert campaign.version > 0
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--system", default="gurps", choices=sorted(SHEETS))
    parser.add_argument("--backends", default="sqlite,postgresql")
    args = parser.parse_args()

    print(f"building a {args.events:,}-event {args.system} campaign in memory ...", flush=True)
    start = time.perf_counter()
    header, events, snapshots = build_history(args.system, args.events)
    print(f"  built in {time.perf_counter() - start:.1f}s ({len(snapshots)} snapshots)\n", flush=True)

    with tempfile.TemporaryDirectory(prefix="rk-bench-") as tmp, backends(args.backends.split(","), Path(tmp)) as urls:
        for label, url in urls:
            with open_store(url) as store:
                rate = commands_per_second(store, args.system, args.commands)
                print(f"{label}: {rate:,.0f} commands/s appended and applied ({args.commands} commands)", flush=True)
                start = time.perf_counter()
                store.create_campaign(header, events, snapshots)
                copied = time.perf_counter() - start
                print(f"{label}: copied {len(events):,} events in {copied:.1f}s", flush=True)
                fast = timed_open(store, header.name, use_snapshots=True, repeat=5)
                slow = timed_open(store, header.name, use_snapshots=False, repeat=1)
                print(
                    f"{label}: load {len(events):,} events: {fast:.3f}s with snapshots, {slow:.2f}s without "
                    f"(ratio {fast / slow:.4f}, {slow / fast:,.0f}x faster)\n",
                    flush=True,
                )


if __name__ == "__main__":
    main()
