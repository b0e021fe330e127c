"""Drivers for the web tests: the API in process (httpx's ASGI transport), a uvicorn server in a
thread (for event streams, which the ASGI transport cannot read while they are open), a real
``rulekeeper serve`` subprocess, and an SSE reader."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractAsyncContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI

RULEKEEPER = str(Path(sys.executable).parent / "rulekeeper")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class InProcess:
    """The app behind httpx's ASGI transport, lifespan included, driven synchronously."""

    def __init__(self, app: FastAPI, *, client: tuple[str, int] = ("127.0.0.1", 123)) -> None:
        self.app = app
        self._loop = asyncio.new_event_loop()
        self._life: AbstractAsyncContextManager[Any] = app.router.lifespan_context(app)
        self._loop.run_until_complete(self._life.__aenter__())
        self._client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=client), base_url="http://rulekeeper.test"
        )

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        return self._loop.run_until_complete(self._client.request(method, url, **kw))

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)

    def patch(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("PATCH", url, **kw)

    def run(self, awaitable: Any) -> Any:
        """Await something on the app's own event loop (its connections belong to it)."""
        return self._loop.run_until_complete(awaitable)

    def at_once(self, requests: list[tuple[str, str, dict[str, Any]]], *, timeout: float = 60) -> list[httpx.Response]:
        """``(method, url, keywords)`` requests sent together; an ``AssertionError`` if they are
        not all answered within ``timeout`` seconds (a server that hangs fails, not the suite)."""

        async def send() -> list[httpx.Response]:
            return list(await asyncio.gather(*(self._client.request(m, u, **kw) for m, u, kw in requests)))

        try:
            return self._loop.run_until_complete(asyncio.wait_for(send(), timeout))
        except TimeoutError:
            raise AssertionError(
                f"{len(requests)} requests sent together were not all answered in {timeout:g} s"
            ) from None

    def close(self) -> None:
        self._loop.run_until_complete(self._client.aclose())
        self._loop.run_until_complete(self._life.__aexit__(None, None, None))
        self._loop.close()


class ThreadServer:
    """The app on a real socket, served by uvicorn in a thread of this process."""

    def __init__(self, app: FastAPI) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the in-process server did not start")
            time.sleep(0.02)

    def close(self) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)


@dataclass
class ServeProcess:
    """``rulekeeper serve`` in a subprocess of its own process group (killed in teardown)."""

    db: str | None
    workers: int = 1
    env: Mapping[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    #: More ``serve`` options, e.g. ``("--access-log",)``.
    options: tuple[str, ...] = ()
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, log_dir: Path) -> ServeProcess:
        self.log = log_dir / f"serve-{self.port}.log"
        env = {**os.environ, **self.env}
        db = [] if self.db is None else ["--db", self.db]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [RULEKEEPER, "serve", *db, "--port", str(self.port), "--workers", str(self.workers), *self.options],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rulekeeper serve exited: {self.log.read_text()}")
            try:
                r = httpx.get(f"{self.url}/api/health", timeout=2)
                if r.status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("rulekeeper serve did not answer in 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)


@contextmanager
def serving(
    db: str | None,
    tmp: Path,
    workers: int = 1,
    env: Mapping[str, str] | None = None,
    options: tuple[str, ...] = (),
) -> Iterator[ServeProcess]:
    server = ServeProcess(db, workers, dict(env or {}), options=options).start(tmp)
    try:
        yield server
    finally:
        server.stop()


@dataclass
class SseEvent:
    id: int | None
    event: str
    data: Any


class EventStream:
    """An open SSE connection read line by line; ``comments`` keeps ``: ...`` lines."""

    def __init__(self, url: str, token: str, *, last_event_id: int | None = None, timeout: float = 30) -> None:
        headers = bearer(token)
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self._client = httpx.Client(timeout=httpx.Timeout(timeout, connect=10))
        self._cm = self._client.stream("GET", url, headers=headers)
        self.response = self._cm.__enter__()
        self._lines = self.response.iter_lines()
        self.comments: list[str] = []

    def next(self) -> SseEvent:
        fields: dict[str, str] = {}
        for line in self._lines:
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
                continue
            if not line:
                if fields:
                    data = json.loads(fields.get("data", "null"))
                    return SseEvent(int(fields["id"]) if "id" in fields else None, fields.get("event", ""), data)
                continue
            key, _, value = line.partition(":")
            fields[key] = value.lstrip(" ")
        raise EOFError("the stream ended")

    def until(self, seq: int) -> list[SseEvent]:
        """Every event up to and including the one with id ``seq``."""
        out: list[SseEvent] = []
        while True:
            event = self.next()
            out.append(event)
            if event.id is not None and event.id >= seq:
                return out

    def close(self) -> None:
        self._cm.__exit__(None, None, None)
        self._client.close()


def sheets_6810() -> Mapping[str, Mapping[str, Any]]:
    return {
        "ranger": {"name": "Ranger", "BU": 6, "CO": 5, "IN": 4, "EM": 5, "us": {"VIG": 3}},
        "adept": {
            "name": "Adept",
            "BU": 4,
            "CO": 5,
            "IN": 6,
            "EM": 5,
            "us": {"VIG": 3, "QZX": {"ks": "IN", "value": 8}},
        },
    }


#: Per system alias: (a player's character, an NPC), each with a sheet the rules accept -- the
#: GM screen's tests, in process and in Chromium.
SCREEN_CAST: dict[str, tuple[tuple[str, dict[str, Any]], tuple[str, dict[str, Any]]]] = {
    "gurps": (
        (
            "hero",
            {
                "name": "Hero",
                "ht": 12,
                "skills": {"broadsword": 12},
                "shield": 11,
                "weapons": [{"name": "Sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"}],
            },
        ),
        ("orc", {"name": "Orc", "ht": 10, "st": 13}),
    ),
    "wg": (
        ("ari", {"name": "Ari", "tier": 1, "toughness": 3, "willpower": 3, "agility": 4}),
        ("bo", {"name": "Bo", "toughness": 4, "willpower": 2}),
    ),
    "gm": (
        ("toro", {"name": "Toro", "archetype": "warrior", "level": 2, "survival": 7, "verve": 17}),
        ("gob", {"name": "Gob", "archetype": "warrior", "level": 1, "survival": 5}),
    ),
    "6810": (("ranger", dict(sheets_6810()["ranger"])), ("adept", dict(sheets_6810()["adept"]))),
}
#: Damage that asks for rolls in each system of ``SCREEN_CAST``.
SCREEN_HURT: dict[str, dict[str, Any]] = {
    "gurps": {"amount": 14},
    "wg": {"amount": 9},
    "gm": {"amount": 12},
    "6810": {"amount": 2, "us": "VIG"},
}
#: A GURPS fighter with a melee weapon, a bow and a punch: the player's turn offers each.
GURPS_FIGHTER: dict[str, Any] = {
    "st": 11,
    "dx": 12,
    "ht": 11,
    "skills": {"broadsword": 13, "brawling": 12, "bow": 12},
    "weapons": [
        {"name": "Punch", "skill": "brawling", "damage": "thr-1", "kind": "unarmed"},
        {"name": "sword", "skill": "broadsword", "damage": "sw+1", "damage_type": "cut"},
        {"name": "bow", "skill": "bow", "damage": "1d+2", "damage_type": "imp", "kind": "missile", "range": "150/200"},
    ],
}


def cli(*args: str, env: Mapping[str, str], code: int = 0) -> str:
    """Run the ``rulekeeper`` command; returns its standard output."""
    proc = subprocess.run([RULEKEEPER, *args], capture_output=True, text=True, env={**os.environ, **env}, timeout=120)
    assert proc.returncode == code, (args, proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def cli_json(*args: str, env: Mapping[str, str]) -> Any:
    return json.loads(cli(*args, "--json", env=env))
