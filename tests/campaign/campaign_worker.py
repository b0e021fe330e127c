"""A separate process writing to one campaign, for the crash and concurrency tests.

    python campaign_worker.py URL CAMPAIGN MODE COUNT WORKER [START_FILE]

Prints one line per acknowledged command, flushed at once: ``ok KEY SEQ``; in ``mixed`` mode
also ``retried KEY SEQ`` (a resent key) and ``conflict KEY`` (a refused stale version).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import campaign_toy

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core import Action
from rulekeeper.errors import ConflictError


def main() -> None:
    url, name, mode, count, worker = sys.argv[1:6]
    start_file = Path(sys.argv[6]) if len(sys.argv) > 6 else None
    campaign_toy.register()
    store = open_store(url)
    campaign = Campaign.open(store, name)
    first_version = campaign.version
    print("ready", flush=True)
    while start_file is not None and not start_file.exists():
        time.sleep(0.01)
    hit = Action("damage", "pool", {"amount": 1})
    for i in range(int(count)):
        key = f"{worker}-{i}"
        if mode == "mixed" and i % 10 == 3:
            # Deliberately stale: this process has written since first_version.
            try:
                campaign.act(hit, key=key, expected_version=first_version)
                print(f"unexpected {key}", flush=True)
            except ConflictError as exc:
                print(f"conflict {key} {len(getattr(exc, 'changes', ()))}", flush=True)
        if mode == "mixed" and i % 10 == 6:
            try:
                result = campaign.act(hit, key=key, expected_version=campaign.version)
            except ConflictError:
                print(f"conflict {key} 0", flush=True)
                result = campaign.act(hit, key=key)
        else:
            result = campaign.act(hit, key=key)
        print(f"ok {key} {result.seq}", flush=True)
        if mode == "mixed" and i % 7 == 0:
            again = campaign.act(hit, key=key)
            print(f"retried {key} {again.seq} {int(again.retried)}", flush=True)
    store.close()


if __name__ == "__main__":
    main()
