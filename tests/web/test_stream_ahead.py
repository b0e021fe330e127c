"""A page whose last event is ahead of the store (a database restored from a backup) cannot catch
up by events: the stream says ``reset`` with the store's version, then carries on from there
(issue #27 item 3). Before, it waited silently and skipped every event up to the old number."""

from __future__ import annotations

from pathlib import Path

import httpx

from .web_support import EventStream, bearer, serving


def test_a_client_ahead_of_the_store_is_told_to_reload_then_hears_what_follows(tmp_path: Path) -> None:
    with serving(str(tmp_path / "campaigns.db"), tmp_path) as server:
        r = httpx.post(f"{server.url}/api/campaigns", json={"name": "ahead", "system": "gurps", "seed": 3})
        assert r.status_code == 201, r.text
        gm = r.json()["gm_token"]
        url = f"{server.url}/api/campaigns/ahead"
        r = httpx.post(f"{url}/characters", headers=bearer(gm), json={"actor": "hero", "sheet": {"ht": 12}})
        assert r.status_code == 200, r.text
        head = httpx.get(url, headers=bearer(gm)).json()["version"]

        stream = EventStream(f"{url}/events", gm, last_event_id=head + 40)
        try:
            reset = stream.next()
            assert (reset.event, reset.id, reset.data["version"]) == ("reset", None, head)
            r = httpx.post(
                f"{url}/gurps/actions/damage", headers=bearer(gm), json={"actor": "hero", "params": {"amount": 2}}
            )
            assert r.status_code == 200, r.text
            (event,) = stream.until(head + 1)  # the next command is heard, not skipped as "seen"
            assert (event.event, event.id) == ("command", head + 1)
        finally:
            stream.close()

        # A client that is merely up to date gets no reset: it waits for the next command.
        stream = EventStream(f"{url}/events", gm, last_event_id=head + 1)
        try:
            r = httpx.post(
                f"{url}/gurps/actions/damage", headers=bearer(gm), json={"actor": "hero", "params": {"amount": 1}}
            )
            assert r.status_code == 200, r.text
            first = stream.next()
            assert (first.event, first.id) == ("command", head + 2)
        finally:
            stream.close()
